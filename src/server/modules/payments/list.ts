import { eq, sql } from 'drizzle-orm';
import { listFilterNames } from '../../../contracts/lists';
import { type Payment, paymentEndpoints } from '../../../contracts/payments';
import { contracts, customers, payments, users } from '../../../db/schema';
import { csvOf, defineList, given } from '../../list-definition';
import { searchCondition } from '../../lists';
import { countedPayments, countPaymentRows, paymentsVersion } from './counts';
import { selectPayments } from './read';

/** Whether the kept counts answer a query: no search, and no filter but status and method. */
function keptCountAnswers(query: Readonly<Record<string, unknown>>): boolean {
  return (
    !given(query.q) &&
    listFilterNames(paymentEndpoints.list.query).every(
      (name) => name === 'status' || name === 'method' || !given(query[name]),
    )
  );
}

/**
 * /api/payments: newest first; the sorts are index scans (received_at, id). Payments are written
 * many times a second and every page must show the one just posted, so a page is kept for the
 * version of the payments table its reader sees (`paymentsVersion`, decision 048), never past it:
 * its readers share one read until the next commit that writes a payment. The contract numbers,
 * customers' and posters' names it shows evict it as other lists. The total of the whole list,
 * or of a status or method, is read from the kept counts (`countedPayments`); a search, a
 * contract or dates count the matching rows.
 */
export const paymentList = defineList({
  name: 'payment',
  endpoint: paymentEndpoints.list,
  shows: [payments, contracts, customers, users],
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
  cache: { pages: { ttlMs: 10_000, maxEntries: 500, version: (ctx) => paymentsVersion(ctx.db) } },
  count: (ctx, where, query) =>
    keptCountAnswers(query)
      ? countedPayments(ctx.db, { status: query.status as string, method: query.method as string })
      : countPaymentRows(ctx.db, where),
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
