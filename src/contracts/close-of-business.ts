import { z } from 'zod';
import { endpoint } from './endpoint';

/**
 * Close of business (PRODUCT.md §2 "Close of business", API.md "Batch and assistant"): the steps
 * of a business date, in this order, each recorded done with its counts (decision 026).
 */
export const EOD_STEPS = [
  'delinquency',
  'late_fees',
  'device_locks',
  'defaults',
  'promises',
  'reminders',
  'interest_accrual',
  'snapshot',
] as const;
export type EodStep = (typeof EOD_STEPS)[number];

export const EOD_STEP_LABELS: Record<EodStep, string> = {
  delinquency: 'Days past due and buckets',
  late_fees: 'Late fees',
  device_locks: 'Device locks',
  defaults: 'Defaults',
  promises: 'Promises to pay',
  reminders: 'Reminders',
  interest_accrual: 'Interest accrual',
  snapshot: 'Portfolio snapshot',
};

export const EOD_RUN_STATUSES = ['running', 'completed', 'failed'] as const;
export type EodRunStatus = (typeof EOD_RUN_STATUSES)[number];

export const EOD_STEP_STATUSES = ['completed', 'failed'] as const;

/** What started a date's close: the daily schedule, a person, or the business date moved past it. */
export const EOD_TRIGGERS = ['schedule', 'demand', 'date_move'] as const;
export type EodTrigger = (typeof EOD_TRIGGERS)[number];

export const eodStepSchema = z.object({
  step: z.enum(EOD_STEPS),
  status: z.enum(EOD_STEP_STATUSES),
  /** What the step did, e.g. `{ charged: 12, amount: 6000 }`. */
  counts: z.record(z.string(), z.number()),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  /** Why a step did nothing by design (a step whose feature is not built yet). */
  note: z.string().nullable(),
});
export type EodStepRecord = z.infer<typeof eodStepSchema>;

export const eodRunSchema = z.object({
  businessDate: z.iso.date(),
  status: z.enum(EOD_RUN_STATUSES),
  trigger: z.enum(EOD_TRIGGERS),
  /** Who asked (a person), null for the schedule. */
  requestedBy: z.string().nullable(),
  requestedByName: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Attempts at the date: a failed run resumed is the same run with one more attempt. */
  attempts: z.number().int(),
  error: z.string().nullable(),
  /**
   * The run's own time, its attempts added up: its steps may overlap (decision 056). Null for a
   * run closed before it was kept (its steps ran one after the other) or not yet past a step.
   */
  elapsedMs: z.number().int().nullable(),
  steps: z.array(eodStepSchema),
});
export type EodRun = z.infer<typeof eodRunSchema>;

export const eodRunBody = z.strictObject({
  businessDate: z.iso.date('businessDate must be a date (YYYY-MM-DD)'),
});
export type EodRunBody = z.input<typeof eodRunBody>;

/** The answer of a run: every date it closed (or found closed), oldest first, the asked one last. */
export const eodRunResultSchema = z.object({
  businessDate: z.iso.date(),
  lastClosedDate: z.iso.date().nullable(),
  runs: z.array(eodRunSchema),
});
export type EodRunResult = z.infer<typeof eodRunResultSchema>;

export const eodRunsQuery = z.strictObject({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(200).default(30),
  /** Keyset pagination: the runs of business dates before this one. */
  before: z.iso.date('before must be a date (YYYY-MM-DD)').optional(),
});
export type EodRunsQuery = z.input<typeof eodRunsQuery>;

export const eodRunsPageSchema = z.object({
  businessDate: z.iso.date(),
  /** The organisation's currency: a step's `amount` count is money in its minor units. */
  currency: z.string(),
  lastClosedDate: z.iso.date().nullable(),
  runs: z.array(eodRunSchema),
  /** Pass as `before` for the older runs; null when there are none. */
  nextBefore: z.iso.date().nullable(),
});
export type EodRunsPage = z.infer<typeof eodRunsPageSchema>;

/** /api/eod: close of business, run by managers and administrators. */
export const eodEndpoints = {
  run: endpoint({ method: 'POST', path: '/api/eod/run', body: eodRunBody, response: eodRunResultSchema }),
  runs: endpoint({ method: 'GET', path: '/api/eod/runs', query: eodRunsQuery, response: eodRunsPageSchema }),
};
