import {
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { JOB_RUN_STATES, JOB_TRIGGERS } from '../../contracts/jobs';
import { inList } from './helpers';

/**
 * Every run of a background job (src/server/jobs, decision 009), one row per attempt. The queue
 * itself (pg-boss) lives in its own `pgboss` schema and forgets finished jobs; this is what stays.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    job: text('job').notNull(),
    /** The pg-boss job: its attempts share it. */
    queueJobId: uuid('queue_job_id').notNull(),
    trigger: text('trigger', { enum: JOB_TRIGGERS }).notNull(),
    slot: timestamp('slot', { withTimezone: true }),
    /** What the figures depended on when the run started (jobs kept current by a key). */
    key: text('key'),
    attempt: integer('attempt').notNull(),
    state: text('state', { enum: JOB_RUN_STATES }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    error: text('error'),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    instance: text('instance').notNull(),
  },
  (t) => [
    uniqueIndex('job_runs_attempt_key').on(t.queueJobId, t.attempt),
    index('job_runs_started_idx').on(t.startedAt, t.id),
    index('job_runs_job_idx').on(t.job, t.startedAt),
    check('job_runs_state_check', inList(t.state, JOB_RUN_STATES)),
    check('job_runs_trigger_check', inList(t.trigger, JOB_TRIGGERS)),
  ],
);
