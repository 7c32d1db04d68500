import { eq, sql } from 'drizzle-orm';
import { type Payment, paymentEndpoints } from '../../../contracts/payments';
import { payments } from '../../../db/schema';
import { csvOf, defineList } from '../../list-definition';
import { searchCondition } from '../../lists';
import { selectPayments } from './read';

/**
 * /api/payments: newest first. Not cached: payments are written many times a second and every
 * page must show the one just posted; the sorts are index scans (received_at, id).
 */
export const paymentList = defineList({
  name: 'payment',
  endpoint: paymentEndpoints.list,
  shows: [payments],
  search: (q) =>
    searchCondition(
      sql`lower(${payments.receiptNumber} || ' ' || coalesce(${payments.reference}, '') || ' ' || coalesce(${payments.accountReference}, ''))`,
      q,
    ),
  filters: {
    status: (status) => eq(payments.status, status),
    method: (method) => eq(payments.method, method),
    contractId: (id) => eq(payments.contractId, id),
    from: (date) => sql`${payments.receivedAt} >= ${date}::date`,
    to: (date) => sql`${payments.receivedAt} < ${date}::date + 1`,
  },
  sorts: {
    receivedAt: { columns: [payments.receivedAt] },
    amount: { columns: [payments.amount] },
    receiptNumber: { columns: [payments.receiptNumber] },
  },
  tieBreak: payments.id,
  rows: ({ ctx, where, orderBy, limit, offset }) =>
    selectPayments(ctx.db, where, sql.join(orderBy, sql`, `), limit, offset),
  csv: csvOf<Payment>({ filename: 'payments.csv', noun: 'payments' }, [
    { header: 'Receipt', value: (p) => p.receiptNumber },
    { header: 'Received at', value: (p) => p.receivedAt },
    { header: 'Value date', value: (p) => p.valueDate ?? '' },
    { header: 'Contract', value: (p) => p.contractNumber ?? '' },
    { header: 'Customer', value: (p) => p.customerName ?? '' },
    { header: 'Amount (minor units)', value: (p) => p.amount },
    { header: 'Currency', value: (p) => p.currency },
    { header: 'Method', value: (p) => p.method },
    { header: 'Reference', value: (p) => p.reference ?? '' },
    { header: 'Status', value: (p) => p.status },
    { header: 'Posted by', value: (p) => p.postedByName ?? '' },
  ]),
});
