import { z } from 'zod';
import { endpoint, idempotencyHeaders, idParams } from './endpoint';
import { listQuery, pageOf } from './lists';
import { moneyInput } from './money';
import type { TransitionTable } from './transitions';

export const CONTRACT_STATUSES = [
  'draft',
  'pending_approval',
  'active',
  'paid_off',
  'defaulted',
  'written_off',
  'returned',
  'repossessed',
  'cancelled',
] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/**
 * A contract's lifecycle up to activation (PRODUCT.md; payments, close of business and
 * collections add theirs). Approval keeps the status: it records the second person on a
 * contract pending approval, which activation then requires.
 */
export const CONTRACT_TRANSITIONS = {
  submit: { from: ['draft'], to: 'pending_approval' },
  approve: { from: ['pending_approval'], to: 'pending_approval' },
  return: { from: ['pending_approval'], to: 'draft' },
  activate: { from: ['pending_approval'], to: 'active' },
  cancel: { from: ['draft', 'pending_approval'], to: 'cancelled' },
  /** The last instalment settled by a payment. */
  payOff: { from: ['active', 'defaulted'], to: 'paid_off' },
  /** A reversal or transfer left a paid-off contract with a balance again. */
  reopen: { from: ['paid_off'], to: 'active' },
  /** The close of business: days past due reached the plan's default-after days (decision 026). */
  default: { from: ['active'], to: 'defaulted' },
  /** A repossessed device recovered (recoveries): the contract closes, its balance written off or kept as a receivable. */
  repossess: { from: ['active', 'defaulted'], to: 'repossessed' },
  /** An approved write-off request (recoveries): what is left of the balance comes off the books. */
  writeOff: { from: ['active', 'defaulted', 'repossessed'], to: 'written_off' },
} as const satisfies TransitionTable<ContractStatus>;
export type ContractMove = keyof typeof CONTRACT_TRANSITIONS;

const date = (field: string) => z.iso.date(`${field} must be a date (YYYY-MM-DD)`);

/** API.md: POST /api/contracts. The cash price is the device model's retail price. */
export const contractCreateBody = z.strictObject({
  customerId: z.uuid('Choose a customer'),
  deviceId: z.uuid('Choose a device'),
  planId: z.uuid('Choose a service plan'),
  deposit: moneyInput('deposit'),
  term: z.number({ error: 'term must be a number' }).int('term must be a whole number').min(1).max(3660),
  startDate: date('startDate').optional(),
});
export type ContractCreateBody = z.input<typeof contractCreateBody>;

/** The wizard's schedule preview: the same inputs, nothing saved or reserved. */
export const contractPreviewBody = contractCreateBody;

export const reasonBody = z.strictObject({
  reason: z
    .string({ error: 'Give a reason' })
    .trim()
    .min(3, 'Give a reason (at least 3 characters)')
    .max(500),
});

export const DEPOSIT_CHANNELS = ['cash', 'mobile_money', 'bank_transfer', 'card'] as const;
export type DepositChannel = (typeof DEPOSIT_CHANNELS)[number];

/** Recording the deposit: a payment of method `deposit` through a channel. */
export const depositBody = z.strictObject({
  amount: moneyInput('amount').refine((value) => value > 0, 'amount must be more than 0'),
  channel: z.enum(DEPOSIT_CHANNELS, { error: `channel must be one of: ${DEPOSIT_CHANNELS.join(', ')}` }),
  reference: z.string().trim().min(1).max(100).optional(),
  receivedAt: z.iso.datetime({ offset: true, error: 'receivedAt must be an ISO date-time' }).optional(),
});

export const scheduleRowSchema = z.object({
  n: z.number().int(),
  dueDate: z.string(),
  principal: z.number().int(),
  interest: z.number().int(),
  serviceFee: z.number().int(),
  penalty: z.number().int(),
  total: z.number().int(),
  paid: z.number().int(),
  /** Principal outstanding after this instalment, per the schedule. */
  balance: z.number().int(),
  status: z.enum(['paid', 'partial', 'overdue', 'due', 'upcoming']),
});

export const contractFiguresSchema = z.object({
  currency: z.string(),
  cashPrice: z.number().int(),
  deposit: z.number().int(),
  principal: z.number().int(),
  apr: z.number(),
  frequency: z.enum(['daily', 'weekly', 'monthly']),
  term: z.number().int(),
  interestMethod: z.enum(['declining', 'flat']),
  installmentMultiple: z.number().int(),
  serviceFee: z.number().int(),
  /** Principal + interest per period. */
  installment: z.number().int(),
  /** What the customer pays per period: instalment + service fee. */
  regularPayment: z.number().int(),
  totalInterest: z.number().int(),
  totalServiceFees: z.number().int(),
  totalPayable: z.number().int(),
  startDate: z.string(),
  firstDueDate: z.string(),
  lastDueDate: z.string(),
});

export const contractPreviewSchema = contractFiguresSchema.extend({
  schedule: z.array(scheduleRowSchema),
  /** The least deposit the plan accepts for this device. */
  minimumDeposit: z.number().int(),
});
export type ContractPreview = z.infer<typeof contractPreviewSchema>;

const person = z.object({ id: z.string(), name: z.string() }).nullable();

export const contractEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  message: z.string(),
  at: z.string(),
  actor: person,
});

export const contractPaymentSchema = z.object({
  id: z.string(),
  receiptNumber: z.string(),
  amount: z.number().int(),
  method: z.string(),
  channel: z.string().nullable(),
  reference: z.string().nullable(),
  receivedAt: z.string(),
  status: z.string(),
});

/** API.md: GET /api/contracts/:id. Figures are as of today in the organisation's time zone. */
export const contractSchema = contractFiguresSchema.extend({
  id: z.string(),
  number: z.string(),
  status: z.enum(CONTRACT_STATUSES),
  customer: z.object({
    id: z.string(),
    accountNumber: z.string(),
    name: z.string(),
    phone: z.string(),
    kycStatus: z.string(),
  }),
  device: z.object({
    id: z.string(),
    serialNumber: z.string(),
    imei: z.string().nullable(),
    model: z.string(),
    controlKind: z.string(),
    status: z.string(),
    lockState: z.string(),
  }),
  plan: z.object({ id: z.string(), code: z.string(), name: z.string(), version: z.number().int() }),
  schedule: z.array(scheduleRowSchema),
  asOf: z.string(),
  dpd: z.number().int(),
  bucket: z.string(),
  paidThroughDate: z.string(),
  nextDue: z
    .object({ installmentNumber: z.number().int(), dueDate: z.string(), amount: z.number().int() })
    .nullable(),
  outstanding: z.object({
    principal: z.number().int(),
    interest: z.number().int(),
    fees: z.number().int(),
    penalties: z.number().int(),
    total: z.number().int(),
  }),
  totalPaid: z.number().int(),
  creditBalance: z.number().int(),
  depositReceived: z.number().int(),
  /** What activation still needs (empty when it can go ahead); for the contract page. */
  activationBlockers: z.array(z.string()),
  createdAt: z.string(),
  createdBy: person,
  submittedAt: z.string().nullable(),
  submittedBy: person,
  approvedAt: z.string().nullable(),
  approvedBy: person,
  activatedAt: z.string().nullable(),
  activatedBy: person,
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  payments: z.array(contractPaymentSchema),
  events: z.array(contractEventSchema),
  tokens: z.array(
    z.object({
      token: z.string(),
      type: z.string(),
      value: z.number().int().nullable(),
      issuedAt: z.string(),
    }),
  ),
});
export type Contract = z.infer<typeof contractSchema>;

export const contractRowSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: z.enum(CONTRACT_STATUSES),
  customerId: z.string(),
  customerName: z.string(),
  customerPhone: z.string(),
  deviceSerial: z.string(),
  deviceModel: z.string(),
  planCode: z.string(),
  currency: z.string(),
  principal: z.number().int(),
  regularPayment: z.number().int(),
  frequency: z.string(),
  dpd: z.number().int(),
  bucket: z.string(),
  outstandingTotal: z.number().int(),
  /** Money held for the customer beyond this contract's balance (the customer page sums it). */
  creditBalance: z.number().int(),
  nextDueDate: z.string().nullable(),
  createdAt: z.string(),
  activatedAt: z.string().nullable(),
});
export type ContractRow = z.infer<typeof contractRowSchema>;

export const contractListQuery = listQuery(['createdAt', 'number', 'dpd', 'outstanding', 'activatedAt'], {
  status: z.enum(CONTRACT_STATUSES, { error: 'Unknown status' }).optional(),
  bucket: z.string().max(20).optional(),
  customerId: z.uuid('Not a valid customer id').optional(),
  planId: z.uuid('Not a valid plan id').optional(),
  minDpd: z.coerce
    .number<string | number>({ error: 'minDpd must be a number' })
    .int({ error: 'minDpd must be a whole number of days' })
    .min(0, { error: 'minDpd must be 0 or more' })
    .optional(),
  from: date('from').optional(),
  to: date('to').optional(),
});
export const contractPageSchema = pageOf(contractRowSchema);

export const activationSchema = z.object({
  contract: contractSchema,
  /** The first OpenPAYGO token, for devices controlled by tokens. */
  token: z.object({ token: z.string(), days: z.number().int() }).nullable(),
});
export type Activation = z.infer<typeof activationSchema>;

const contractId = idParams('contract');

/** /api/contracts: contracts from quote to activation and after. */
export const contractEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/contracts',
    query: contractListQuery,
    response: contractPageSchema,
  }),
  /** The wizard's schedule preview: nothing saved or reserved. */
  preview: endpoint({
    method: 'POST',
    path: '/api/contracts/preview',
    body: contractPreviewBody,
    response: contractPreviewSchema,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/contracts',
    body: contractCreateBody,
    response: contractSchema,
    status: 201,
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/contracts/:id',
    params: contractId,
    response: contractSchema,
  }),
  submit: endpoint({
    method: 'POST',
    path: '/api/contracts/:id/submit',
    params: contractId,
    response: contractSchema,
  }),
  approve: endpoint({
    method: 'POST',
    path: '/api/contracts/:id/approve',
    params: contractId,
    response: contractSchema,
  }),
  return: endpoint({
    method: 'POST',
    path: '/api/contracts/:id/return',
    params: contractId,
    body: reasonBody,
    response: contractSchema,
  }),
  /** 201 when the deposit is recorded, 200 when the same one (reference or key) was recorded already. */
  deposit: endpoint({
    method: 'POST',
    path: '/api/contracts/:id/deposit',
    params: contractId,
    headers: idempotencyHeaders,
    body: depositBody,
    response: contractSchema,
    status: 201,
    alsoStatus: 200,
  }),
  activate: endpoint({
    method: 'POST',
    path: '/api/contracts/:id/activate',
    params: contractId,
    response: activationSchema,
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/api/contracts/:id/cancel',
    params: contractId,
    body: reasonBody,
    response: contractSchema,
  }),
  /** The key facts statement, a PDF the browser opens. */
  keyFacts: endpoint({
    method: 'GET',
    path: '/api/contracts/:id/key-facts.pdf',
    params: contractId,
    response: 'file',
  }),
};
