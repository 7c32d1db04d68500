import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows } from '../../../db/client';
import { contractFigures, contractInstallments, contracts } from '../../../db/schema';
import { bucketsFromBounds } from '../../../domain';
import { businessToday } from '../../business-date';
import type { AppContext, TxContext } from '../../context';
import { defineJob } from '../../jobs/definition';
import { organisation, saveFiguresDate } from '../../organisation';
import { withTransaction } from '../../transaction';
import { contractsChanged } from './list-cache';
import { LIVE_STATUSES, REMAINING } from './portfolio';

/**
 * The derived arrears figures that lists filter and sort on (PRODUCT.md close of business, step
 * 1): for every live contract, days past due from its oldest unsettled instalment due before the
 * business date, the bucket from the organisation's ranges, and the next instalment due. The same
 * rules as the contract page's live figures (domain `delinquencySnapshot`), set-based; only rows
 * whose figures change are written. Returns how many changed.
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
 * `moving` looks only at the contracts whose figures can move on `day` when the stored ones are of
 * an earlier day (the close's catch-up goes forward a day at a time): those in arrears (DPD grows)
 * and those with no instalment ahead or one due by `day`. A contract paid up to an instalment
 * still to come keeps its figures until that day, so a nightly close reads a few percent of the
 * book's schedules instead of all of them (decision 034). Without it every live contract is looked at
 * (the buckets changed, a start).
 */
export async function refreshDelinquencyIn(
  ctx: TxContext,
  date?: string,
  options: { moving?: boolean } = {},
): Promise<number> {
  const { tx } = ctx;
  const org = await organisation(ctx, tx);
  const day = date ?? businessToday(ctx, org);
  const bucketOf = bucketCase(org.delinquencyBuckets, sql`dpd`);
  const moving = options.moving
    ? sql`AND (f.dpd > 0 OR f.next_due_date IS NULL OR f.next_due_date <= ${day}::date)`
    : sql``;
  const changed = await queryRows<{ id: string }>(
    tx,
    sql`
    WITH figures AS (
      SELECT c.id, min(f.xmin::text) AS seen,
             COALESCE(${day}::date - min(i.due_date) FILTER (WHERE i.due_date < ${day}::date), 0) AS dpd,
             min(i.due_date) FILTER (WHERE i.due_date >= ${day}::date) AS next_due,
             COALESCE(sum(${REMAINING}) FILTER (WHERE i.due_date < ${day}::date), 0)::bigint AS overdue
      FROM ${contracts} c
      JOIN ${contractFigures} f ON f.contract_id = c.id
      LEFT JOIN ${contractInstallments} i
        ON i.contract_id = c.id AND i.schedule_version = c.schedule_version AND i.settled_at IS NULL
      WHERE c.status IN ${[...LIVE_STATUSES]} ${moving}
      GROUP BY c.id
    ), labelled AS (
      SELECT id, seen, dpd, next_due, overdue, ${bucketOf} AS bucket FROM figures
    )
    UPDATE ${contractFigures} f
    SET dpd = l.dpd, bucket = l.bucket, next_due_date = l.next_due, overdue_total = l.overdue,
        updated_at = ${ctx.clock.now()}
    FROM labelled l
    -- Only the row version read: a payment (or reversal) that wrote the figures meanwhile stored
    -- its own for the business date, from instalments this statement never saw.
    WHERE f.contract_id = l.id AND f.xmin::text = l.seen
      AND (f.dpd, f.bucket, f.next_due_date, f.overdue_total) IS DISTINCT FROM (l.dpd, l.bucket, l.next_due, l.overdue)
    RETURNING f.contract_id AS id`,
  );
  if (changed.length) await contractsChanged(ctx, tx);
  // Every live contract's figures are now the day's: those that can move were just computed, the
  // others (paid up to an instalment after the day) do not move before it.
  await saveFiguresDate(ctx, day);
  return changed.length;
}

/** The bucket label of a days-past-due expression, from the organisation's bucket bounds, as SQL. */
export function bucketCase(bounds: readonly number[], dpd: SQL): SQL {
  const labels = bucketsFromBounds(bounds)
    .filter((bucket) => bucket.min > 0)
    .reverse()
    .map((bucket) => sql`WHEN ${dpd} >= ${bucket.min} THEN ${bucket.label}`);
  return sql`CASE ${sql.join(labels, sql` `)} ELSE 'current' END`;
}

/**
 * What the stored figures depend on besides the date: the organisation's buckets. A new business
 * date is the close of business's (`eod.close`, decision 026), which brings the figures to it.
 */
async function bucketsKey(ctx: AppContext): Promise<string> {
  const org = await organisation(ctx, ctx.db);
  return org.delinquencyBuckets.join(',');
}

/**
 * Keeps the figures current for the business date at start, after the demo portfolio, and
 * whenever the organisation's buckets change. One run at a time across instances (the singleton
 * key replaces the advisory lock this took before).
 */
export const refreshArrearsJob = defineJob({
  name: 'contracts.refresh-arrears',
  description: 'Days past due, bucket and next due date of every live contract',
  payload: z.object({}),
  schedule: { whenChanged: bucketsKey },
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 15 * 60,
  singletonKey: 'all',
  run: async (ctx) => ({ changed: await refreshDelinquency(ctx) }),
});
