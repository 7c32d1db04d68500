import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { COLLECTION_ACTION_KINDS, CONTACT_OUTCOMES, PROMISE_STATES } from '../../contracts/collections';
import { users } from './auth';
import { contracts } from './contracts';
import { inList } from './helpers';

/**
 * The collections case of a contract (PRODUCT.md §2 "Collections"): its assignment to a collector
 * (who, by whom, when) and its place in the queue. The score's inputs and parts are kept here,
 * refreshed set-based for the business date (close of business step 5 and after every action on
 * the case), so the queue is an index read in score order rather than a sort of every case.
 */
export const collectionCases = pgTable(
  'collection_cases',
  {
    // Must name a contract: checked once per statement by a trigger (migration 0044, decision 034)
    // rather than a foreign key, which key-share locks each contract row a new case names (a
    // catch-up close opens 200,000 cases at a million contracts).
    contractId: text('contract_id').primaryKey(),
    customerId: text('customer_id').notNull(),
    planId: text('plan_id').notNull(),
    /** The customer's region and agent when scored: the queue filters on them without a join. */
    region: text('region'),
    agentId: text('agent_id'),
    bucket: text('bucket').notNull(),
    dpd: integer('dpd').notNull(),
    amountOverdue: bigint('amount_overdue', { mode: 'number' }).notNull(),
    regularPayment: bigint('regular_payment', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    dueToday: boolean('due_today').notNull().default(false),
    riskGrade: text('risk_grade'),
    brokenPromises: integer('broken_promises').notNull().default(0),
    lastContactAt: timestamp('last_contact_at', { withTimezone: true }),
    /** Days since the last contact on the scored date; null when never contacted. */
    daysSinceContact: integer('days_since_contact'),
    /** The state of the case's latest promise; null when it has none. */
    promiseState: text('promise_state', { enum: PROMISE_STATES }),
    score: integer('score').notNull(),
    dpdPoints: integer('dpd_points').notNull(),
    amountPoints: integer('amount_points').notNull(),
    riskPoints: integer('risk_points').notNull(),
    promisePoints: integer('promise_points').notNull(),
    contactPoints: integer('contact_points').notNull(),
    /** Arrears, a broken promise or a payment due on the scored date. */
    inQueue: boolean('in_queue').notNull(),
    scoredOn: date('scored_on', { mode: 'string' }).notNull(),
    /** The bucket the case was in when its collector took it (cure rate by bucket). */
    assignedBucket: text('assigned_bucket'),
    collectorId: text('collector_id').references(() => users.id, { onDelete: 'set null' }),
    assignedBy: text('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // The queue in score order (the tie-break the same way), whole or per collector or bucket.
    index('collection_cases_queue_idx').on(t.score, t.contractId).where(sql`${t.inQueue}`),
    index('collection_cases_collector_idx').on(t.collectorId, t.score, t.contractId).where(sql`${t.inQueue}`),
    index('collection_cases_bucket_idx').on(t.bucket, t.score, t.contractId).where(sql`${t.inQueue}`),
    index('collection_cases_dpd_idx').on(t.dpd, t.contractId).where(sql`${t.inQueue}`),
    index('collection_cases_amount_idx').on(t.amountOverdue, t.contractId).where(sql`${t.inQueue}`),
    index('collection_cases_customer_idx').on(t.customerId),
    check('collection_cases_promise_state_check', inList(t.promiseState, PROMISE_STATES)),
  ],
);

/** A collector's settings: the regions they work and how many open cases they take at most. */
export const collectorSettings = pgTable('collector_settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  regions: text('regions').array().notNull().default(sql`'{}'::text[]`),
  maxOpenCases: integer('max_open_cases').notNull().default(50),
  active: boolean('active').notNull().default(true),
  updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** What a collector did on a case: a contact with its outcome, a promise, a dispute, an escalation. */
export const collectionActions = pgTable(
  'collection_actions',
  {
    id: text('id').primaryKey(),
    contractId: text('contract_id')
      .notNull()
      .references(() => contracts.id),
    customerId: text('customer_id').notNull(),
    kind: text('kind', { enum: COLLECTION_ACTION_KINDS }).notNull(),
    outcome: text('outcome', { enum: CONTACT_OUTCOMES }),
    note: text('note'),
    promiseId: text('promise_id'),
    /** The lock an escalation queued (devices area). */
    deviceCommandId: text('device_command_id'),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
  },
  (t) => [
    index('collection_actions_contract_idx').on(t.contractId, t.at),
    index('collection_actions_customer_idx').on(t.customerId, t.at),
    index('collection_actions_actor_idx').on(t.actorId, t.businessDate),
    check('collection_actions_kind_check', inList(t.kind, COLLECTION_ACTION_KINDS)),
    check('collection_actions_outcome_check', inList(t.outcome, CONTACT_OUTCOMES)),
  ],
);

/**
 * A promise to pay: checked by the close of business of its date (step 5) against the payments
 * received on the contract from the day it was taken: kept, partly kept or broken.
 */
export const collectionPromises = pgTable(
  'collection_promises',
  {
    id: text('id').primaryKey(),
    contractId: text('contract_id')
      .notNull()
      .references(() => contracts.id),
    customerId: text('customer_id').notNull(),
    /** Whom a broken promise notifies: the case's collector when taken, else who took it. */
    collectorId: text('collector_id').references(() => users.id, { onDelete: 'set null' }),
    promisedDate: date('promised_date', { mode: 'string' }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    state: text('state', { enum: PROMISE_STATES }).notNull().default('pending'),
    amountPaid: bigint('amount_paid', { mode: 'number' }).notNull().default(0),
    /** The business date it was taken: payments from this date count toward it. */
    takenOn: date('taken_on', { mode: 'string' }).notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    takenBy: text('taken_by').references(() => users.id, { onDelete: 'set null' }),
    checkedOn: date('checked_on', { mode: 'string' }),
  },
  (t) => [
    index('collection_promises_due_idx').on(t.promisedDate).where(sql`${t.state} = 'pending'`),
    index('collection_promises_contract_idx').on(t.contractId, t.takenAt),
    index('collection_promises_collector_idx').on(t.collectorId, t.promisedDate),
    index('collection_promises_state_idx').on(t.state, t.promisedDate, t.id),
    index('collection_promises_date_idx').on(t.promisedDate, t.id),
    check('collection_promises_state_check', inList(t.state, PROMISE_STATES)),
    check('collection_promises_amounts_check', sql`${t.amount} > 0 AND ${t.amountPaid} >= 0`),
  ],
);
