import { type SQL, sql } from 'drizzle-orm';
import { SCORE_RULES } from '../../../domain';

/** The score's inputs as SQL expressions (each an integer, `days` null when never contacted). */
export interface ScoreSqlInput {
  dpd: SQL;
  amountOverdue: SQL;
  regularPayment: SQL;
  riskGrade: SQL;
  brokenPromises: SQL;
  daysSinceContact: SQL;
}

/**
 * The twin of the domain's `priorityScore` (src/domain/collections-score.ts) as SQL, part by part,
 * so the queue is scored set-based; integer arithmetic only (bigint division floors a positive
 * quotient like Math.floor). `collections.test.ts` holds the two equal on random inputs.
 */
export function scorePartsSql(
  input: ScoreSqlInput,
): Record<'dpd' | 'amount' | 'risk' | 'promises' | 'contact', SQL> {
  const r = SCORE_RULES;
  const grades = Object.entries(r.riskPoints).map(
    ([grade, points]) => sql`WHEN ${sql.raw(`'${grade}'`)} THEN ${sql.raw(String(points))}`,
  );
  return {
    dpd: sql`(LEAST(GREATEST(${input.dpd}, 0), ${sql.raw(String(r.dpdCapDays))}) * ${sql.raw(String(r.dpdPerDay))})`,
    amount: sql`(LEAST(GREATEST(${input.amountOverdue}, 0)::bigint * ${sql.raw(String(r.amountPerPayment))} / GREATEST(${input.regularPayment}, 1)::bigint, ${sql.raw(String(r.amountCap))})::int)`,
    risk: sql`(CASE ${input.riskGrade} ${sql.join(grades, sql` `)} ELSE ${sql.raw(String(r.riskUnscored))} END)`,
    promises: sql`(LEAST(GREATEST(${input.brokenPromises}, 0), ${sql.raw(String(r.brokenCap))}) * ${sql.raw(String(r.perBrokenPromise))})`,
    contact: sql`(CASE WHEN ${input.daysSinceContact} IS NULL THEN ${sql.raw(String(r.neverContacted))} ELSE LEAST(GREATEST(${input.daysSinceContact}, 0), ${sql.raw(String(r.contactCapDays))}) * ${sql.raw(String(r.contactPerDay))} END)`,
  };
}
