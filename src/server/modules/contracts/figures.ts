import { eq, type SQL, sql } from 'drizzle-orm';
import { contractFigures } from '../../../db/schema';
import { type DelinquencySnapshot, sumComponents } from '../../../domain';
import type { Executor } from '../../context';

/**
 * The figures the close of business moves every night, in their own narrow row (decision 041):
 * days past due, bucket, next due date, outstanding and overdue totals.
 */
export type NightlyFigures = Pick<
  typeof contractFigures.$inferSelect,
  'dpd' | 'bucket' | 'nextDueDate' | 'outstandingTotal' | 'overdueTotal'
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
    dpd: snapshot.dpd,
    bucket: snapshot.bucket.label,
    nextDueDate: snapshot.nextDue?.dueDate ?? null,
    outstandingTotal: snapshot.totalOutstanding,
    overdueTotal: sumComponents(snapshot.overdue),
  };
}

/** Figures with nothing overdue and nothing outstanding: a contract closed, or the base of a fresh one. */
export const CLEAR_FIGURES: NightlyFigures = {
  dpd: 0,
  bucket: 'current',
  nextDueDate: null,
  outstandingTotal: 0,
  overdueTotal: 0,
};

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
  const sets = [sql`updated_at = ${at}`];
  if (figures.dpd !== undefined) sets.push(sql`dpd = ${figures.dpd}`);
  if (figures.bucket !== undefined) sets.push(sql`bucket = ${figures.bucket}`);
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
      dpd: contractFigures.dpd,
      bucket: contractFigures.bucket,
      nextDueDate: contractFigures.nextDueDate,
      outstandingTotal: contractFigures.outstandingTotal,
      overdueTotal: contractFigures.overdueTotal,
    })
    .from(contractFigures)
    .where(eq(contractFigures.contractId, contractId));
  if (!row) throw new Error(`Contract ${contractId} has no figures row`);
  return row;
}
