import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { Contract } from '../../../contracts/contracts';
import { formatMoney } from '../../../domain';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const INK = rgb(0.12, 0.14, 0.2);
const MUTED = rgb(0.4, 0.43, 0.5);
const RULE = rgb(0.85, 0.87, 0.9);

/** The standard PDF fonts only encode WinAnsi: anything else is replaced rather than failing. */
function safe(text: string): string {
  return text.replace(/[^\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u20ac]/g, '?');
}

interface Cursor {
  page: PDFPage;
  y: number;
}

/**
 * The key-facts statement a customer receives before signing (PRODUCT.md: price, deposit,
 * instalment, APR, total cost, fees, schedule), generated from the contract's own figures.
 */
export async function keyFactsPdf(
  contract: Contract,
  organisationName: string,
  generatedOn: string,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Key facts statement ${contract.number}`);
  pdf.setAuthor(safe(organisationName));
  pdf.setCreator('DeviceFin');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const money = (minor: number) => formatMoney(minor, contract.currency, { display: 'code' });

  const newPage = (): Cursor => ({ page: pdf.addPage(A4), y: A4[1] - MARGIN });
  let at = newPage();
  const ensure = (height: number) => {
    if (at.y - height < MARGIN) at = newPage();
  };
  const text = (
    value: string,
    x: number,
    options: { size?: number; font?: PDFFont; color?: ReturnType<typeof rgb> } = {},
  ) =>
    at.page.drawText(safe(value), {
      x,
      y: at.y,
      size: options.size ?? 10,
      font: options.font ?? regular,
      color: options.color ?? INK,
    });
  const rightText = (value: string, right: number, options: { size?: number; font?: PDFFont } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 10;
    at.page.drawText(safe(value), {
      x: right - font.widthOfTextAtSize(safe(value), size),
      y: at.y,
      size,
      font,
      color: INK,
    });
  };
  const rule = () =>
    at.page.drawLine({
      start: { x: MARGIN, y: at.y + 4 },
      end: { x: A4[0] - MARGIN, y: at.y + 4 },
      thickness: 0.5,
      color: RULE,
    });

  text(organisationName, MARGIN, { size: 11, font: bold, color: MUTED });
  at.y -= 26;
  text('Key facts statement', MARGIN, { size: 20, font: bold });
  at.y -= 18;
  text(
    `Contract ${contract.number}  ·  prepared ${generatedOn}  ·  status ${contract.status.replace('_', ' ')}`.replace(
      /·/g,
      '-',
    ),
    MARGIN,
    { color: MUTED },
  );
  at.y -= 28;

  const pairs = (title: string, rows: Array<[string, string]>) => {
    ensure(24 + rows.length * 16);
    text(title, MARGIN, { size: 12, font: bold });
    at.y -= 8;
    rule();
    at.y -= 12;
    for (const [label, value] of rows) {
      text(label, MARGIN, { color: MUTED });
      rightText(value, A4[0] - MARGIN, { font: bold });
      at.y -= 16;
    }
    at.y -= 10;
  };

  pairs('Who and what', [
    ['Customer', `${contract.customer.name} (${contract.customer.accountNumber})`],
    ['Device', `${contract.device.model}, serial ${contract.device.serialNumber}`],
    ['Plan', `${contract.plan.name} (${contract.plan.code} v${contract.plan.version})`],
  ]);
  const periods = { daily: 'day', weekly: 'week', monthly: 'month' } as const;
  pairs('What you pay', [
    ['Cash price of the device', money(contract.cashPrice)],
    ['Deposit', money(contract.deposit)],
    ['Amount financed', money(contract.principal)],
    [`Payment every ${periods[contract.frequency]}`, money(contract.regularPayment)],
    ['Number of payments', String(contract.term)],
    ['First payment due', contract.firstDueDate],
    ['Last payment due', contract.lastDueDate],
  ]);
  pairs('What credit costs you', [
    ['Annual percentage rate (APR)', `${contract.apr}% (${contract.interestMethod} balance)`],
    ['Total interest', money(contract.totalInterest)],
    ['Total service fees', money(contract.totalServiceFees)],
    ['Total of payments (after the deposit)', money(contract.totalPayable)],
    ['Total cost including the deposit', money(contract.totalPayable + contract.deposit)],
    [
      'Cost of credit over the cash price',
      money(contract.totalPayable + contract.deposit - contract.cashPrice),
    ],
  ]);

  ensure(60);
  text('Payment schedule', MARGIN, { size: 12, font: bold });
  at.y -= 8;
  rule();
  at.y -= 12;
  const columns: Array<[string, number]> = [
    ['#', MARGIN + 18],
    ['Due date', MARGIN + 90],
    ['Principal', MARGIN + 190],
    ['Interest', MARGIN + 270],
    ['Service fee', MARGIN + 350],
    ['Payment', MARGIN + 430],
    ['Balance after', A4[0] - MARGIN],
  ];
  const header = () => {
    for (const [label, right] of columns) rightText(label, right, { font: bold, size: 8 });
    at.y -= 13;
  };
  header();
  for (const row of contract.schedule) {
    if (at.y - 12 < MARGIN) {
      at = newPage();
      header();
    }
    const cells = [
      String(row.n),
      row.dueDate,
      formatMoney(row.principal, contract.currency, { display: 'none' }),
      formatMoney(row.interest, contract.currency, { display: 'none' }),
      formatMoney(row.serviceFee, contract.currency, { display: 'none' }),
      formatMoney(row.total, contract.currency, { display: 'none' }),
      formatMoney(row.balance, contract.currency, { display: 'none' }),
    ];
    cells.forEach((cell, index) => {
      rightText(cell, columns[index]?.[1] ?? 0, { size: 8 });
    });
    at.y -= 12;
  }
  at.y -= 14;
  ensure(40);
  text(
    `Amounts in ${contract.currency}. Payments are applied to overdue amounts first (penalties, fees, interest, then principal).`,
    MARGIN,
    {
      size: 8,
      color: MUTED,
    },
  );
  at.y -= 11;
  text('You may pay off the contract early at any time; ask for a payoff quote.', MARGIN, {
    size: 8,
    color: MUTED,
  });

  const pages = pdf.getPages();
  pages.forEach((page, index) => {
    page.drawText(`${contract.number}  -  page ${index + 1} of ${pages.length}`, {
      x: MARGIN,
      y: 24,
      size: 8,
      font: regular,
      color: MUTED,
    });
  });
  return pdf.save();
}
