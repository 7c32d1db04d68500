import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  BALANCE_TREATMENTS,
  type Components,
  DEVICE_CONDITIONS,
  REPOSSESSION_STATUSES,
  WRITE_OFF_STATUSES,
} from '../../contracts/recoveries';
import { users } from './auth';
import { contracts } from './contracts';
import { inList } from './helpers';
import { journalEntries } from './ledger';

/**
 * A device taken back from a customer in arrears: asked for with a reason, approved or rejected
 * by another user, then recovered (condition, recovery value, what happens to the balance) or
 * cancelled. At most one open request per contract.
 */
export const repossessions = pgTable(
  'repossessions',
  {
    id: text('id').primaryKey(),
    contractId: text('contract_id')
      .notNull()
      .references(() => contracts.id),
    deviceId: text('device_id').notNull(),
    status: text('status', { enum: REPOSSESSION_STATUSES }).notNull().default('requested'),
    reason: text('reason').notNull(),
    outstandingAtRequest: jsonb('outstanding_at_request').$type<Components>().notNull(),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
    recoveredBy: text('recovered_by').references(() => users.id, { onDelete: 'set null' }),
    recoveredAt: timestamp('recovered_at', { withTimezone: true }),
    condition: text('condition', { enum: DEVICE_CONDITIONS }),
    conditionNotes: text('condition_notes'),
    recoveryValue: bigint('recovery_value', { mode: 'number' }),
    balanceTreatment: text('balance_treatment', { enum: BALANCE_TREATMENTS }),
    writtenOff: jsonb('written_off').$type<Components>(),
    journalEntryId: text('journal_entry_id').references(() => journalEntries.id),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('repossessions_open_key')
      .on(t.contractId)
      .where(sql`${t.status} in ('requested', 'approved')`),
    index('repossessions_status_idx').on(t.status, t.requestedAt),
    index('repossessions_requested_idx').on(t.requestedAt, t.id),
    check('repossessions_status_check', inList(t.status, REPOSSESSION_STATUSES)),
    check(
      'repossessions_condition_check',
      sql`${t.condition} IS NULL OR ${inList(t.condition, DEVICE_CONDITIONS)}`,
    ),
    check(
      'repossessions_balance_check',
      sql`${t.balanceTreatment} IS NULL OR ${inList(t.balanceTreatment, BALANCE_TREATMENTS)}`,
    ),
    check('repossessions_value_check', sql`${t.recoveryValue} IS NULL OR ${t.recoveryValue} >= 0`),
  ],
);

/** A request to write off a contract's balance, decided by another user (maker-checker). */
export const writeOffRequests = pgTable(
  'write_off_requests',
  {
    id: text('id').primaryKey(),
    contractId: text('contract_id')
      .notNull()
      .references(() => contracts.id),
    status: text('status', { enum: WRITE_OFF_STATUSES }).notNull().default('pending'),
    reason: text('reason').notNull(),
    /** The balance when asked for; at approval, the balance then. */
    outstanding: jsonb('outstanding').$type<Components>().notNull(),
    writtenOff: jsonb('written_off').$type<Components>(),
    journalEntryId: text('journal_entry_id').references(() => journalEntries.id),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('write_off_requests_open_key').on(t.contractId).where(sql`${t.status} = 'pending'`),
    index('write_off_requests_status_idx').on(t.status, t.requestedAt),
    index('write_off_requests_requested_idx').on(t.requestedAt, t.id),
    check('write_off_requests_status_check', inList(t.status, WRITE_OFF_STATUSES)),
  ],
);
