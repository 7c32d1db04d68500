import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { RoleHolder } from '../../../contracts/roles';
import { paymentAllocations } from '../../../db/schema';
import { formatMoney } from '../../../domain';
import { businessToday } from '../../business-date';
import type { AppContext } from '../../context';
import { organisation } from '../../organisation';
import { contractDetail } from '../contracts/detail';
import { localDateTime, MARGIN, PdfLayout, RIGHT } from './pdf-layout';
import { selectPayments } from './read';
import { componentText, methodText } from './receipts';

/**
 * A customer's statement of one contract (issue 13): the schedule with what is paid of each
 * instalment, every payment (reversed ones marked) with its allocation, the balance and credit.
 * The contract's figures come from the contracts area (`contractDetail`), payments from ours.
 */
export async function statementPdf(
  ctx: AppContext,
  contractId: string,
  viewer: RoleHolder | null | undefined,
): Promise<{ pdf: Uint8Array; number: string }> {
  const [contract, org] = await Promise.all([
    contractDetail(ctx, contractId, viewer),
    organisation(ctx, ctx.db),
  ]);
  const list = await selectPayments(
    ctx.db,
    sql`payments.contract_id = ${contractId}`,
    sql`payments.received_at, payments.id`,
    10_000,
  );
  const lines = list.length
    ? await ctx.db
        .select({
          paymentId: paymentAllocations.paymentId,
          installmentNumber: paymentAllocations.installmentNumber,
          component: paymentAllocations.component,
          amount: paymentAllocations.amount,
        })
        .from(paymentAllocations)
        .where(
          and(
            inArray(
              paymentAllocations.paymentId,
              list.map((p) => p.id),
            ),
            isNull(paymentAllocations.supersededAt),
          ),
        )
        .orderBy(paymentAllocations.id)
    : [];
  const currency = contract.currency;
  const money = (minor: number) => formatMoney(minor, currency, { display: 'code' });
  const figure = (minor: number) => formatMoney(minor, currency, { display: 'none' });
  const today = businessToday(ctx, org);

  const doc = await PdfLayout.create(`Statement ${contract.number}`, org.name);
  doc.text(org.name, MARGIN, { size: 11, bold: true, muted: true });
  doc.y -= 26;
  doc.text('Customer statement', MARGIN, { size: 20, bold: true });
  doc.y -= 18;
  doc.text(`Contract ${contract.number} - as of ${today}`, MARGIN, { muted: true });
  doc.y -= 28;

  doc.pairs('Account', [
    ['Customer', `${contract.customer.name} (${contract.customer.accountNumber})`],
    ['Device', `${contract.device.model}, serial ${contract.device.serialNumber}`],
    ['Contract status', contract.status.replaceAll('_', ' ')],
  ]);
  const balance: Array<[string, string]> = [
    ['Balance outstanding', money(contract.outstanding.total)],
    ['of which principal', money(contract.outstanding.principal)],
    ['of which interest', money(contract.outstanding.interest)],
    ['of which fees and penalties', money(contract.outstanding.fees + contract.outstanding.penalties)],
    ['Total paid', money(contract.totalPaid)],
    ['Customer credit', money(contract.creditBalance)],
    ['Paid through', contract.paidThroughDate],
    ['Days past due', String(contract.dpd)],
  ];
  if (contract.nextDue)
    balance.push(['Next payment due', `${money(contract.nextDue.amount)} on ${contract.nextDue.dueDate}`]);
  doc.pairs('Balance', balance);

  doc.heading('Schedule');
  doc.table(
    [
      { label: '#', at: MARGIN + 18 },
      { label: 'Due date', at: MARGIN + 40, left: true },
      { label: 'Due', at: MARGIN + 230 },
      { label: 'Paid', at: MARGIN + 330 },
      { label: 'Remaining', at: MARGIN + 430 },
      { label: 'Status', at: RIGHT },
    ],
    contract.schedule.map((row) => ({
      cells: [
        String(row.n),
        row.dueDate,
        figure(row.total + row.penalty),
        figure(row.paid),
        figure(Math.max(0, row.total + row.penalty - row.paid)),
        row.status,
      ],
      alert: row.status === 'overdue',
    })),
  );

  doc.heading('Payments');
  if (list.length === 0) {
    doc.text('No payments yet.', MARGIN, { muted: true });
    doc.y -= 20;
  } else {
    const rows: Array<{ cells: string[]; alert?: boolean; muted?: boolean }> = [];
    for (const p of list) {
      const reversed = p.status === 'reversed';
      rows.push({
        cells: [
          p.receiptNumber,
          localDateTime(p.receivedAt, org.timeZone).replace(/ \(.*\)$/, ''),
          methodText(p.method) + (p.reference ? ` ${p.reference}` : ''),
          reversed ? 'REVERSED' : p.status,
          figure(p.amount),
        ],
        alert: reversed,
      });
      if (reversed) continue;
      for (const line of lines.filter((l) => l.paymentId === p.id))
        rows.push({
          cells: [
            '',
            line.installmentNumber === null ? '' : `  instalment #${line.installmentNumber}`,
            `  ${componentText(line.component)}`,
            '',
            figure(line.amount),
          ],
          muted: true,
        });
    }
    doc.table(
      [
        { label: 'Receipt', at: MARGIN, left: true },
        { label: 'Received', at: MARGIN + 90, left: true },
        { label: 'Method / applied to', at: MARGIN + 200, left: true },
        { label: 'Status', at: MARGIN + 350, left: true },
        { label: `Amount (${currency})`, at: RIGHT },
      ],
      rows,
    );
  }
  doc.ensure(20);
  doc.text(
    `Amounts in ${currency}. Times in ${org.timeZone}. Reversed payments are shown for the record and count for nothing.`,
    MARGIN,
    { size: 8, muted: true },
  );
  return { pdf: await doc.save(`Statement ${contract.number}`), number: contract.number };
}
