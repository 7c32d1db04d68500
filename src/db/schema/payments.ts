import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  ALLOCATION_COMPONENTS,
  CORRECTION_KINDS,
  CORRECTION_STATUSES,
  DEBIT_ATTEMPT_STATUSES,
  IMPORT_STATUSES,
  MANDATE_METHODS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PUSH_STATUSES,
} from '../../contracts/payments';
import { users } from './auth';
import { contracts } from './contracts';
import { inList } from './helpers';

export const receiptNumbers = pgSequence('receipt_number_seq');

/**
 * PRODUCT.md section 2, Payment. `(method, reference)` is unique: a second delivery of the same
 * payment finds the first and posts nothing. `idempotency_key` records the key it came with; keys
 * are claimed per operation in `idempotency_keys` (decision 015).
 */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    receiptNumber: text('receipt_number').notNull(),
    /** Null while in the suspense queue (no contract matched). */
    // Must name an existing row when set: checked once per statement by a trigger (migration
    // 0040, decision 045) rather than a foreign key, which looks up and key-share locks it row by row.
    contractId: text('contract_id'),
    customerId: text('customer_id'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    provider: text('provider'),
    reference: text('reference'),
    idempotencyKey: text('idempotency_key'),
    /** The account reference the payer typed (mobile money BillRefNumber), kept for matching. */
    accountReference: text('account_reference'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** The business date the payment counts from (received at, in the organisation's time zone). */
    valueDate: date('value_date', { mode: 'string' }),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull(),
    // Checked by the same trigger as the contract and the customer.
    postedBy: text('posted_by'),
    postedAt: timestamp('posted_at', { withTimezone: true }),
    reversedBy: text('reversed_by').references(() => users.id, { onDelete: 'set null' }),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    reversalReason: text('reversal_reason'),
    /** A suspense payment given back to the payer rather than matched (status reversed). */
    refunded: boolean('refunded').notNull().default(false),
    /** The payment this one was transferred from (the first one is reversed, nothing deleted). */
    transferredFrom: text('transferred_from'),
    /** The statement import that brought it, if any. */
    importId: text('import_id'),
    /** Part of the amount beyond the whole balance, kept as customer credit. */
    credit: bigint('credit', { mode: 'number' }).notNull().default(0),
    payload: jsonb('payload'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_receipt_key').on(t.receiptNumber),
    uniqueIndex('payments_reference_key').on(t.method, t.reference).where(sql`${t.reference} IS NOT NULL`),
    index('payments_contract_idx').on(t.contractId, t.receivedAt),
    index('payments_received_idx').on(t.receivedAt, t.id),
    index('payments_status_idx').on(t.status, t.receivedAt),
    index('payments_contract_value_idx').on(t.contractId, t.valueDate, t.receivedAt),
    check('payments_method_check', inList(t.method, PAYMENT_METHODS)),
    check('payments_status_check', inList(t.status, PAYMENT_STATUSES)),
    check('payments_amount_check', sql`${t.amount} > 0 AND ${t.credit} >= 0 AND ${t.credit} <= ${t.amount}`),
  ],
);

/**
 * How many payments there are of each status and method, kept by triggers on `payments` in the
 * same transaction as the rows (migration 0041, decision 045): the payments list's total without
 * a search or a narrowing filter is a sum of a few rows, not a count of every payment. One row
 * per database session (`shard`, its backend pid) and pair, so concurrent postings, each on its
 * own connection, never write the same row; the close of business folds the shards.
 */
export const paymentCounts = pgTable(
  'payment_counts',
  {
    shard: integer('shard').notNull(),
    status: text('status').notNull(),
    method: text('method').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.shard, t.status, t.method] })],
);

/**
 * How many statements have written payments, per writer's session as `payment_counts` (migration
 * 0042, decision 048): the sum is the payments table's version in the reader's snapshot, which
 * keys the payments list's cached pages.
 */
export const paymentChanges = pgTable('payment_changes', {
  shard: integer('shard').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});

/** How each payment was spread over instalments and components; lines sum to the payment. */
export const paymentAllocations = pgTable(
  'payment_allocations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // Must name an existing row when set: checked once per statement by a trigger (migration
    // 0040, decision 045) rather than a foreign key, which looks up and key-share locks it row by row.
    paymentId: text('payment_id').notNull(),
    contractId: text('contract_id').notNull(),
    scheduleVersion: integer('schedule_version').notNull(),
    /** Null for the credit line. */
    installmentNumber: integer('installment_number'),
    component: text('component', { enum: ALLOCATION_COMPONENTS }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /**
     * Set when a reversal or a back-dated payment re-ran the contract's allocation: the line is
     * history (its journal entry reversed), and the payment's current lines are the unsuperseded ones.
     */
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
  },
  (t) => [
    index('payment_allocations_payment_idx').on(t.paymentId),
    index('payment_allocations_contract_idx').on(t.contractId, t.installmentNumber),
    check('payment_allocations_component_check', inList(t.component, ALLOCATION_COMPONENTS)),
    check('payment_allocations_amount_check', sql`${t.amount} > 0`),
  ],
);

/**
 * Reversal and transfer requests (maker-checker, PRODUCT.md section 1): a second user with the
 * payments permission approves; the maker never does. One open request per payment.
 */
export const paymentCorrections = pgTable(
  'payment_corrections',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id),
    kind: text('kind', { enum: CORRECTION_KINDS }).notNull(),
    /** A transfer's destination. */
    targetContractId: text('target_contract_id').references(() => contracts.id),
    reason: text('reason').notNull(),
    status: text('status', { enum: CORRECTION_STATUSES }).notNull().default('pending'),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
  },
  (t) => [
    uniqueIndex('payment_corrections_open_key').on(t.paymentId).where(sql`${t.status} = 'pending'`),
    index('payment_corrections_status_idx').on(t.status, t.requestedAt),
    check('payment_corrections_kind_check', inList(t.kind, CORRECTION_KINDS)),
    check('payment_corrections_status_check', inList(t.status, CORRECTION_STATUSES)),
  ],
);

/** A statement file: previewed row by row, posted only when confirmed (PRODUCT.md section 3). */
export const paymentImports = pgTable(
  'payment_imports',
  {
    id: text('id').primaryKey(),
    source: text('source').notNull(),
    fileName: text('file_name').notNull(),
    /** SHA-256 of the file: the same file again is recognised (its rows post nothing twice). */
    fileHash: text('file_hash').notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    mapping: jsonb('mapping').notNull(),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('previewed'),
    rowCount: integer('row_count').notNull().default(0),
    validCount: integer('valid_count').notNull().default(0),
    postedCount: integer('posted_count').notNull().default(0),
    postedAmount: bigint('posted_amount', { mode: 'number' }).notNull().default(0),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedBy: text('confirmed_by').references(() => users.id, { onDelete: 'set null' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    index('payment_imports_created_idx').on(t.createdAt),
    check('payment_imports_status_check', inList(t.status, IMPORT_STATUSES)),
  ],
);

/** One row of a statement file as read, with its error or the payment it posted. */
export const paymentImportRows = pgTable(
  'payment_import_rows',
  {
    importId: text('import_id')
      .notNull()
      .references(() => paymentImports.id, { onDelete: 'cascade' }),
    rowNumber: integer('row_number').notNull(),
    raw: jsonb('raw').notNull(),
    contractId: text('contract_id'),
    contractNumber: text('contract_number'),
    amount: bigint('amount', { mode: 'number' }),
    reference: text('reference'),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    error: text('error'),
    paymentId: text('payment_id'),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);

/** The column mapping last used for each statement source, offered again next time. */
export const importMappings = pgTable('import_mappings', {
  source: text('source').primaryKey(),
  mapping: jsonb('mapping').notNull(),
  updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Mobile money push requests (STK push) and what the provider's callback said. */
export const mobileMoneyPushes = pgTable(
  'mobile_money_pushes',
  {
    id: text('id').primaryKey(),
    contractId: text('contract_id')
      .notNull()
      .references(() => contracts.id),
    phone: text('phone').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    provider: text('provider').notNull(),
    checkoutRequestId: text('checkout_request_id'),
    status: text('status', { enum: PUSH_STATUSES }).notNull().default('pending'),
    resultCode: integer('result_code'),
    resultDesc: text('result_desc'),
    paymentId: text('payment_id'),
    requestedBy: text('requested_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('mobile_money_pushes_checkout_key').on(t.checkoutRequestId),
    index('mobile_money_pushes_contract_idx').on(t.contractId, t.createdAt),
    check('mobile_money_pushes_status_check', inList(t.status, PUSH_STATUSES)),
  ],
);

/** Auto-debit mandates (PRODUCT.md section 2): one per contract and method. */
export const debitMandates = pgTable(
  'debit_mandates',
  {
    id: text('id').primaryKey(),
    contractId: text('contract_id')
      .notNull()
      .references(() => contracts.id),
    method: text('method', { enum: MANDATE_METHODS }).notNull(),
    /** The payer's account at the provider (a phone for mobile money, a token for a card). */
    account: text('account').notNull(),
    consentReference: text('consent_reference').notNull(),
    active: boolean('active').notNull().default(true),
    pausedReason: text('paused_reason'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('debit_mandates_contract_key').on(t.contractId, t.method),
    check('debit_mandates_method_check', inList(t.method, MANDATE_METHODS)),
  ],
);

/** Each try to collect a due instalment through a mandate, with its result. */
export const debitAttempts = pgTable(
  'debit_attempts',
  {
    id: text('id').primaryKey(),
    mandateId: text('mandate_id')
      .notNull()
      .references(() => debitMandates.id),
    contractId: text('contract_id').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    attempt: integer('attempt').notNull(),
    status: text('status', { enum: DEBIT_ATTEMPT_STATUSES }).notNull().default('scheduled'),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }).notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }),
    failureReason: text('failure_reason'),
    providerReference: text('provider_reference'),
    paymentId: text('payment_id'),
  },
  (t) => [
    uniqueIndex('debit_attempts_key').on(t.mandateId, t.dueDate, t.attempt),
    index('debit_attempts_status_idx').on(t.status, t.scheduledFor),
    // A contract's attempts: its page's card (newest due first) and the job's check of which due
    // dates were tried, each a read of one contract's rows rather than of every attempt.
    index('debit_attempts_contract_idx').on(t.contractId, t.dueDate),
    check('debit_attempts_status_check', inList(t.status, DEBIT_ATTEMPT_STATUSES)),
  ],
);
