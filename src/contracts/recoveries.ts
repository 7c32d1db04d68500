import { z } from 'zod';
import { DEVICE_CONDITIONS } from './devices';
import { endpoint, idParams } from './endpoint';
import { listQuery, pageOf } from './lists';
import { moneyInput } from './money';
import type { TransitionTable } from './transitions';

/**
 * Recoveries (PRODUCT.md section 2, Collections): repossessing a device and writing off a
 * contract's balance, each asked for by one person and decided by another (maker-checker).
 */

export const REPOSSESSION_STATUSES = ['requested', 'approved', 'rejected', 'recovered', 'cancelled'] as const;
export type RepossessionStatus = (typeof REPOSSESSION_STATUSES)[number];

/** Request -> approve or reject (another user) -> recovered, or cancelled before recovery. */
export const REPOSSESSION_TRANSITIONS = {
  approve: { from: ['requested'], to: 'approved' },
  reject: { from: ['requested'], to: 'rejected' },
  recover: { from: ['approved'], to: 'recovered' },
  cancel: { from: ['requested', 'approved'], to: 'cancelled' },
} as const satisfies TransitionTable<RepossessionStatus>;
export type RepossessionMove = keyof typeof REPOSSESSION_TRANSITIONS;

export const WRITE_OFF_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type WriteOffStatus = (typeof WRITE_OFF_STATUSES)[number];

export const WRITE_OFF_TRANSITIONS = {
  approve: { from: ['pending'], to: 'approved' },
  reject: { from: ['pending'], to: 'rejected' },
} as const satisfies TransitionTable<WriteOffStatus>;
export type WriteOffMove = keyof typeof WRITE_OFF_TRANSITIONS;

export { DEVICE_CONDITION_LABELS, DEVICE_CONDITIONS, type DeviceCondition } from './devices';

/** What happens to the balance left once the device's recovery value is taken off. */
export const BALANCE_TREATMENTS = ['write_off', 'receivable'] as const;
export type BalanceTreatment = (typeof BALANCE_TREATMENTS)[number];

/** A contract's balance by component (minor units). */
export const componentsSchema = z.object({
  principal: z.number().int(),
  interest: z.number().int(),
  fees: z.number().int(),
  penalties: z.number().int(),
  total: z.number().int(),
});
export type Components = z.infer<typeof componentsSchema>;

const reason = z
  .string({ error: 'Give a reason' })
  .trim()
  .min(3, 'Give a reason (at least 3 characters)')
  .max(500, 'Keep the reason under 500 characters');

export const recoveryRequestBody = z.strictObject({ reason });
export const recoveryDecisionBody = z.strictObject({
  note: z.string().trim().max(500, 'Keep the note under 500 characters').optional(),
});
export const recoveryRejectBody = z.strictObject({ reason });
export const recoverBody = z.strictObject({
  condition: z.enum(DEVICE_CONDITIONS, {
    error: `condition must be one of: ${DEVICE_CONDITIONS.join(', ')}`,
  }),
  conditionNotes: z.string().trim().max(1000, 'Keep the notes under 1,000 characters').optional(),
  /** What the unit is worth back in stock (minor units); it comes off the balance. */
  recoveryValue: moneyInput('recoveryValue'),
  balance: z.enum(BALANCE_TREATMENTS, { error: 'balance must be write_off or receivable' }),
});
export type RecoverBody = z.input<typeof recoverBody>;

const person = z.object({ id: z.string(), name: z.string() }).nullable();

export const repossessionSchema = z.object({
  id: z.string(),
  status: z.enum(REPOSSESSION_STATUSES),
  contractId: z.string(),
  contractNumber: z.string(),
  contractStatus: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  deviceId: z.string(),
  deviceSerial: z.string(),
  currency: z.string(),
  reason: z.string(),
  /** The contract's balance when it was asked for. */
  outstandingAtRequest: componentsSchema,
  requestedBy: person,
  requestedAt: z.string(),
  decidedBy: person,
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  recoveredBy: person,
  recoveredAt: z.string().nullable(),
  condition: z.enum(DEVICE_CONDITIONS).nullable(),
  conditionNotes: z.string().nullable(),
  recoveryValue: z.number().int().nullable(),
  balanceTreatment: z.enum(BALANCE_TREATMENTS).nullable(),
  /** Written off at recovery (the receivables left after the recovery value), by component. */
  writtenOff: componentsSchema.nullable(),
});
export type Repossession = z.infer<typeof repossessionSchema>;

export const writeOffSchema = z.object({
  id: z.string(),
  status: z.enum(WRITE_OFF_STATUSES),
  contractId: z.string(),
  contractNumber: z.string(),
  contractStatus: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  currency: z.string(),
  reason: z.string(),
  /** The balance when asked for; replaced at approval by the balance then. */
  outstanding: componentsSchema,
  /** What the approval took off the books, by component (null until approved). */
  writtenOff: componentsSchema.nullable(),
  requestedBy: person,
  requestedAt: z.string(),
  decidedBy: person,
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
});
export type WriteOff = z.infer<typeof writeOffSchema>;

export const repossessionListQuery = listQuery(['requestedAt'], {
  status: z
    .enum(REPOSSESSION_STATUSES, { error: `status must be one of: ${REPOSSESSION_STATUSES.join(', ')}` })
    .optional(),
});
export const writeOffListQuery = listQuery(['requestedAt'], {
  status: z
    .enum(WRITE_OFF_STATUSES, { error: `status must be one of: ${WRITE_OFF_STATUSES.join(', ')}` })
    .optional(),
});

/** The contract page's view: its latest requests of each kind and its balance now. */
export const contractRecoveriesSchema = z.object({
  repossession: repossessionSchema.nullable(),
  writeOff: writeOffSchema.nullable(),
  outstanding: componentsSchema,
});
export type ContractRecoveries = z.infer<typeof contractRecoveriesSchema>;

const contractId = idParams('contract');
const repossessionId = idParams('repossession');
const writeOffId = idParams('write-off');

export const recoveryEndpoints = {
  contractRecoveries: endpoint({
    method: 'GET',
    path: '/api/contracts/:id/recoveries',
    params: contractId,
    response: contractRecoveriesSchema,
  }),
  requestRepossession: endpoint({
    method: 'POST',
    path: '/api/contracts/:id/repossessions',
    params: contractId,
    body: recoveryRequestBody,
    response: repossessionSchema,
    status: 201,
  }),
  repossessions: endpoint({
    method: 'GET',
    path: '/api/repossessions',
    query: repossessionListQuery,
    response: pageOf(repossessionSchema),
  }),
  approveRepossession: endpoint({
    method: 'POST',
    path: '/api/repossessions/:id/approve',
    params: repossessionId,
    body: recoveryDecisionBody,
    response: repossessionSchema,
  }),
  rejectRepossession: endpoint({
    method: 'POST',
    path: '/api/repossessions/:id/reject',
    params: repossessionId,
    body: recoveryRejectBody,
    response: repossessionSchema,
  }),
  recoverRepossession: endpoint({
    method: 'POST',
    path: '/api/repossessions/:id/recover',
    params: repossessionId,
    body: recoverBody,
    response: repossessionSchema,
  }),
  cancelRepossession: endpoint({
    method: 'POST',
    path: '/api/repossessions/:id/cancel',
    params: repossessionId,
    body: recoveryRejectBody,
    response: repossessionSchema,
  }),
  requestWriteOff: endpoint({
    method: 'POST',
    path: '/api/contracts/:id/write-offs',
    params: contractId,
    body: recoveryRequestBody,
    response: writeOffSchema,
    status: 201,
  }),
  writeOffs: endpoint({
    method: 'GET',
    path: '/api/write-offs',
    query: writeOffListQuery,
    response: pageOf(writeOffSchema),
  }),
  approveWriteOff: endpoint({
    method: 'POST',
    path: '/api/write-offs/:id/approve',
    params: writeOffId,
    body: recoveryDecisionBody,
    response: writeOffSchema,
  }),
  rejectWriteOff: endpoint({
    method: 'POST',
    path: '/api/write-offs/:id/reject',
    params: writeOffId,
    body: recoveryRejectBody,
    response: writeOffSchema,
  }),
};
