import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ACCOUNT_TYPES } from '../../contracts/ledger';
import { inList } from './helpers';

export const journalNumbers = pgSequence('journal_number_seq');

/** The chart of accounts (seeded by migration 0003). */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    code: text('code').primaryKey(),
    name: text('name').notNull(),
    type: text('type', { enum: ACCOUNT_TYPES }).notNull(),
    description: text('description'),
    active: boolean('active').notNull().default(true),
  },
  (t) => [check('ledger_accounts_type_check', inList(t.type, ACCOUNT_TYPES))],
);

/** A balanced journal entry; a deferred trigger refuses any entry whose lines do not balance at commit. */
export const journalEntries = pgTable(
  'journal_entries',
  {
    id: text('id').primaryKey(),
    number: text('number').notNull(),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    description: text('description').notNull(),
    /** What caused it: contract_activation, payment, reversal, manual... */
    sourceType: text('source_type').notNull(),
    sourceId: text('source_id'),
    currency: text('currency').notNull(),
    reversalOf: text('reversal_of'),
    // Must name an existing row when set: checked once per statement by a trigger (migration
    // 0040, decision 045) rather than a foreign key, which looks up and key-share locks it row by row.
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('journal_entries_number_key').on(t.number),
    index('journal_entries_date_idx').on(t.businessDate, t.id),
    index('journal_entries_source_idx').on(t.sourceType, t.sourceId),
  ],
);

export const journalLines = pgTable(
  'journal_lines',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // Must name an existing row when set: checked once per statement by a trigger (migration
    // 0040, decision 045) rather than a foreign key, which looks up and key-share locks it row by row.
    entryId: text('entry_id').notNull(),
    accountCode: text('account_code').notNull(),
    debit: bigint('debit', { mode: 'number' }).notNull().default(0),
    credit: bigint('credit', { mode: 'number' }).notNull().default(0),
    contractId: text('contract_id'),
    customerId: text('customer_id'),
    memo: text('memo'),
  },
  (t) => [
    index('journal_lines_entry_idx').on(t.entryId),
    index('journal_lines_account_idx').on(t.accountCode),
    index('journal_lines_contract_idx').on(t.contractId).where(sql`${t.contractId} IS NOT NULL`),
    check(
      'journal_lines_side_check',
      sql`${t.debit} >= 0 AND ${t.credit} >= 0 AND ((${t.debit} > 0 AND ${t.credit} = 0) OR (${t.credit} > 0 AND ${t.debit} = 0))`,
    ),
  ],
);
