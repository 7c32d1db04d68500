import { z } from 'zod';
import { endpoint, idParams } from './endpoint';
import { listQuery, pageOf } from './lists';
import { DEBIT_ATTEMPT_STATUSES, MANDATE_METHODS } from './payments';

/**
 * Auto-debit (PRODUCT.md section 2, "Auto-debit"): a mandate per contract and method, and the
 * attempts the hourly job makes for due instalments, monitored at /admin/auto-debit (decision 021).
 */

export const MANDATE_METHOD_LABELS: Record<(typeof MANDATE_METHODS)[number], string> = {
  mobile_money: 'Mobile money',
  card: 'Card',
  bank_transfer: 'Bank transfer',
};

/** The retry policy: attempt 1 on the due date, then a retry this many days after each failure. */
export const AUTO_DEBIT_RETRY_DAYS = [1, 3] as const;
/** Attempts per due instalment, the first included. */
export const AUTO_DEBIT_MAX_ATTEMPTS = AUTO_DEBIT_RETRY_DAYS.length + 1;

const reason = z
  .string({ error: 'Give a reason' })
  .trim()
  .min(3, 'Give a reason (at least 3 characters)')
  .max(500, 'The reason is at most 500 characters');

export const mandateCreateBody = z.strictObject({
  method: z.enum(MANDATE_METHODS, { error: `method must be one of: ${MANDATE_METHODS.join(', ')}` }),
  account: z
    .string({ error: 'Give the account to debit' })
    .trim()
    .min(3, 'Give the account to debit (at least 3 characters)')
    .max(100, 'The account is at most 100 characters'),
  consentReference: z
    .string({ error: 'Give the consent reference' })
    .trim()
    .min(3, 'Give the consent reference (at least 3 characters)')
    .max(100, 'The consent reference is at most 100 characters'),
});
export type MandateCreateBody = z.input<typeof mandateCreateBody>;

export const mandatePauseBody = z.strictObject({ reason });

export const debitAttemptSchema = z.object({
  id: z.string(),
  mandateId: z.string(),
  contractId: z.string(),
  contractNumber: z.string(),
  customerName: z.string(),
  method: z.enum(MANDATE_METHODS),
  dueDate: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  attempt: z.number().int(),
  status: z.enum(DEBIT_ATTEMPT_STATUSES),
  /** The business date the attempt is (or was) to be made on. */
  scheduledFor: z.string(),
  attemptedAt: z.string().nullable(),
  failureReason: z.string().nullable(),
  providerReference: z.string().nullable(),
  paymentId: z.string().nullable(),
  /**
   * For an attempt that failed to be retried (`retrying`): the next attempt at the same
   * instalment, scheduled or made. Null when none will be made (the instalment was paid another
   * way, or its contract closed, before the retry's turn), and for every other status.
   */
  retry: z.object({ status: z.enum(DEBIT_ATTEMPT_STATUSES), scheduledFor: z.string() }).nullable(),
});
export type DebitAttempt = z.infer<typeof debitAttemptSchema>;

export const mandateSchema = z.object({
  id: z.string(),
  contractId: z.string(),
  contractNumber: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  method: z.enum(MANDATE_METHODS),
  account: z.string(),
  consentReference: z.string(),
  active: z.boolean(),
  pausedReason: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Mandate = z.infer<typeof mandateSchema>;

/**
 * An active mandate's oldest unpaid instalment that no attempt has been made for yet: what the
 * hourly job will try to debit next (at its next run if due by the business date, else on its due
 * date), as the attempt it will make names it; `amount` is what is unpaid of the instalments due
 * that day, now.
 */
export const nextDebitSchema = debitAttemptSchema.pick({
  mandateId: true,
  contractId: true,
  contractNumber: true,
  customerName: true,
  method: true,
  dueDate: true,
  amount: true,
  currency: true,
});
export type NextDebit = z.infer<typeof nextDebitSchema>;

/** A contract's mandates and their latest attempts (the contract page's card). */
export const contractMandatesSchema = z.object({
  mandates: z.array(mandateSchema),
  attempts: z.array(debitAttemptSchema),
  /** The next instalment its active mandate will debit; null when none will. */
  next: nextDebitSchema.nullable(),
});
export type ContractMandates = z.infer<typeof contractMandatesSchema>;

export const mandateListQuery = listQuery(['createdAt', 'contractNumber'], {
  active: z.enum(['true', 'false'], { error: 'active must be true or false' }).optional(),
  method: z
    .enum(MANDATE_METHODS, { error: `method must be one of: ${MANDATE_METHODS.join(', ')}` })
    .optional(),
});
export const mandatePageSchema = pageOf(mandateSchema);

export const attemptListQuery = listQuery(['scheduledFor', 'attemptedAt'], {
  status: z
    .enum(DEBIT_ATTEMPT_STATUSES, { error: `status must be one of: ${DEBIT_ATTEMPT_STATUSES.join(', ')}` })
    .optional(),
  contractId: z.uuid('contractId must be a contract id').optional(),
});
export const attemptPageSchema = pageOf(debitAttemptSchema);

/** The monitor's figures: the last 30 days' results, what is failing and why, what comes next. */
export const autoDebitSummarySchema = z.object({
  asOf: z.string(),
  since: z.string(),
  currency: z.string(),
  /** Succeeded over attempts made in the window (0..1); null when none was made. */
  successRate: z.number().nullable(),
  attempted: z.number().int(),
  succeeded: z.number().int(),
  collected: z.number().int(),
  /** Every attempt by status, whenever made. */
  counts: z.object(
    Object.fromEntries(DEBIT_ATTEMPT_STATUSES.map((s) => [s, z.number().int()])) as Record<
      (typeof DEBIT_ATTEMPT_STATUSES)[number],
      z.ZodNumber
    >,
  ),
  failureReasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  recentFailures: z.array(debitAttemptSchema),
  upcoming: z.array(debitAttemptSchema),
  /** Each active mandate's oldest unpaid instalment not yet attempted, soonest first (at most 20). */
  nextDebits: z.array(nextDebitSchema),
  /** Of the scheduled attempts, those that retry a failed one. */
  retriesScheduled: z.number().int(),
  mandates: z.object({ active: z.number().int(), paused: z.number().int() }),
  retryDays: z.array(z.number().int()),
});
export type AutoDebitSummary = z.infer<typeof autoDebitSummarySchema>;

const contractId = idParams('contract');
const mandateId = idParams('mandate');

/** Mandates, attempts and the monitor's summary. */
export const autoDebitEndpoints = {
  contractMandates: endpoint({
    method: 'GET',
    path: '/api/contracts/:id/mandates',
    params: contractId,
    response: contractMandatesSchema,
  }),
  createMandate: endpoint({
    method: 'POST',
    path: '/api/contracts/:id/mandates',
    params: contractId,
    body: mandateCreateBody,
    response: mandateSchema,
    status: 201,
  }),
  pauseMandate: endpoint({
    method: 'POST',
    path: '/api/mandates/:id/pause',
    params: mandateId,
    body: mandatePauseBody,
    response: mandateSchema,
  }),
  resumeMandate: endpoint({
    method: 'POST',
    path: '/api/mandates/:id/resume',
    params: mandateId,
    response: mandateSchema,
  }),
  mandates: endpoint({
    method: 'GET',
    path: '/api/mandates',
    query: mandateListQuery,
    response: mandatePageSchema,
  }),
  attempts: endpoint({
    method: 'GET',
    path: '/api/auto-debit/attempts',
    query: attemptListQuery,
    response: attemptPageSchema,
  }),
  summary: endpoint({
    method: 'GET',
    path: '/api/auto-debit/summary',
    response: autoDebitSummarySchema,
  }),
};
