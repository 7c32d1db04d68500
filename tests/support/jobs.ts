import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { JobRun } from '../../src/contracts/jobs';
import type { Db } from '../../src/db/client';
import { queryRows } from '../../src/db/client';
import { defineJob } from '../../src/server/jobs/definition';
import { recentRuns } from '../../src/server/jobs/runs';

/** A cron job for the scheduling tests: every minute, reports that it ran. */
export const everyMinuteJob = defineJob({
  name: 'test.every-minute',
  description: 'Test: runs each minute',
  payload: z.object({}),
  schedule: { cron: '* * * * *' },
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 60,
  run: async () => ({ ran: 1 }),
});

/**
 * For the crash test: in a worker process started with JOB_WORKER_HANGS=true it never finishes (the
 * test kills that process half-way); anywhere else it completes. Expires after 2 s, retried twice.
 */
export const hangsInWorkerJob = defineJob({
  name: 'test.hangs-in-worker',
  description: 'Test: hangs in the worker process',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 0, backoff: false },
  expireInSeconds: 2,
  run: async () => {
    if (process.env.JOB_WORKER_HANGS === 'true') await new Promise(() => {});
    return { done: 1 };
  },
});

/** Polls until `check` returns a value (no fixed sleeps); fails after `timeoutMs` with the last value. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  describe: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${describe}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A job's recorded runs, newest first. */
export function runsOf(db: Db, job: string): Promise<JobRun[]> {
  return recentRuns(db, { job, failures: false, limit: 50 });
}

/** Waits until the job's runs satisfy `done` and nothing of it is left in the queue. */
export function waitForRuns(db: Db, job: string, done: (runs: JobRun[]) => boolean): Promise<JobRun[]> {
  return eventually(async () => {
    const runs = await runsOf(db, job);
    return done(runs) && (await unfinished(db, job)) === 0 ? runs : undefined;
  }, `${job} runs`);
}
/** Queue jobs of a job not yet finished (created, retrying or active). */
export async function unfinished(db: Db, job: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${job} AND state < 'completed'`,
  );
  return Number(row?.n);
}
