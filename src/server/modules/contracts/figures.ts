import { eq, type SQL, sql } from 'drizzle-orm';
import { contractFigures } from '../../../db/schema';
import { addDays, bucketsFromBounds, type DelinquencySnapshot, sumComponents } from '../../../domain';
import type { Executor } from '../../context';

/**
 * The figures the close of business moves, in their own narrow row (decision 041): the day the
 * arrears began, the next due date, outstanding and overdue totals. Days past due and the bucket
 * are derived from the first for the date asked (decision 054).
 */
export type NightlyFigures = Pick<
  typeof contractFigures.$inferSelect,
  'arrearsSince' | 'nextDueDate' | 'outstandingTotal' | 'overdueTotal'
>;

/**
 * A write of a contract's figures row: the nightly figures that moved and, when an allocation
 * left an instalment with more to pay than before, the business date it did (`fees_recheck_on`,
 * decision 053).
 */
export type FiguresWrite = Partial<NightlyFigures> & { feesRecheckOn?: string };

/** A contract's nightly figures from the engine's view of it. */
export function nightlyFrom(snapshot: DelinquencySnapshot): NightlyFigures {
  return {
    arrearsSince: snapshot.oldestUnpaidDueDate,
    nextDueDate: snapshot.nextDue?.dueDate ?? null,
    outstandingTotal: snapshot.totalOutstanding,
    overdueTotal: sumComponents(snapshot.overdue),
  };
}

/** Figures with nothing overdue and nothing outstanding: a contract closed, or the base of a fresh one. */
export const CLEAR_FIGURES: NightlyFigures = {
  arrearsSince: null,
  nextDueDate: null,
  outstandingTotal: 0,
  overdueTotal: 0,
};

const WRITTEN_FIGURES = new Set([
  'arrearsSince',
  'nextDueDate',
  'outstandingTotal',
  'overdueTotal',
  'feesRecheckOn',
]);

/**
 * The UPDATE of one contract's figures row, as a statement or a CTE body, only when `when` holds
 * (a plain payment's statement hangs every write on its version check).
 */
export function figuresUpdate(
  contractId: string,
  figures: FiguresWrite,
  at: Date,
  when: SQL = sql`true`,
): SQL {
  // A figure this does not write is a bug, not a no-op: a caller's literal is not always checked
  // for extra keys (a lifecycle move's `change` kept writing `dpd` after decision 054 removed it).
  const unknown = Object.keys(figures).filter((key) => !WRITTEN_FIGURES.has(key));
  if (unknown.length) throw new Error(`figuresUpdate cannot write ${unknown.join(', ')}`);
  const sets = [sql`updated_at = ${at}`];
  if (figures.arrearsSince !== undefined) sets.push(sql`arrears_since = ${figures.arrearsSince}::date`);
  if (figures.nextDueDate !== undefined) sets.push(sql`next_due_date = ${figures.nextDueDate}::date`);
  if (figures.outstandingTotal !== undefined) sets.push(sql`outstanding_total = ${figures.outstandingTotal}`);
  if (figures.overdueTotal !== undefined) sets.push(sql`overdue_total = ${figures.overdueTotal}`);
  if (figures.feesRecheckOn !== undefined) sets.push(sql`fees_recheck_on = ${figures.feesRecheckOn}::date`);
  return sql`UPDATE ${contractFigures} SET ${sql.join(sets, sql`, `)}
    WHERE contract_id = ${contractId} AND ${when}`;
}

/**
 * The join that brings a contract's figures beside its row `c` in raw SQL (as `f`): every
 * contract has its row (the insert trigger of migration 0038).
 */
export const figuresJoin = (c: SQL = sql`c`, f: SQL = sql`f`): SQL =>
  sql`JOIN ${contractFigures} ${f} ON ${f}.contract_id = ${c}.id`;

/** A contract's stored nightly figures (every contract has its row). */
export async function readFigures(executor: Executor, contractId: string): Promise<NightlyFigures> {
  const [row] = await executor
    .select({
      arrearsSince: contractFigures.arrearsSince,
      nextDueDate: contractFigures.nextDueDate,
      outstandingTotal: contractFigures.outstandingTotal,
      overdueTotal: contractFigures.overdueTotal,
    })
    .from(contractFigures)
    .where(eq(contractFigures.contractId, contractId));
  if (!row) throw new Error(`Contract ${contractId} has no figures row`);
  return row;
}

/** The figures row named by its table, where a query joins `contract_figures` without an alias. */
export const FIGURES_TABLE = sql`${contractFigures}`;

/**
 * Days past due on `date` of the figures row `f` (as SQL): the days since its arrears began, 0
 * when none did by then. Every reader derives them for its own date (decision 054).
 */
export const dpdOn = (date: string | SQL, f: SQL = sql`f`): SQL =>
  sql`GREATEST(${date}::date - ${f}.arrears_since, 0)`;

/**
 * Figures `f` more than `days` past due on `date`, as a condition on the day arrears began that
 * its index serves (`days` ≥ 0: a contract not in arrears never holds).
 */
export const pastDueMoreThan = (date: string | SQL, days: number | SQL, f: SQL = sql`f`): SQL =>
  sql`${f}.arrears_since < ${date}::date - ${days}::int`;

/** Figures `f` at least `days` (> 0) past due on `date`, through the index. */
export const pastDueAtLeast = (date: string | SQL, days: number | SQL, f: SQL = sql`f`): SQL =>
  sql`${f}.arrears_since <= ${date}::date - ${days}::int`;

/** Figures `f` exactly `days` (each > 0) past due on `date`, through the index. */
export function pastDueExactly(date: string, days: readonly number[], f: SQL = sql`f`): SQL {
  const dates = days.filter((d) => d > 0).map((d) => addDays(date, -d));
  return sql`${f}.arrears_since = ANY(${sql.param(dates)}::date[])`;
}

/** The bucket label of a days-past-due expression, from the organisation's bucket bounds, as SQL. */
export function bucketCase(bounds: readonly number[], dpd: SQL): SQL {
  const labels = bucketsFromBounds(bounds)
    .filter((bucket) => bucket.min > 0)
    .reverse()
    .map((bucket) => sql`WHEN ${dpd} >= ${bucket.min} THEN ${bucket.label}`);
  return sql`CASE ${sql.join(labels, sql` `)} ELSE 'current' END`;
}

/** The bucket of figures `f` on `date`, as SQL. */
export const bucketOn = (bounds: readonly number[], date: string | SQL, f: SQL = sql`f`): SQL =>
  bucketCase(bounds, dpdOn(date, f));

/**
 * Figures `f` in the bucket labelled `label` on `date`, as a range of the day arrears began (its
 * index); an unknown label holds for none.
 */
export function inBucketOn(bounds: readonly number[], label: string, date: string, f: SQL = sql`f`): SQL {
  const bucket = bucketsFromBounds(bounds).find((b) => b.label === label);
  if (!bucket) return sql`false`;
  if (bucket.min === 0) return sql`(${f}.arrears_since IS NULL OR ${f}.arrears_since >= ${date}::date)`;
  const latest = sql`${f}.arrears_since <= ${addDays(date, -bucket.min)}::date`;
  return bucket.max === null
    ? latest
    : sql`(${latest} AND ${f}.arrears_since >= ${addDays(date, -bucket.max)}::date)`;
}
