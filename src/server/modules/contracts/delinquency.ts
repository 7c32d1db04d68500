import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows } from '../../../db/client';
import { contractFigures, contractInstallments, contracts } from '../../../db/schema';
import { businessToday } from '../../business-date';
import type { AppContext, TxContext } from '../../context';
import { defineJob } from '../../jobs/definition';
import { figuresDate, organisation, saveFiguresDate } from '../../organisation';
import { withTransaction } from '../../transaction';
import { contractsChanged } from './list-cache';
import { LIVE_STATUSES, REMAINING } from './portfolio';

/**
 * The derived arrears figures that lists filter and sort on (PRODUCT.md close of business, step
 * 1): for every live contract, the day its arrears began (its oldest unsettled instalment due
 * before the business date), its arrears, and the next instalment due. The same rules as the
 * contract page's live figures (domain `delinquencySnapshot`), set-based; only rows whose figures
 * change are written. Days past due and the bucket are derived from the first for the date read
 * (decision 054). Returns how many changed.
 */
export async function refreshDelinquency(ctx: AppContext, date?: string): Promise<number> {
  // A job: it owns its transaction (decision 011).
  return withTransaction(ctx, async (tx) => {
    await takeFiguresLock(tx);
    return refreshDelinquencyIn(tx, date);
  });
}

/**
 * The lock every writer of the book's stored figures in bulk takes first in its transaction, on
 * every instance: each transaction of the close of business, and the arrears refresh. Two at once
 * update the same contracts in different orders and deadlock (a start's refresh beside a close of
 * a million contracts did); in turn, each sees the other's figures. Transaction-scoped, so a
 * process that dies releases it with its rolled-back transaction.
 */
export async function takeFiguresLock(ctx: TxContext): Promise<void> {
  await ctx.tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('close-of-business'))`);
}

/**
 * The same in the caller's transaction: the close of business's first step (decision 026).
 * `moving` looks only at the contracts whose figures can move between the stored figures' date
 * and `day` (the close's catch-up goes forward a day at a time): those with an instalment that
 * fell due meanwhile, whose next due date is before `day`. A contract in arrears with nothing
 * newly due keeps its row, as its days past due grow with the date they are read for (decision
 * 054): a nightly close reads a few percent of the book's schedules and writes as few rows
 * (decision 034). Without it, or when the stored figures are of no known date or of a later one,
 * every live contract is looked at (a new database, the job run on demand).
 */
export async function refreshDelinquencyIn(
  ctx: TxContext,
  date?: string,
  options: { moving?: boolean } = {},
): Promise<number> {
  const { tx } = ctx;
  const org = await organisation(ctx, tx);
  const day = date ?? businessToday(ctx, org);
  const stored = options.moving ? await figuresDate(ctx) : null;
  const sums = sql`min(i.due_date) FILTER (WHERE i.due_date < ${day}::date) AS arrears_since,
             min(i.due_date) FILTER (WHERE i.due_date >= ${day}::date) AS next_due,
             COALESCE(sum(${REMAINING}) FILTER (WHERE i.due_date < ${day}::date), 0)::bigint AS overdue`;
  const unsettled = sql`i.contract_id = c.id AND i.schedule_version = c.schedule_version AND i.settled_at IS NULL`;
  const figures =
    stored !== null && stored <= day
      ? // The few contracts with an instalment newly due, found first and each schedule read by
        // its key: joined as a whole, with statistics that still saw last month's due dates, the
        // planner hashed all 12 million instalments of a million-contract book for 24,390 (9.4 s
        // against 2.0 s).
        sql`due AS MATERIALIZED (
          SELECT f.contract_id, f.xmin::text AS seen FROM ${contractFigures} f WHERE f.next_due_date < ${day}::date
        ), figures AS (
          SELECT c.id, d.seen, x.*
          FROM due d JOIN ${contracts} c ON c.id = d.contract_id
          CROSS JOIN LATERAL (SELECT ${sums} FROM ${contractInstallments} i WHERE ${unsettled}) x
          WHERE c.status IN ${[...LIVE_STATUSES]}
        )`
      : sql`figures AS (
          SELECT c.id, min(f.xmin::text) AS seen, ${sums}
          FROM ${contracts} c
          JOIN ${contractFigures} f ON f.contract_id = c.id
          LEFT JOIN ${contractInstallments} i ON ${unsettled}
          WHERE c.status IN ${[...LIVE_STATUSES]}
          GROUP BY c.id
        )`;
  const changed = await queryRows<{ id: string }>(
    tx,
    sql`
    WITH ${figures}
    UPDATE ${contractFigures} f
    SET arrears_since = l.arrears_since, next_due_date = l.next_due, overdue_total = l.overdue,
        updated_at = ${ctx.clock.now()}
    FROM figures l
    -- Only the row version read: a payment (or reversal) that wrote the figures meanwhile stored
    -- its own for the business date, from instalments this statement never saw.
    WHERE f.contract_id = l.id AND f.xmin::text = l.seen
      AND (f.arrears_since, f.next_due_date, f.overdue_total) IS DISTINCT FROM (l.arrears_since, l.next_due, l.overdue)
    RETURNING f.contract_id AS id`,
  );
  // The lists' days past due move with the date, whether or not a row changed.
  if (changed.length || stored !== day) await contractsChanged(ctx, tx);
  // Every live contract's figures are now the day's: those that can move were just computed, the
  // others (nothing fell due since) do not move before their next due date.
  await saveFiguresDate(ctx, day);
  return changed.length;
}

/**
 * What the job is kept current on: the organisation's buckets. The stored figures no longer
 * depend on them (a bucket is derived for the date read, decision 054), so a change rewrites
 * nothing; the key still gives the job its first run on a new database. A new business date is
 * the close of business's (`eod.close`, decision 026), which brings the figures to it.
 */
async function bucketsKey(ctx: AppContext): Promise<string> {
  const org = await organisation(ctx, ctx.db);
  return org.delinquencyBuckets.join(',');
}

/**
 * Brings every live contract's figures to the business date: on a new database, after the demo
 * portfolio, and on demand from /admin/jobs. One run at a time across instances (the singleton
 * key replaces the advisory lock this took before).
 */
export const refreshArrearsJob = defineJob({
  name: 'contracts.refresh-arrears',
  description: 'The arrears date, arrears and next due date of every live contract',
  payload: z.object({}),
  schedule: { whenChanged: bucketsKey },
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 15 * 60,
  singletonKey: 'all',
  run: async (ctx) => ({ changed: await refreshDelinquency(ctx) }),
});
