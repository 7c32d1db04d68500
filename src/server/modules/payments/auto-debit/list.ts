import { eq, sql } from 'drizzle-orm';
import { autoDebitEndpoints, type DebitAttempt, type Mandate } from '../../../../contracts/auto-debit';
import { queryRows } from '../../../../db/client';
import { debitAttempts, debitMandates } from '../../../../db/schema';
import { csvOf, defineList } from '../../../list-definition';
import { searchCondition } from '../../../lists';
import { attemptFrom, mandateFrom, selectAttempts, selectMandates } from './read';

/** Counts the matches over the same joins the rows read (the search reads the contract number). */
const countOver =
  (from: ReturnType<typeof sql>) =>
  async (ctx: { db: Parameters<typeof queryRows>[0] }, where: ReturnType<typeof sql> | undefined) => {
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM ${from}${where ? sql` WHERE ${where}` : sql``}`,
    );
    return row?.n ?? 0;
  };

/** /api/mandates: every mandate with its contract and customer (a few per contract; not cached). */
export const mandateList = defineList({
  name: 'mandate',
  endpoint: autoDebitEndpoints.mandates,
  shows: [debitMandates],
  count: countOver(mandateFrom),
  search: (q) =>
    searchCondition(
      sql`lower(c.number || ' ' || cu.first_name || ' ' || cu.last_name || ' ' || ${debitMandates.account} || ' ' || ${debitMandates.consentReference})`,
      q,
    ),
  filters: {
    active: (active) => eq(debitMandates.active, active === 'true'),
    method: (method) => eq(debitMandates.method, method),
  },
  sorts: {
    createdAt: { columns: [debitMandates.createdAt] },
    contractNumber: { columns: [sql`c.number`] },
  },
  tieBreak: debitMandates.id,
  rows: ({ ctx, where, orderBy, limit, offset }) =>
    selectMandates(ctx.db, where, sql.join(orderBy, sql`, `), limit, offset),
  csv: csvOf<Mandate>({ filename: 'mandates.csv', noun: 'mandates' }, [
    { header: 'Contract', value: (m) => m.contractNumber },
    { header: 'Customer', value: (m) => m.customerName },
    { header: 'Method', value: (m) => m.method },
    { header: 'Account', value: (m) => m.account },
    { header: 'Consent reference', value: (m) => m.consentReference },
    { header: 'Active', value: (m) => m.active },
    { header: 'Paused because', value: (m) => m.pausedReason ?? '' },
    { header: 'Created at', value: (m) => m.createdAt },
  ]),
});

/** /api/auto-debit/attempts: every attempt, newest scheduled first. */
export const attemptList = defineList({
  name: 'debit_attempt',
  endpoint: autoDebitEndpoints.attempts,
  shows: [debitAttempts],
  count: countOver(attemptFrom),
  search: (q) =>
    searchCondition(
      sql`lower(c.number || ' ' || cu.first_name || ' ' || cu.last_name || ' ' || coalesce(${debitAttempts.failureReason}, ''))`,
      q,
    ),
  filters: {
    status: (status) => eq(debitAttempts.status, status),
    contractId: (id) => eq(debitAttempts.contractId, id),
  },
  sorts: {
    scheduledFor: { columns: [debitAttempts.scheduledFor] },
    attemptedAt: { columns: [debitAttempts.attemptedAt], nullsLast: true },
  },
  tieBreak: debitAttempts.id,
  rows: ({ ctx, where, orderBy, limit, offset }) =>
    selectAttempts(ctx.db, where, sql.join(orderBy, sql`, `), limit, offset),
  csv: csvOf<DebitAttempt>({ filename: 'auto-debit-attempts.csv', noun: 'attempts' }, [
    { header: 'Contract', value: (a) => a.contractNumber },
    { header: 'Customer', value: (a) => a.customerName },
    { header: 'Due date', value: (a) => a.dueDate },
    { header: 'Attempt', value: (a) => a.attempt },
    { header: 'Scheduled for', value: (a) => a.scheduledFor },
    { header: 'Status', value: (a) => a.status },
    { header: 'Amount (minor units)', value: (a) => a.amount },
    { header: 'Currency', value: (a) => a.currency },
    { header: 'Attempted at', value: (a) => a.attemptedAt ?? '' },
    { header: 'Failure reason', value: (a) => a.failureReason ?? '' },
    { header: 'Provider reference', value: (a) => a.providerReference ?? '' },
    // A failed attempt's retry: its status (or "none" when no retry will be made) and its date.
    { header: 'Retry', value: (a) => (a.status === 'retrying' ? (a.retry?.status ?? 'none') : '') },
    { header: 'Retry scheduled for', value: (a) => a.retry?.scheduledFor ?? '' },
  ]),
});
