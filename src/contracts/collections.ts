import { z } from 'zod';
import { endpoint, idParams } from './endpoint';
import { listQuery, pageOf } from './lists';
import { moneyInput } from './money';

/**
 * Collections (PRODUCT.md §2 "Collections"): the queue of contracts in arrears ranked by the
 * priority score (src/domain/collections-score.ts), assignment to collectors, the actions they log
 * and the promises to pay the close of business checks (step 5).
 */

export const COLLECTION_ACTION_KINDS = [
  'call',
  'message',
  'visit',
  'promise',
  'dispute',
  'escalate_lock',
  'escalate_repossession',
  'escalate_write_off',
] as const;
export type CollectionActionKind = (typeof COLLECTION_ACTION_KINDS)[number];

export const COLLECTION_ACTION_LABELS: Record<CollectionActionKind, string> = {
  call: 'Call',
  message: 'Message',
  visit: 'Field visit',
  promise: 'Promise to pay',
  dispute: 'Dispute',
  escalate_lock: 'Escalate: lock the device',
  escalate_repossession: 'Escalate: repossession',
  escalate_write_off: 'Escalate: write-off request',
};

/** What came of a contact. A promise to pay is its own action (with date and amount). */
export const CONTACT_OUTCOMES = [
  'reached',
  'no_answer',
  'wrong_number',
  'refused_to_pay',
  'will_pay',
  'not_home',
  'other',
] as const;
export type ContactOutcome = (typeof CONTACT_OUTCOMES)[number];

export const CONTACT_OUTCOME_LABELS: Record<ContactOutcome, string> = {
  reached: 'Reached the customer',
  no_answer: 'No answer',
  wrong_number: 'Wrong number',
  refused_to_pay: 'Refused to pay',
  will_pay: 'Says they will pay',
  not_home: 'Not at home',
  other: 'Other',
};

/** Kinds that count as a contact with the customer (days since last contact, performance). */
export const CONTACT_KINDS = ['call', 'message', 'visit', 'promise', 'dispute'] as const;

export const PROMISE_STATES = ['pending', 'kept', 'partly_kept', 'broken'] as const;
export type PromiseState = (typeof PROMISE_STATES)[number];

export const PROMISE_STATE_LABELS: Record<PromiseState, string> = {
  pending: 'Pending',
  kept: 'Kept',
  partly_kept: 'Partly kept',
  broken: 'Broken',
};

/** A promise is at most this many days ahead of the business date. */
export const PROMISE_MAX_DAYS = 60;

const note = z.string().trim().max(1000, 'The note is at most 1,000 characters').optional();

/** Logging an action: the fields each kind needs are checked per field (promise date and amount). */
export const actionBody = z
  .strictObject({
    kind: z.enum(COLLECTION_ACTION_KINDS, {
      error: `kind must be one of: ${COLLECTION_ACTION_KINDS.join(', ')}`,
    }),
    outcome: z
      .enum(CONTACT_OUTCOMES, { error: `outcome must be one of: ${CONTACT_OUTCOMES.join(', ')}` })
      .optional(),
    note,
    promiseDate: z.iso.date('promiseDate must be a date (YYYY-MM-DD)').optional(),
    promiseAmount: moneyInput('promiseAmount').optional(),
  })
  .superRefine((body, issue) => {
    if (body.kind === 'promise') {
      if (!body.promiseDate)
        issue.addIssue({ code: 'custom', path: ['promiseDate'], message: 'Give the date promised' });
      if (body.promiseAmount === undefined)
        issue.addIssue({ code: 'custom', path: ['promiseAmount'], message: 'Give the amount promised' });
      else if (body.promiseAmount <= 0)
        issue.addIssue({
          code: 'custom',
          path: ['promiseAmount'],
          message: 'The amount must be more than 0',
        });
    }
    if ((body.kind === 'call' || body.kind === 'visit') && !body.outcome)
      issue.addIssue({ code: 'custom', path: ['outcome'], message: 'Choose the outcome' });
    if (body.kind.startsWith('escalate_') && (!body.note || body.note.length < 3))
      issue.addIssue({ code: 'custom', path: ['note'], message: 'Give a reason (at least 3 characters)' });
  });
export type ActionBody = z.input<typeof actionBody>;

export const collectionActionSchema = z.object({
  id: z.string(),
  contractId: z.string(),
  contractNumber: z.string(),
  kind: z.enum(COLLECTION_ACTION_KINDS),
  outcome: z.enum(CONTACT_OUTCOMES).nullable(),
  note: z.string().nullable(),
  promiseId: z.string().nullable(),
  deviceCommandId: z.string().nullable(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  at: z.string(),
  businessDate: z.string(),
});
export type CollectionAction = z.infer<typeof collectionActionSchema>;

export const promiseSchema = z.object({
  id: z.string(),
  contractId: z.string(),
  contractNumber: z.string(),
  customerName: z.string(),
  collectorId: z.string().nullable(),
  collectorName: z.string().nullable(),
  promisedDate: z.string(),
  amount: z.number().int(),
  amountPaid: z.number().int(),
  currency: z.string(),
  state: z.enum(PROMISE_STATES),
  takenOn: z.string(),
  checkedOn: z.string().nullable(),
});
export type PromiseToPay = z.infer<typeof promiseSchema>;

export const scorePartsSchema = z.object({
  dpd: z.number().int(),
  amount: z.number().int(),
  risk: z.number().int(),
  promises: z.number().int(),
  contact: z.number().int(),
});

/** A queue row: the case, its contract's current figures, and the score's parts (why it ranks here). */
export const queueRowSchema = z.object({
  contractId: z.string(),
  contractNumber: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  customerPhone: z.string(),
  region: z.string().nullable(),
  planCode: z.string(),
  bucket: z.string(),
  dpd: z.number().int(),
  amountOverdue: z.number().int(),
  regularPayment: z.number().int(),
  currency: z.string(),
  riskGrade: z.string().nullable(),
  brokenPromises: z.number().int(),
  daysSinceContact: z.number().int().nullable(),
  dueToday: z.boolean(),
  promiseState: z.enum(PROMISE_STATES).nullable(),
  score: z.number().int(),
  parts: scorePartsSchema,
  /** The business date the score was computed for. */
  scoredOn: z.string(),
  collectorId: z.string().nullable(),
  collectorName: z.string().nullable(),
});
export type QueueRow = z.infer<typeof queueRowSchema>;

const id = (what: string) => z.uuid(`${what} must be an id`);

export const queueListQuery = listQuery(['score', 'dpd', 'amountOverdue'], {
  bucket: z.string().trim().min(1).max(20).optional(),
  region: z.string().trim().min(1).max(100).optional(),
  /** The customer's agent. */
  agentId: id('agentId').optional(),
  planId: id('planId').optional(),
  promiseState: z
    .enum([...PROMISE_STATES, 'none'], {
      error: `promiseState must be one of: ${PROMISE_STATES.join(', ')}, none`,
    })
    .optional(),
  collectorId: id('collectorId').optional(),
  /** "My queue": the cases assigned to the person asking. */
  mine: z.enum(['true', 'false'], { error: 'mine must be true or false' }).optional(),
  unassigned: z.enum(['true', 'false'], { error: 'unassigned must be true or false' }).optional(),
});
export const queuePageSchema = pageOf(queueRowSchema);

export const promiseListQuery = listQuery(['promisedDate', 'takenOn'], {
  state: z.enum(PROMISE_STATES, { error: `state must be one of: ${PROMISE_STATES.join(', ')}` }).optional(),
  collectorId: id('collectorId').optional(),
  mine: z.enum(['true', 'false'], { error: 'mine must be true or false' }).optional(),
  contractId: id('contractId').optional(),
});
export const promisePageSchema = pageOf(promiseSchema);

export const assignBody = z.strictObject({
  contractIds: z
    .array(id('contractIds'), { error: 'Choose the contracts to assign' })
    .min(1, 'Choose at least one contract')
    .max(500, 'At most 500 contracts at once'),
  /** null takes the cases off their collector. */
  collectorId: id('collectorId').nullable(),
});

export const autoAssignBody = z.strictObject({
  /** Only the cases of this region; all regions when absent. */
  region: z.string().trim().min(1).max(100).optional(),
});

export const assignResultSchema = z.object({ assigned: z.number().int(), skipped: z.number().int() });

export const collectorSchema = z.object({
  userId: z.string(),
  name: z.string(),
  role: z.string(),
  regions: z.array(z.string()),
  maxOpenCases: z.number().int(),
  active: z.boolean(),
  openCases: z.number().int(),
});
export type Collector = z.infer<typeof collectorSchema>;

export const collectorSettingsBody = z.strictObject({
  regions: z.array(z.string().trim().min(1).max(100)).max(50, 'At most 50 regions'),
  maxOpenCases: z
    .number({ error: 'maxOpenCases must be a number' })
    .int('maxOpenCases must be a whole number')
    .min(0, 'maxOpenCases must not be negative')
    .max(10_000, 'maxOpenCases must be at most 10,000'),
  active: z.boolean(),
});
export type CollectorSettingsBody = z.input<typeof collectorSettingsBody>;

export const contractCaseSchema = z.object({
  contractId: z.string(),
  inQueue: z.boolean(),
  collectorId: z.string().nullable(),
  collectorName: z.string().nullable(),
  score: z.number().int().nullable(),
  parts: scorePartsSchema.nullable(),
  scoredOn: z.string().nullable(),
  actions: z.array(collectionActionSchema),
  promises: z.array(promiseSchema),
});
export type ContractCase = z.infer<typeof contractCaseSchema>;

export const performanceQuery = z.strictObject({
  from: z.iso.date('from must be a date (YYYY-MM-DD)'),
  to: z.iso.date('to must be a date (YYYY-MM-DD)'),
});

export const collectorPerformanceSchema = z.object({
  collectorId: z.string(),
  name: z.string(),
  contacts: z.number().int(),
  promises: z.number().int(),
  /** Promises due in the range that were checked. */
  promisesDue: z.number().int(),
  kept: z.number().int(),
  /** Kept (whole) over promises due and checked, 0..1; null when none was due. */
  keptRate: z.number().nullable(),
  /** Payments received in the range on contracts assigned to the collector. */
  amountCollected: z.number().int(),
  /** Per bucket the case was in when assigned: assigned cases and those now current (cured). */
  cure: z.array(z.object({ bucket: z.string(), cases: z.number().int(), cured: z.number().int() })),
});
export const performanceSchema = z.object({
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  collectors: z.array(collectorPerformanceSchema),
});
export type Performance = z.infer<typeof performanceSchema>;

/** The filters' choices: buckets, regions, agents, plans and collectors. */
export const queueOptionsSchema = z.object({
  buckets: z.array(z.string()),
  regions: z.array(z.string()),
  agents: z.array(z.object({ id: z.string(), name: z.string() })),
  plans: z.array(z.object({ id: z.string(), name: z.string() })),
  collectors: z.array(z.object({ id: z.string(), name: z.string() })),
  businessDate: z.string(),
});

export const collectionEndpoints = {
  queue: endpoint({
    method: 'GET',
    path: '/api/collections/queue',
    query: queueListQuery,
    response: queuePageSchema,
  }),
  options: endpoint({ method: 'GET', path: '/api/collections/options', response: queueOptionsSchema }),
  promises: endpoint({
    method: 'GET',
    path: '/api/collections/promises',
    query: promiseListQuery,
    response: promisePageSchema,
  }),
  contractCase: endpoint({
    method: 'GET',
    path: '/api/collections/contracts/:id',
    params: idParams('contract'),
    response: contractCaseSchema,
  }),
  logAction: endpoint({
    method: 'POST',
    path: '/api/collections/contracts/:id/actions',
    params: idParams('contract'),
    body: actionBody,
    response: collectionActionSchema,
    status: 201,
  }),
  assign: endpoint({
    method: 'POST',
    path: '/api/collections/assign',
    body: assignBody,
    response: assignResultSchema,
  }),
  autoAssign: endpoint({
    method: 'POST',
    path: '/api/collections/auto-assign',
    body: autoAssignBody,
    response: assignResultSchema,
  }),
  collectors: endpoint({
    method: 'GET',
    path: '/api/collections/collectors',
    response: z.object({ collectors: z.array(collectorSchema) }),
  }),
  saveCollector: endpoint({
    method: 'PUT',
    path: '/api/collections/collectors/:id',
    params: idParams('user'),
    body: collectorSettingsBody,
    response: collectorSchema,
  }),
  performance: endpoint({
    method: 'GET',
    path: '/api/collections/performance',
    query: performanceQuery,
    response: performanceSchema,
  }),
  refresh: endpoint({
    method: 'POST',
    path: '/api/collections/refresh',
    response: z.object({ cases: z.number().int(), inQueue: z.number().int() }),
  }),
};
