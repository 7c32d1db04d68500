import { z } from 'zod';
import { endpoint } from './endpoint';

/**
 * One run of a background job (one attempt: a retried job has a run per attempt). `interrupted`:
 * the instance running it stopped before it finished (the next attempt finds it so).
 */
export const JOB_RUN_STATES = ['running', 'completed', 'failed', 'interrupted'] as const;
export type JobRunState = (typeof JOB_RUN_STATES)[number];

/** Why a run started: its cron slot, a change of what its figures depend on, the app's start, or a request. */
export const JOB_TRIGGERS = ['schedule', 'changed', 'start', 'demand'] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];

export const jobRunSchema = z.object({
  id: z.number().int(),
  job: z.string(),
  trigger: z.enum(JOB_TRIGGERS),
  /** The cron slot a scheduled run is for. */
  slot: z.string().nullable(),
  attempt: z.number().int(),
  state: z.enum(JOB_RUN_STATES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  /** What the job reports it did, e.g. `{ changed: 12 }`. */
  counts: z.record(z.string(), z.number()),
  /** The app instance (host and process) that ran it. */
  instance: z.string(),
});
export type JobRun = z.infer<typeof jobRunSchema>;

export const jobSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  /** A cron expression in the organisation's time zone, "when its inputs change", or "on demand". */
  schedule: z.string(),
});
export type JobSummary = z.infer<typeof jobSummarySchema>;

export const jobRunsQuery = z.strictObject({
  job: z.string().max(100).optional(),
  /** Only failed and interrupted runs. */
  failures: z
    .enum(['true', 'false'], { error: 'failures must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(200).default(50),
});
export type JobRunsQuery = z.input<typeof jobRunsQuery>;

export const jobRunsPageSchema = z.object({
  jobs: z.array(jobSummarySchema),
  runs: z.array(jobRunSchema),
});
export type JobRunsPage = z.infer<typeof jobRunsPageSchema>;

export const jobNameParams = z.object({
  name: z.string().regex(/^[a-z-]+\.[a-z-]+$/, 'Not a job name (area.what)'),
});

/** A run asked for now: queued, or folded into one already queued or running (its singleton key). */
export const jobRunNowSchema = z.object({ queued: z.boolean() });

/** /api/jobs: the registered background jobs and their recent runs. */
export const jobEndpoints = {
  runs: endpoint({ method: 'GET', path: '/api/jobs/runs', query: jobRunsQuery, response: jobRunsPageSchema }),
  /** Runs a job now, besides its schedule (an admin after a fix, or to see fresh figures at once). */
  runNow: endpoint({
    method: 'POST',
    path: '/api/jobs/:name/run',
    params: jobNameParams,
    response: jobRunNowSchema,
  }),
};
