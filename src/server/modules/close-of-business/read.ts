import { type SQL, sql } from 'drizzle-orm';
import { EOD_STEPS, type EodRun, type EodStep } from '../../../contracts/close-of-business';
import { queryRows } from '../../../db/client';
import { eodRuns, eodSteps, users } from '../../../db/schema';
import type { Executor } from '../../context';

type RunRow = Omit<EodRun, 'steps'> & { steps: EodRun['steps'] | null };

/** Runs with their steps in step order, one statement. */
async function runsWhere(executor: Executor, where: SQL, limit: number): Promise<EodRun[]> {
  const rows = await queryRows<RunRow>(
    executor,
    sql`
    SELECT to_char(r.business_date, 'YYYY-MM-DD') AS "businessDate", r.status, r.trigger,
           r.requested_by AS "requestedBy",
           CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END AS "requestedByName",
           to_json(r.started_at) #>> '{}' AS "startedAt", to_json(r.finished_at) #>> '{}' AS "finishedAt",
           r.attempts, r.error, r.elapsed_ms AS "elapsedMs",
           (SELECT json_agg(json_build_object(
                     'step', s.step, 'status', s.status, 'counts', s.counts,
                     'startedAt', s.started_at, 'finishedAt', s.finished_at, 'durationMs', s.duration_ms,
                     'error', s.error, 'note', s.note)
                   ORDER BY array_position(${sql.param([...EOD_STEPS])}::text[], s.step))
            FROM ${eodSteps} s WHERE s.business_date = r.business_date) AS steps
    FROM ${eodRuns} r LEFT JOIN ${users} u ON u.id = r.requested_by
    WHERE ${where}
    ORDER BY r.business_date DESC
    LIMIT ${limit}`,
  );
  return rows.map((row) => ({
    ...row,
    startedAt: new Date(row.startedAt).toISOString(),
    finishedAt: row.finishedAt ? new Date(row.finishedAt).toISOString() : null,
    steps: (row.steps ?? []).map((step) => ({
      ...step,
      startedAt: new Date(step.startedAt).toISOString(),
      finishedAt: new Date(step.finishedAt).toISOString(),
    })),
  }));
}

/** The runs of these dates, oldest first (a run's answer). */
export async function runsOf(executor: Executor, dates: readonly string[]): Promise<EodRun[]> {
  const runs = await runsWhere(
    executor,
    sql`r.business_date = ANY(${sql.param([...dates])}::date[])`,
    dates.length,
  );
  return runs.reverse();
}

/**
 * The latest runs, newest first, of dates before `before` when given (`GET /api/eod/runs`), and
 * the `before` of the page after (null on the last): one run more than asked tells if there is one.
 */
export async function recentRuns(
  executor: Executor,
  query: { limit: number; before?: string | undefined },
): Promise<{ runs: EodRun[]; nextBefore: string | null }> {
  const where = query.before ? sql`r.business_date < ${query.before}::date` : sql`true`;
  const runs = await runsWhere(executor, where, query.limit + 1);
  if (runs.length <= query.limit) return { runs, nextBefore: null };
  const shown = runs.slice(0, query.limit);
  return { runs: shown, nextBefore: shown.at(-1)?.businessDate ?? null };
}

/** The latest date before `before` whose `step` completed, or null when it never did. */
export async function lastCompleted(
  executor: Executor,
  step: EodStep,
  before: string,
): Promise<string | null> {
  const [row] = await queryRows<{ date: string | null }>(
    executor,
    sql`SELECT to_char(max(s.business_date), 'YYYY-MM-DD') AS date FROM ${eodSteps} s
      WHERE s.step = ${step} AND s.status = 'completed' AND s.business_date < ${before}::date`,
  );
  return row?.date ?? null;
}
