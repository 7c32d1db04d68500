import { sql } from 'drizzle-orm';
import type { RoleHolder } from '../../../contracts/roles';
import { queryRows } from '../../../db/client';
import { payments } from '../../../db/schema';
import { formatMoney } from '../../../domain';
import { businessToday } from '../../business-date';
import type { AppContext } from '../../context';
import { organisation } from '../../organisation';
import { contractDetail } from '../contracts/detail';
import { type Column, localDateTime, MARGIN, PdfLayout, RIGHT } from './pdf-layout';
import { paymentResult } from './read';

/** How a method and an allocation component read on paper. */
export const methodText = (method: string): string => method.replaceAll('_', ' ');
export const componentText = (component: string): string =>
  component === 'credit' ? 'customer credit' : component;

/**
 * The receipt of one payment (issue 13): who paid what, when (in the organisation's time zone),
 * how it was allocated, the balance after it, the token it bought, and REVERSED when it was.
 */
export async function receiptPdf(
  ctx: AppContext,
  paymentId: string,
  viewer: RoleHolder | null | undefined,
): Promise<{ pdf: Uint8Array; receiptNumber: string }> {
  const [{ payment, allocations }, org] = await Promise.all([
    paymentResult(ctx.db, paymentId),
    organisation(ctx, ctx.db),
  ]);
  const contract = payment.contractId ? await contractDetail(ctx, payment.contractId, viewer) : null;
  const money = (minor: number) => formatMoney(minor, payment.currency, { display: 'code' });
  const reversed = payment.status === 'reversed';

  const doc = await PdfLayout.create(`Receipt ${payment.receiptNumber}`, org.name);
  doc.text(org.name, MARGIN, { size: 11, bold: true, muted: true });
  doc.y -= 26;
  doc.text('Payment receipt', MARGIN, { size: 20, bold: true });
  if (reversed) doc.rightText('REVERSED', RIGHT, { size: 20, bold: true, alert: true });
  doc.y -= 18;
  doc.text(`Receipt ${payment.receiptNumber}`, MARGIN, { muted: true });
  doc.y -= 28;

  doc.pairs('Payment', [
    ['Receipt number', payment.receiptNumber],
    ['Received', localDateTime(payment.receivedAt, org.timeZone)],
    ['Amount', money(payment.amount)],
    [
      'Method',
      methodText(payment.method) +
        (payment.provider && payment.provider !== payment.method ? ` (${payment.provider})` : ''),
    ],
    ['Reference', payment.reference ?? '-'],
    ['Status', payment.status.toUpperCase()],
    ['Posted by', payment.postedByName ?? 'the system'],
  ]);
  const who: Array<[string, string]> = [
    ['Customer', payment.customerName ?? '-'],
    ['Contract', payment.contractNumber ?? 'not matched yet (suspense)'],
  ];
  if (contract) {
    who.push(['Account', contract.customer.accountNumber]);
    who.push(['Device', `${contract.device.model}, serial ${contract.device.serialNumber}`]);
  }
  doc.pairs('Paid by', who);

  if (allocations.length) {
    doc.heading('How the payment was applied');
    const columns: Column[] = [
      { label: 'Instalment', at: MARGIN, left: true },
      { label: 'Component', at: MARGIN + 120, left: true },
      { label: `Amount (${payment.currency})`, at: RIGHT },
    ];
    doc.table(
      columns,
      allocations.map((line) => ({
        cells: [
          line.installmentNumber === null ? '-' : `#${line.installmentNumber}`,
          componentText(line.component),
          formatMoney(line.amount, payment.currency, { display: 'none' }),
        ],
      })),
    );
  }

  if (contract) {
    // The balance after this payment is the balance now when nothing was posted after it (by
    // time received, then receipt number: receipts are numbered in order);
    // otherwise the receipt says which day its figure is from rather than guess.
    const [later] = await queryRows<{ n: string }>(
      ctx.db,
      sql`SELECT count(*)::text AS n FROM ${payments} WHERE contract_id = ${contract.id} AND status = 'posted'
        AND id <> ${payment.id}
        AND (received_at, receipt_number) > (${payment.receivedAt}::timestamptz, ${payment.receiptNumber})`,
    );
    const latest = Number(later?.n ?? 0) === 0 && !reversed;
    const rows: Array<[string, string]> = [
      [
        latest ? 'Balance after this payment' : `Balance outstanding on ${businessToday(ctx, org)}`,
        money(contract.outstanding.total),
      ],
      ['Paid through', contract.paidThroughDate],
    ];
    if (contract.nextDue)
      rows.push(['Next payment due', `${money(contract.nextDue.amount)} on ${contract.nextDue.dueDate}`]);
    if (contract.creditBalance > 0) rows.push(['Customer credit', money(contract.creditBalance)]);
    doc.pairs('Balance', rows);
  }

  if (payment.token) {
    doc.heading('Unlock token');
    doc.text(payment.token.token.replace(/(\d{3})(?=\d)/g, '$1 '), MARGIN, { size: 18, bold: true });
    doc.y -= 16;
    doc.text(
      payment.token.days
        ? `Enter it on the device: it unlocks ${payment.token.days} day(s).`
        : 'Enter it on the device.',
      MARGIN,
      { muted: true },
    );
    doc.y -= 24;
  }

  if (reversed) {
    doc.ensure(30);
    doc.text(
      `This payment was reversed${payment.reversedAt ? ` on ${localDateTime(payment.reversedAt, org.timeZone)}` : ''}${payment.reversalReason ? `: ${payment.reversalReason}` : ''}.`,
      MARGIN,
      { alert: true, bold: true },
    );
    doc.y -= 16;
  }
  doc.ensure(20);
  doc.text(
    `Printed ${localDateTime(ctx.clock.now().toISOString(), org.timeZone)}. Keep this receipt.`,
    MARGIN,
    {
      size: 8,
      muted: true,
    },
  );
  return { pdf: await doc.save(`Receipt ${payment.receiptNumber}`), receiptNumber: payment.receiptNumber };
}
