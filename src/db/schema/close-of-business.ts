import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import {
  EOD_RUN_STATUSES,
  EOD_STEP_STATUSES,
  EOD_STEPS,
  EOD_TRIGGERS,
} from '../../contracts/close-of-business';
import { users } from './auth';
import { inList } from './helpers';

/**
 * The close of business of one business date (decision 026): one row per date, resumed in place
 * after a failure (attempts counts them).
 */
export const eodRuns = pgTable(
  'eod_runs',
  {
    businessDate: date('business_date', { mode: 'string' }).primaryKey(),
    status: text('status', { enum: EOD_RUN_STATUSES }).notNull(),
    trigger: text('trigger', { enum: EOD_TRIGGERS }).notNull(),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(1),
    error: text('error'),
    /**
     * The run's own time in milliseconds, its attempts added up (not the pauses between them):
     * measured by the app around its steps, which may overlap (decision 056). Null for the runs
     * closed before it was kept, whose steps ran one after the other.
     */
    elapsedMs: integer('elapsed_ms'),
  },
  (t) => [
    check('eod_runs_status_check', inList(t.status, EOD_RUN_STATUSES)),
    check('eod_runs_trigger_check', inList(t.trigger, EOD_TRIGGERS)),
  ],
);

/**
 * One step of a date's close. A completed step is written in the transaction of its work, so a
 * step is either done with its record or not done at all; a re-run skips the completed ones.
 */
export const eodSteps = pgTable(
  'eod_steps',
  {
    businessDate: date('business_date', { mode: 'string' })
      .notNull()
      .references(() => eodRuns.businessDate, { onDelete: 'cascade', onUpdate: 'cascade' }),
    step: text('step', { enum: EOD_STEPS }).notNull(),
    status: text('status', { enum: EOD_STEP_STATUSES }).notNull(),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    note: text('note'),
  },
  (t) => [
    primaryKey({ columns: [t.businessDate, t.step] }),
    check('eod_steps_step_check', inList(t.step, EOD_STEPS)),
    check('eod_steps_status_check', inList(t.status, EOD_STEP_STATUSES)),
  ],
);

/**
 * The portfolio at the end of a business date (PRODUCT.md §2 KPIs), one row per date: what the
 * dashboard's trend charts read. Written by the close's last step, or back-filled for past dates
 * from the schedule and payments.
 */
export const portfolioSnapshots = pgTable(
  'portfolio_snapshots',
  {
    businessDate: date('business_date', { mode: 'string' }).primaryKey(),
    currency: text('currency').notNull(),
    activeCount: integer('active_count').notNull(),
    defaultedCount: integer('defaulted_count').notNull(),
    /** Live contracts whose unit is locked now; null when back-filled (past lock states are not kept). */
    lockedCount: integer('locked_count'),
    overdueCount: integer('overdue_count').notNull(),
    /** Live contracts with an instalment due on the date (today's collection calls). */
    dueTodayCount: integer('due_today_count').notNull(),
    /**
     * Contracts in the collections queue at the end of the date: in arrears, or with an instalment
     * due that day still unpaid (from the contracts' own figures; null on rows written before it).
     */
    queueCount: integer('queue_count'),
    outstandingPrincipal: bigint('outstanding_principal', { mode: 'number' }).notNull(),
    outstandingTotal: bigint('outstanding_total', { mode: 'number' }).notNull(),
    overdueAmount: bigint('overdue_amount', { mode: 'number' }).notNull(),
    par1Amount: bigint('par1_amount', { mode: 'number' }).notNull(),
    par30Amount: bigint('par30_amount', { mode: 'number' }).notNull(),
    par90Amount: bigint('par90_amount', { mode: 'number' }).notNull(),
    par1Ratio: numeric('par1_ratio', { precision: 9, scale: 6 }).notNull(),
    par30Ratio: numeric('par30_ratio', { precision: 9, scale: 6 }).notNull(),
    par90Ratio: numeric('par90_ratio', { precision: 9, scale: 6 }).notNull(),
    /** Instalment amounts (principal, interest, fee) due on the date and in its month up to it. */
    dueAmount: bigint('due_amount', { mode: 'number' }).notNull(),
    dueMonthToDate: bigint('due_month_to_date', { mode: 'number' }).notNull(),
    /** Instalment amounts collected (deposits and credit excluded) on the date and month to date. */
    collectedAmount: bigint('collected_amount', { mode: 'number' }).notNull(),
    collectedMonthToDate: bigint('collected_month_to_date', { mode: 'number' }).notNull(),
    disbursedCount: integer('disbursed_count').notNull(),
    disbursedAmount: bigint('disbursed_amount', { mode: 'number' }).notNull(),
    /** Count and outstanding principal per arrears bucket: `{ "1-7": { count, principal } }`. */
    buckets: jsonb('buckets').$type<Record<string, { count: number; principal: number }>>().notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('portfolio_snapshots_counts_check', sql`${t.activeCount} >= 0 AND ${t.defaultedCount} >= 0`)],
);
