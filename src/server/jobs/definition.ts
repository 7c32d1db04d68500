import type { z } from 'zod';
import type { AppContext } from '../context';

/** What a run reports it did (`{ changed: 12 }`); recorded with the run. */
export type JobCounts = Record<string, number>;

/**
 * When a job runs besides on demand (it can always be sent):
 * - `cron`: at each slot of a cron expression (minutes resolution) in the organisation's time zone,
 *   exactly once per slot whichever instances are up;
 * - `whenChanged`: whenever `key` (what its figures depend on: the business date, a setting)
 *   differs from the key of its last completed run, checked at every scheduler tick.
 */
export type JobSchedule = { cron: string } | { whenChanged: (ctx: AppContext) => Promise<string> };

export interface RetryPolicy {
  /** Attempts after the first. */
  limit: number;
  delaySeconds: number;
  /** Double the delay after each failure. */
  backoff: boolean;
}

/**
 * One job type, declared once (the registry lists them all). The run must be idempotent: a run
 * killed half-way is retried from the start.
 */
export interface JobDefinition<P extends z.ZodType = z.ZodType> {
  /** Queue name, `<area>.<what>`. */
  name: string;
  description: string;
  payload: P;
  schedule?: JobSchedule;
  retry: RetryPolicy;
  /** How long a run may take before it is taken for lost and retried (pg-boss expiry). */
  expireInSeconds: number;
  /**
   * Runs with the same key never overlap, and at most one more waits behind a running one.
   * A string for one at a time overall; a function to key by payload (one per contract, per date).
   */
  singletonKey?: string | ((payload: z.output<P>) => string);
  run: (ctx: AppContext, payload: z.output<P>) => Promise<JobCounts>;
}

/** Declares a job; the identity function keeps the payload type of `run` tied to its schema. */
export function defineJob<P extends z.ZodType>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

/** How the schedule reads in the admin view. */
export function describeSchedule(schedule: JobSchedule | undefined): string {
  if (!schedule) return 'on demand';
  return 'cron' in schedule ? schedule.cron : 'when its inputs change';
}
