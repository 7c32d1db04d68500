import { and, lt, ne } from 'drizzle-orm';
import { z } from 'zod';
import { jobRuns } from '../../db/schema';
import { defineJob } from './definition';

/** How long finished runs stay readable in the admin view. */
export const JOB_RUNS_KEPT_DAYS = 90;

/**
 * Deletes runs older than JOB_RUNS_KEPT_DAYS, nightly, so the history stays a useful size (every
 * job runs at least daily, a few every few minutes). A run still marked running is kept whatever
 * its age: it is evidence of a lost instance until the next attempt marks it interrupted.
 */
export const pruneJobRunsJob = defineJob({
  name: 'jobs.prune-runs',
  description: `Deletes background-job runs older than ${JOB_RUNS_KEPT_DAYS} days`,
  payload: z.object({}),
  schedule: { cron: '40 3 * * *' },
  retry: { limit: 2, delaySeconds: 300, backoff: false },
  expireInSeconds: 600,
  singletonKey: 'jobs.prune-runs',
  run: async (ctx) => {
    const before = new Date(ctx.clock.now().getTime() - JOB_RUNS_KEPT_DAYS * 86_400_000);
    const deleted = await ctx.db
      .delete(jobRuns)
      .where(and(lt(jobRuns.startedAt, before), ne(jobRuns.state, 'running')))
      .returning({ id: jobRuns.id });
    return { deleted: deleted.length };
  },
});
