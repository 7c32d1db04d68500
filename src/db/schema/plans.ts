import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { PLAN_STATUSES } from '../../contracts/plans';
import { users } from './auth';
import { inList } from './helpers';

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const INTEREST_METHODS = ['declining', 'flat'] as const;
export const LATE_FEE_KINDS = ['none', 'flat', 'percent'] as const;
export const ALLOCATION_STRATEGIES = ['default', 'principal_reduction'] as const;

/**
 * A financing product (PRODUCT.md section 2, Service plan). Versioned: editing an active plan
 * creates the next version of its family; contracts keep the version (and a copy of its terms)
 * they were created with. One active version per family at a time.
 */
export const servicePlans = pgTable(
  'service_plans',
  {
    id: text('id').primaryKey(),
    familyId: text('family_id').notNull(),
    version: integer('version').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    status: text('status', { enum: PLAN_STATUSES }).notNull().default('draft'),
    eligibleCategories: jsonb('eligible_categories').$type<string[]>().notNull().default([]),
    eligibleModelIds: jsonb('eligible_model_ids').$type<string[]>().notNull().default([]),
    minDepositPercent: numeric('min_deposit_percent', { precision: 7, scale: 4 }).notNull().default('0'),
    minDepositAmount: bigint('min_deposit_amount', { mode: 'number' }).notNull().default(0),
    frequency: text('frequency', { enum: FREQUENCIES }).notNull(),
    allowedTerms: jsonb('allowed_terms').$type<number[]>().notNull(),
    apr: numeric('apr', { precision: 9, scale: 4 }).notNull(),
    interestMethod: text('interest_method', { enum: INTEREST_METHODS }).notNull(),
    installmentMultiple: bigint('installment_multiple', { mode: 'number' }).notNull().default(0),
    serviceFee: bigint('service_fee', { mode: 'number' }).notNull().default(0),
    lateFeeKind: text('late_fee_kind', { enum: LATE_FEE_KINDS }).notNull().default('none'),
    /** Minor units for 'flat', percent for 'percent'. */
    lateFeeValue: numeric('late_fee_value', { precision: 18, scale: 4 }).notNull().default('0'),
    graceDays: integer('grace_days').notNull().default(0),
    lockAfterDays: integer('lock_after_days'),
    defaultAfterDays: integer('default_after_days'),
    allocationStrategy: text('allocation_strategy', { enum: ALLOCATION_STRATEGIES })
      .notNull()
      .default('default'),
    earlySettlementDiscountPercent: numeric('early_settlement_discount_percent', { precision: 7, scale: 4 })
      .notNull()
      .default('0'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('service_plans_family_version_key').on(t.familyId, t.version),
    uniqueIndex('service_plans_one_active_key').on(t.familyId).where(sql`${t.status} = 'active'`),
    index('service_plans_code_idx').on(t.code),
    index('service_plans_status_idx').on(t.status),
    check('service_plans_status_check', inList(t.status, PLAN_STATUSES)),
    check('service_plans_frequency_check', inList(t.frequency, FREQUENCIES)),
    check('service_plans_method_check', inList(t.interestMethod, INTEREST_METHODS)),
    check('service_plans_late_fee_check', inList(t.lateFeeKind, LATE_FEE_KINDS)),
    check('service_plans_allocation_check', inList(t.allocationStrategy, ALLOCATION_STRATEGIES)),
    check(
      'service_plans_amounts_check',
      sql`${t.apr} >= 0 AND ${t.minDepositAmount} >= 0 AND ${t.serviceFee} >= 0 AND ${t.installmentMultiple} >= 0 AND ${t.graceDays} >= 0`,
    ),
  ],
);
