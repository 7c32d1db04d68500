import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { CONTRACT_STATUSES } from '../../contracts/contracts';
import { users } from './auth';
import { customers } from './customers';
import { devices } from './devices';
import { inList } from './helpers';
import { servicePlans } from './plans';

/** Statuses in which a contract holds its device: a unit is in at most one such contract. */
export const OPEN_CONTRACT_STATUSES = ['draft', 'pending_approval', 'active', 'defaulted'] as const;

export const contractNumbers = pgSequence('contract_number_seq');

/**
 * PRODUCT.md section 2, Contract. The terms are copied from the plan version at creation; the
 * derived figures (paid-through, principal outstanding, paid, credit) are kept up to date by
 * payments. The figures the close of business moves every night are in `contractFigures`.
 */
export const contracts = pgTable(
  'contracts',
  {
    id: text('id').primaryKey(),
    number: text('number').notNull(),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.id),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id),
    planId: text('plan_id')
      .notNull()
      .references(() => servicePlans.id),
    /** The plan version's terms as they were at creation. */
    terms: jsonb('terms').notNull(),
    currency: text('currency').notNull(),
    cashPrice: bigint('cash_price', { mode: 'number' }).notNull(),
    deposit: bigint('deposit', { mode: 'number' }).notNull(),
    principal: bigint('principal', { mode: 'number' }).notNull(),
    apr: numeric('apr', { precision: 9, scale: 4 }).notNull(),
    frequency: text('frequency').notNull(),
    term: integer('term').notNull(),
    interestMethod: text('interest_method').notNull(),
    installmentMultiple: bigint('installment_multiple', { mode: 'number' }).notNull().default(0),
    serviceFee: bigint('service_fee', { mode: 'number' }).notNull().default(0),
    /** The regular instalment (principal + interest), before the service fee. */
    installment: bigint('installment', { mode: 'number' }).notNull(),
    totalInterest: bigint('total_interest', { mode: 'number' }).notNull(),
    totalPayable: bigint('total_payable', { mode: 'number' }).notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    firstDueDate: date('first_due_date', { mode: 'string' }).notNull(),
    lastDueDate: date('last_due_date', { mode: 'string' }).notNull(),
    status: text('status', { enum: CONTRACT_STATUSES }).notNull().default('draft'),
    scheduleVersion: integer('schedule_version').notNull().default(1),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    submittedBy: text('submitted_by').references(() => users.id, { onDelete: 'set null' }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    approvedBy: text('approved_by').references(() => users.id, { onDelete: 'set null' }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    activatedBy: text('activated_by').references(() => users.id, { onDelete: 'set null' }),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    cancelledBy: text('cancelled_by').references(() => users.id, { onDelete: 'set null' }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    // Derived figures, kept current by payments (the nightly ones are in contract_figures).
    paidThroughDate: date('paid_through_date', { mode: 'string' }),
    outstandingPrincipal: bigint('outstanding_principal', { mode: 'number' }).notNull().default(0),
    totalPaid: bigint('total_paid', { mode: 'number' }).notNull().default(0),
    /**
     * The schedule's principal paid (its instalments' `principal_paid` summed), written with the
     * other figures by every allocation; a close by recovery leaves it, while it zeroes the outstanding.
     * With `total_paid - credit_balance` (what went to instalments) it gives the investor figures of
     * the business date without summing every payment line (decision 052).
     */
    principalPaid: bigint('principal_paid', { mode: 'number' }).notNull().default(0),
    creditBalance: bigint('credit_balance', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('contracts_number_key').on(t.number),
    // A device is financed by at most one open contract.
    uniqueIndex('contracts_open_device_key')
      .on(t.deviceId)
      .where(sql`${t.status} in ('draft', 'pending_approval', 'active', 'defaulted')`),
    index('contracts_customer_idx').on(t.customerId, t.createdAt),
    index('contracts_status_idx').on(t.status, t.createdAt, t.id),
    index('contracts_created_idx').on(t.createdAt, t.id),
    // Each list sort (column, then id the same way) is one index scan; the figures' sorts are on
    // contract_figures.
    index('contracts_activated_idx').on(t.activatedAt, t.id),
    // The device search of the contracts list joins from the device.
    index('contracts_device_idx').on(t.deviceId),
    // The grace and lock-after days the contracts were made on (a few values each), read one probe
    // a value (`termValues`): the late-fee step's window of due dates per grace value, and the lock
    // warnings' days past due (decision 053).
    index('contracts_grace_days_idx').on(sql`(coalesce((${t.terms}->>'graceDays')::int, 0))`),
    index('contracts_lock_after_days_idx').on(sql`((${t.terms}->>'lockAfterDays')::int)`),
    // No trigram index here: the number's is on `contract_search` (decision 034), so the figures'
    // updates (every payment, every close) do not add a dozen trigram entries per contract.
    check('contracts_status_check', inList(t.status, CONTRACT_STATUSES)),
    check(
      'contracts_amounts_check',
      sql`${t.cashPrice} > 0 AND ${t.deposit} >= 0 AND ${t.principal} > 0 AND ${t.principal} = ${t.cashPrice} - ${t.deposit} AND ${t.term} BETWEEN 1 AND 3660`,
    ),
  ],
);

/**
 * The contract number's substring search (trigram index), kept off `contracts` (decision 034): a
 * GIN index gets an entry per trigram on every non-HOT update of its row, and the contracts row
 * is updated by every payment and every close of business, while the number never changes. A
 * statement trigger on contracts (migration 0027) writes a row here for every contract inserted,
 * however it is inserted.
 */
export const contractSearch = pgTable(
  'contract_search',
  {
    contractId: text('contract_id')
      .primaryKey()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    /** lower(number). */
    numberLower: text('number_lower').notNull(),
  },
  (t) => [
    index('contract_search_number_trgm_idx')
      .using('gin', t.numberLower.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
  ],
);

/**
 * The figures the close of business moves (decision 041): the day arrears began (days past due
 * and the bucket derive from it, decision 054), next due date, outstanding and overdue totals, one
 * narrow row per contract. Kept off `contracts`, whose
 * wide row and eleven indexes made every nightly move a full row version with eleven index
 * entries; here a move writes a 60-byte row and the two indexes the lists sort on. Payments write
 * both rows. A statement trigger on contracts (migration 0038) writes the row, at its defaults, for
 * every contract inserted, however it is inserted; `updated_at` is the figures' own (the
 * collections rescoring reads the later of it and the contract's).
 */
export const contractFigures = pgTable(
  'contract_figures',
  {
    contractId: text('contract_id')
      .primaryKey()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    /**
     * The due date of the oldest unsettled instalment due before the figures' date: the day its
     * arrears began, null when none is. Days past due and the bucket are derived from it for
     * whatever date is asked (`dpdOn`, `bucketOn`), so a contract in arrears is not rewritten each
     * day it ages (decision 054).
     */
    arrearsSince: date('arrears_since', { mode: 'string' }),
    nextDueDate: date('next_due_date', { mode: 'string' }),
    outstandingTotal: bigint('outstanding_total', { mode: 'number' }).notNull().default(0),
    /** Of the outstanding total, what fell due before the figures' date and is unpaid (the arrears). */
    overdueTotal: bigint('overdue_total', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The business date of the last allocation that left an instalment with more unpaid than before
     * (a reversal, a transfer out, a back-dated correction): the next close looks at the contract
     * for late fees whatever its due dates (decision 053). Time alone is found by the due dates.
     */
    feesRecheckOn: date('fees_recheck_on', { mode: 'string' }),
  },
  (t) => [
    // The lists' sorts by days past due (its arrears date, the contract reversed: `Sort.reversed`)
    // and by outstanding, each then by contract; the close's searches of the contracts in arrears.
    index('contract_figures_arrears_idx').on(t.arrearsSince, t.contractId.desc()),
    index('contract_figures_outstanding_idx').on(t.outstandingTotal, t.contractId),
    index('contract_figures_fees_recheck_idx').on(t.feesRecheckOn).where(sql`${t.feesRecheckOn} IS NOT NULL`),
  ],
);

/** The schedule: one row per instalment and schedule version (restructures add a version). */
export const contractInstallments = pgTable(
  'contract_installments',
  {
    // Must name a contract: checked once per statement by a trigger (migration 0007, decision 006)
    // rather than a foreign key, which checks each of a schedule's hundreds of rows on its own.
    contractId: text('contract_id').notNull(),
    scheduleVersion: integer('schedule_version').notNull(),
    n: integer('n').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    principalDue: bigint('principal_due', { mode: 'number' }).notNull(),
    interestDue: bigint('interest_due', { mode: 'number' }).notNull(),
    feeDue: bigint('fee_due', { mode: 'number' }).notNull(),
    penaltyDue: bigint('penalty_due', { mode: 'number' }).notNull().default(0),
    principalPaid: bigint('principal_paid', { mode: 'number' }).notNull().default(0),
    interestPaid: bigint('interest_paid', { mode: 'number' }).notNull().default(0),
    feePaid: bigint('fee_paid', { mode: 'number' }).notNull().default(0),
    penaltyPaid: bigint('penalty_paid', { mode: 'number' }).notNull().default(0),
    /** When the last component was paid in full. */
    settledAt: date('settled_at', { mode: 'string' }),
    /**
     * The business date whose close of business charged this instalment its late fee (PRODUCT.md:
     * once per overdue instalment after the grace days), set by the update that adds the fee to
     * the penalty due, which nothing else raises: set, the fee is charged and is the penalty due
     * (decision 060; a table of charges of its own before).
     */
    lateFeeOn: date('late_fee_on', { mode: 'string' }),
  },
  // The primary key and the due date: a payment's and a late fee's updates change neither, and the
  // table keeps a tenth of each page free (fillfactor 90, migration 0029), so they are HOT updates
  // that add no index entry (decision 034). The due date serves the close of business's reads of the
  // instalments due on a date (the snapshot, reminders).
  (t) => [
    primaryKey({ columns: [t.contractId, t.scheduleVersion, t.n] }),
    index('contract_installments_due_idx').on(t.dueDate),
    check(
      'contract_installments_amounts_check',
      sql`${t.principalPaid} BETWEEN 0 AND ${t.principalDue} AND ${t.interestPaid} BETWEEN 0 AND ${t.interestDue} AND ${t.feePaid} BETWEEN 0 AND ${t.feeDue} AND ${t.penaltyPaid} BETWEEN 0 AND ${t.penaltyDue}`,
    ),
    check('contract_installments_late_fee_check', sql`(${t.lateFeeOn} IS NULL) = (${t.penaltyDue} = 0)`),
  ],
);

/**
 * An instalment as the schedule's readers and writers (the engine, payments, the contract page) see
 * it: the late fee's record is the close of business's own, read only by it and the snapshot.
 */
export type InstallmentRow = Omit<typeof contractInstallments.$inferSelect, 'lateFeeOn'>;

/** The contract's timeline: every state change and notable event, with who did it. */
export const contractEvents = pgTable(
  'contract_events',
  {
    id: text('id').primaryKey(),
    // Must name a contract: checked once per statement by a trigger (migration 0039, decision 041)
    // rather than a foreign key, which locks the contract row of each line on its own.
    contractId: text('contract_id').notNull(),
    type: text('type').notNull(),
    message: text('message').notNull(),
    data: jsonb('data'),
    // Checked by the same trigger as the contract (migration 0040, decision 045).
    actorId: text('actor_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contract_events_contract_idx').on(t.contractId, t.at)],
);

/**
 * Daily interest accrual (accrual accounting, organisations that turn it on: decision 026): one
 * row per contract and business date, the day's change of the interest earned to date.
 */
export const interestAccruals = pgTable(
  'interest_accruals',
  {
    contractId: text('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    /** May be negative when a schedule change lowered the interest earned to date. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** Interest earned to the end of this date (the sum of the contract's amounts so far). */
    earned: bigint('earned', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.contractId, t.businessDate] })],
);
