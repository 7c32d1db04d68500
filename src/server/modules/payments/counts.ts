import { type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { paymentChanges, paymentCounts, payments } from '../../../db/schema';
import type { Executor } from '../../context';

/** What the kept counts can answer: every payment, or those of one status and/or method. */
export interface CountedFilter {
  status?: string | undefined;
  method?: string | undefined;
}

/**
 * The number of payments of a status and method (either may be left out), from the counts the
 * triggers on `payments` keep (migration 0041, decision 045): a sum over a few rows, exact in the
 * reader's snapshot, where counting the payments themselves reads every one of them.
 */
export async function countedPayments(executor: Executor, filter: CountedFilter): Promise<number> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(sql`${paymentCounts.status} = ${filter.status}`);
  if (filter.method) conditions.push(sql`${paymentCounts.method} = ${filter.method}`);
  const [row] = await queryRows<{ n: string | null }>(
    executor,
    sql`SELECT sum(${paymentCounts.n})::text AS n FROM ${paymentCounts}
        ${conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``}`,
    { prepared: true },
  );
  return Number(row?.n ?? 0);
}

/** The number of payments matching `where`, counted from the rows (a search, a contract, dates). */
export async function countPaymentRows(executor: Executor, where: SQL | undefined): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`SELECT count(*)::int AS n FROM ${payments}${where ? sql` WHERE ${where}` : sql``}`,
  );
  return Number(row?.n ?? 0);
}

/**
 * The payments table's version in the reader's snapshot (migration 0042, decision 048): how many
 * statements have written payments, summed over the writers' sessions. It changes with every
 * commit that writes a payment, and only then; the payments list keys its cached pages with it.
 */
export async function paymentsVersion(executor: Executor): Promise<string> {
  const [row] = await queryRows<{ n: string }>(
    executor,
    sql`SELECT coalesce(sum(${paymentChanges.n}), 0)::text AS n FROM ${paymentChanges}`,
    { prepared: true },
  );
  return row?.n ?? '0';
}

/**
 * Folds every session's counts (and its changes, keeping their sum: the version) into shard 0,
 * so the rows stay as many as the pairs (status, method) in use, however many sessions have come
 * and gone since. A row a session is writing in an open transaction is left for the next fold
 * (`SKIP LOCKED`), so the fold waits on no posting and no posting on it. Answers how many count
 * rows it folded.
 */
export async function foldPaymentCounts(executor: Executor): Promise<number> {
  const [row] = await queryRows<{ folded: number }>(
    executor,
    sql`WITH taken AS (
          SELECT shard, status, method FROM ${paymentCounts} WHERE shard <> 0 FOR UPDATE SKIP LOCKED
        ), gone AS (
          DELETE FROM ${paymentCounts} c USING taken t
          WHERE c.shard = t.shard AND c.status = t.status AND c.method = t.method
          RETURNING c.status, c.method, c.n
        ), folded AS (
          INSERT INTO ${paymentCounts} (shard, status, method, n)
          SELECT 0, status, method, sum(n) FROM gone GROUP BY status, method
          ON CONFLICT (shard, status, method) DO UPDATE SET n = ${paymentCounts}.n + excluded.n
          RETURNING 1
        ), changes_taken AS (
          SELECT shard FROM ${paymentChanges} WHERE shard <> 0 FOR UPDATE SKIP LOCKED
        ), changes_gone AS (
          DELETE FROM ${paymentChanges} c USING changes_taken t WHERE c.shard = t.shard RETURNING c.n
        ), changes_folded AS (
          INSERT INTO ${paymentChanges} (shard, n)
          SELECT 0, sum(n) FROM changes_gone HAVING count(*) > 0
          ON CONFLICT (shard) DO UPDATE SET n = ${paymentChanges}.n + excluded.n
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM gone)::int AS folded`,
  );
  return row?.folded ?? 0;
}
