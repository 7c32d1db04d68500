import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ALLOCATION_COMPONENTS, PAYMENT_METHODS, PAYMENT_STATUSES } from '../../contracts/payments';
import { users } from './auth';
import { contracts } from './contracts';
import { customers } from './customers';
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
    contractId: text('contract_id').references(() => contracts.id),
    customerId: text('customer_id').references(() => customers.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    provider: text('provider'),
    reference: text('reference'),
    idempotencyKey: text('idempotency_key'),
    /** The account reference the payer typed (mobile money BillRefNumber), kept for matching. */
    accountReference: text('account_reference'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull(),
    postedBy: text('posted_by').references(() => users.id, { onDelete: 'set null' }),
    postedAt: timestamp('posted_at', { withTimezone: true }),
    reversedBy: text('reversed_by').references(() => users.id, { onDelete: 'set null' }),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    reversalReason: text('reversal_reason'),
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
    check('payments_method_check', inList(t.method, PAYMENT_METHODS)),
    check('payments_status_check', inList(t.status, PAYMENT_STATUSES)),
    check('payments_amount_check', sql`${t.amount} > 0 AND ${t.credit} >= 0 AND ${t.credit} <= ${t.amount}`),
  ],
);

/** How each payment was spread over instalments and components; lines sum to the payment. */
export const paymentAllocations = pgTable(
  'payment_allocations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    contractId: text('contract_id')
      .notNull()
      .references(() => contracts.id),
    scheduleVersion: integer('schedule_version').notNull(),
    /** Null for the credit line. */
    installmentNumber: integer('installment_number'),
    component: text('component', { enum: ALLOCATION_COMPONENTS }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('payment_allocations_payment_idx').on(t.paymentId),
    index('payment_allocations_contract_idx').on(t.contractId, t.installmentNumber),
    check('payment_allocations_component_check', inList(t.component, ALLOCATION_COMPONENTS)),
    check('payment_allocations_amount_check', sql`${t.amount} > 0`),
  ],
);
