import { hostname } from 'node:os';
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { JobRun, JobTrigger } from '../../contracts/jobs';
import type { Db } from '../../db/client';
import { jobRuns } from '../../db/schema';
import type { Clock } from '../context';
import type { JobCounts } from './definition';

/** Names the instance in each run, so the admin view shows which one ran it. */
export const INSTANCE = `${hostname()}:${process.pid}`;

export interface RunStart {
  job: string;
  queueJobId: string;
  trigger: JobTrigger;
  slot: Date | null;
  key: string | null;
  attempt: number;
}

/**
 * Records the start of an attempt. An earlier attempt of the same queue job still marked running
 * was on an instance that stopped (or its run outlived its expiry): it is marked interrupted.
 */
export async function recordStart(db: Db, clock: Clock, start: RunStart): Promise<number> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    await tx
      .update(jobRuns)
      .set({
        state: 'interrupted',
        finishedAt: now,
        error: 'The instance running it stopped before it finished',
      })
      .where(and(eq(jobRuns.queueJobId, start.queueJobId), eq(jobRuns.state, 'running')));
    const [row] = await tx
      .insert(jobRuns)
      .values({ ...start, state: 'running', startedAt: now, instance: INSTANCE })
      .returning({ id: jobRuns.id });
    if (!row) throw new Error('Job run not recorded');
    return row.id;
  });
}

export async function recordFinish(
  db: Db,
  clock: Clock,
  id: number,
  outcome: { counts: JobCounts } | { error: string },
): Promise<void> {
  await db
    .update(jobRuns)
    .set(
      'error' in outcome
        ? { state: 'failed', error: outcome.error, finishedAt: clock.now() }
        : { state: 'completed', counts: outcome.counts, finishedAt: clock.now() },
    )
    .where(eq(jobRuns.id, id));
}

/** The key of a job's last completed run (null before its first). */
export async function lastCompletedKey(db: Db, job: string): Promise<string | null> {
  const [row] = await db
    .select({ key: jobRuns.key })
    .from(jobRuns)
    .where(and(eq(jobRuns.job, job), eq(jobRuns.state, 'completed')))
    .orderBy(desc(jobRuns.startedAt), desc(jobRuns.id))
    .limit(1);
  return row?.key ?? null;
}

/** Recent runs, newest first; `failures` keeps the failed and interrupted ones. */
export async function recentRuns(
  db: Db,
  filter: { job?: string | undefined; failures: boolean; limit: number },
): Promise<JobRun[]> {
  const conditions: SQL[] = [];
  if (filter.job) conditions.push(eq(jobRuns.job, filter.job));
  if (filter.failures) conditions.push(inArray(jobRuns.state, ['failed', 'interrupted']));
  const rows = await db
    .select()
    .from(jobRuns)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(jobRuns.startedAt), desc(jobRuns.id))
    .limit(filter.limit);
  return rows.map((row) => ({
    id: row.id,
    job: row.job,
    trigger: row.trigger,
    slot: row.slot?.toISOString() ?? null,
    attempt: row.attempt,
    state: row.state,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    error: row.error,
    counts: row.counts,
    instance: row.instance,
  }));
}
