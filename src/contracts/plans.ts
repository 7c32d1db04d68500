import { z } from 'zod';
import { DEVICE_CATEGORIES } from './devices';
import { endpoint, idParams } from './endpoint';
import { listQuery, pageOf } from './lists';
import { MAX_MONEY_INPUT, moneyInput } from './money';

/** Plans are offered per device category (the catalogue's list). */
export { DEVICE_CATEGORIES };
export const PLAN_STATUSES = ['draft', 'active', 'retired'] as const;

const wholeNumber = (label: string, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);
const percent = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} must not be negative`)
    .max(100, `${label} must be at most 100`);

/**
 * A service plan's terms (PRODUCT.md section 2). Money in minor units; APR and percentages as
 * decimal numbers. Cross-field rules are checked by the server with messages per field.
 */
const planFields = {
  code: z
    .string({ error: 'Code is required' })
    .trim()
    .regex(/^[A-Z0-9][A-Z0-9_-]{1,29}$/, 'Code: 2-30 capital letters, digits, - or _'),
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100),
  description: z.string().trim().max(1000).optional(),
  eligibleCategories: z.array(z.enum(DEVICE_CATEGORIES, { error: 'Unknown device category' })).max(6),
  eligibleModelIds: z.array(z.uuid('Not a valid device model id')).max(500),
  minDepositPercent: percent('Minimum deposit %'),
  minDepositAmount: moneyInput('Minimum deposit amount'),
  frequency: z.enum(['daily', 'weekly', 'monthly'], { error: 'Frequency must be daily, weekly or monthly' }),
  allowedTerms: z
    .array(wholeNumber('A term', 1, 3660), { error: 'Give the allowed numbers of instalments' })
    .min(1, 'Give at least one allowed term')
    .max(50, 'At most 50 allowed terms')
    .refine((terms) => new Set(terms).size === terms.length, 'Each term only once'),
  apr: z
    .number({ error: 'APR must be a number' })
    .min(0, 'APR must not be negative')
    .max(1000, 'APR must be at most 1000'),
  interestMethod: z.enum(['declining', 'flat'], { error: 'Interest method must be declining or flat' }),
  installmentMultiple: moneyInput('Instalment multiple'),
  serviceFee: moneyInput('Service fee'),
  lateFeeKind: z.enum(['none', 'flat', 'percent'], { error: 'Late fee must be none, flat or percent' }),
  /** Minor units when flat, percent when percent. */
  lateFeeValue: z
    .number({ error: 'Late fee must be a number' })
    .min(0, 'Late fee must not be negative')
    .max(MAX_MONEY_INPUT, 'Late fee is too large'),
  graceDays: wholeNumber('Grace days', 0, 365),
  lockAfterDays: wholeNumber('Lock after days', 0, 3650).nullable(),
  defaultAfterDays: wholeNumber('Default after days', 1, 3650).nullable(),
  allocationStrategy: z.enum(['default', 'principal_reduction'], {
    error: 'Allocation must be default or principal_reduction',
  }),
  earlySettlementDiscountPercent: percent('Early-settlement discount %'),
};

const planBase = z.strictObject(planFields);

/** Creating a plan: everything not given takes its default. */
export const planCreateBody = planBase.extend({
  eligibleCategories: planFields.eligibleCategories.default([]),
  eligibleModelIds: planFields.eligibleModelIds.default([]),
  minDepositPercent: planFields.minDepositPercent.default(0),
  minDepositAmount: planFields.minDepositAmount.default(0),
  installmentMultiple: planFields.installmentMultiple.default(0),
  serviceFee: planFields.serviceFee.default(0),
  lateFeeKind: planFields.lateFeeKind.default('none'),
  lateFeeValue: planFields.lateFeeValue.default(0),
  graceDays: planFields.graceDays.default(0),
  lockAfterDays: planFields.lockAfterDays.default(null),
  defaultAfterDays: planFields.defaultAfterDays.default(null),
  allocationStrategy: planFields.allocationStrategy.default('default'),
  earlySettlementDiscountPercent: planFields.earlySettlementDiscountPercent.default(0),
});
export type PlanCreateBody = z.input<typeof planCreateBody>;
export type PlanTerms = z.output<typeof planCreateBody>;

/** Editing a draft changes it; editing an active or retired plan creates the family's next version. */
export const planUpdateBody = planBase.partial();
export type PlanUpdateBody = z.input<typeof planUpdateBody>;

export const planSchema = z.object({
  id: z.string(),
  familyId: z.string(),
  version: z.number().int(),
  status: z.enum(PLAN_STATUSES),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  eligibleCategories: z.array(z.string()),
  eligibleModelIds: z.array(z.string()),
  minDepositPercent: z.number(),
  minDepositAmount: z.number().int(),
  frequency: z.enum(['daily', 'weekly', 'monthly']),
  allowedTerms: z.array(z.number().int()),
  apr: z.number(),
  interestMethod: z.enum(['declining', 'flat']),
  installmentMultiple: z.number().int(),
  serviceFee: z.number().int(),
  lateFeeKind: z.enum(['none', 'flat', 'percent']),
  lateFeeValue: z.number(),
  graceDays: z.number().int(),
  lockAfterDays: z.number().int().nullable(),
  defaultAfterDays: z.number().int().nullable(),
  allocationStrategy: z.enum(['default', 'principal_reduction']),
  earlySettlementDiscountPercent: z.number(),
  currency: z.string(),
  createdAt: z.string(),
  activatedAt: z.string().nullable(),
  retiredAt: z.string().nullable(),
  /** Contracts created on this version. */
  contracts: z.number().int(),
});
export type Plan = z.infer<typeof planSchema>;

export const planDetailSchema = planSchema.extend({ versions: z.array(planSchema) });

export const planListQuery = listQuery(['createdAt', 'name', 'code', 'apr'], {
  status: z.enum(PLAN_STATUSES, { error: 'status must be draft, active or retired' }).optional(),
  frequency: z
    .enum(['daily', 'weekly', 'monthly'], { error: 'frequency must be daily, weekly or monthly' })
    .optional(),
  /** Every version, not only the newest of each family. */
  allVersions: z.enum(['true', 'false'], { error: 'allVersions must be true or false' }).default('false'),
});
export const planPageSchema = pageOf(planSchema);

const planId = idParams('plan');

/** /api/service-plans: financing products, versioned so that contracts keep the terms they were made with. */
export const planEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/service-plans',
    query: planListQuery,
    response: planPageSchema,
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/service-plans/:id',
    params: planId,
    response: planDetailSchema,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/service-plans',
    body: planCreateBody,
    response: planSchema,
    status: 201,
  }),
  /** A draft changes; an active or retired plan gets its family's next version. */
  update: endpoint({
    method: 'PATCH',
    path: '/api/service-plans/:id',
    params: planId,
    body: planUpdateBody,
    response: planSchema,
  }),
  activate: endpoint({
    method: 'POST',
    path: '/api/service-plans/:id/activate',
    params: planId,
    response: planSchema,
  }),
  retire: endpoint({
    method: 'POST',
    path: '/api/service-plans/:id/retire',
    params: planId,
    response: planSchema,
  }),
};
