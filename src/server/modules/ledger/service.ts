import { asc, type SQL, sql } from 'drizzle-orm';
import type { JournalSource, TrialBalance } from '../../../contracts/ledger';
import { queryRows } from '../../../db/client';
import { journalEntries, journalLines, ledgerAccounts } from '../../../db/schema';
import { runWrites, type Writes } from '../../../db/writes';
import type { Actor } from '../../audit';
import { businessToday } from '../../business-date';
import type { AppContext, Executor } from '../../context';
import { unprocessable } from '../../errors';
import { newId } from '../../ids';
import { numbered } from '../../numbers';
import { organisation } from '../../organisation';

/** The accounts other modules post to, by meaning (codes seeded by migrations 0003, 0005, 0008 and 0025). */
export const ACCOUNTS = {
  cash: '1000',
  bank: '1010',
  mobileMoney: '1020',
  loansReceivable: '1100',
  interestReceivable: '1110',
  feesReceivable: '1120',
  penaltiesReceivable: '1130',
  inventory: '1200',
  customerCredit: '2000',
  suspense: '2100',
  supplierPayables: '2200',
  deviceSales: '4000',
  interestIncome: '4100',
  serviceFeeIncome: '4200',
  penaltyIncome: '4300',
  costOfDevices: '5000',
  inventoryLosses: '5300',
  /** Contract balances written off (recoveries; seeded by migration 0025). */
  creditLosses: '5400',
} as const;

export interface PostingLine {
  account: string;
  debit?: number;
  credit?: number;
  contractId?: string | null;
  customerId?: string | null;
  memo?: string;
}

export interface Posting {
  businessDate: string;
  description: string;
  sourceType: JournalSource;
  sourceId?: string | null;
  currency: string;
  lines: PostingLine[];
}

/**
 * A posting's lines as they are written: zero lines dropped, each of the rest a non-negative safe
 * integer on one side only, two lines at least, debits equal to credits. Refuses (422) anything
 * else before a row is written. Every way into the journal that is given lines (`post`,
 * `postingWrites`, `postingsWrites`) checks them here; `batchEntryWrites` balances by construction.
 */
export function checkedLines(posting: Posting): PostingLine[] {
  const lines = posting.lines.filter((line) => (line.debit ?? 0) !== 0 || (line.credit ?? 0) !== 0);
  let debits = 0;
  let credits = 0;
  for (const line of lines) {
    const debit = line.debit ?? 0;
    const credit = line.credit ?? 0;
    if (
      !Number.isSafeInteger(debit) ||
      !Number.isSafeInteger(credit) ||
      debit < 0 ||
      credit < 0 ||
      (debit > 0 && credit > 0)
    ) {
      throw unprocessable(
        `Invalid journal line on account ${line.account}: debit ${debit}, credit ${credit}`,
        'BAD_JOURNAL_LINE',
      );
    }
    debits += debit;
    credits += credit;
  }
  if (lines.length < 2 || debits !== credits) {
    throw unprocessable(
      `Unbalanced journal entry "${posting.description}": debits ${debits}, credits ${credits}`,
      'UNBALANCED',
    );
  }
  return lines;
}

/**
 * Posts one balanced journal entry inside the caller's transaction. Refuses (422) an entry whose
 * debits and credits differ, a line with both or neither side, or a negative or fractional amount;
 * zero lines are dropped. The database refuses an unbalanced entry at commit as well.
 */
export async function post(executor: Executor, actor: Actor, posting: Posting): Promise<string> {
  const { id, writes } = postingWrites(actor, posting);
  await runWrites(executor, [writes]);
  return id;
}

/**
 * `post` as a part of a larger statement (a payment's writes, decision 022): the entry and its
 * lines as two CTEs, written only when `when` holds. Checks the entry as `post` does.
 */
export function postingWrites(
  actor: Actor,
  posting: Posting,
  when: SQL = sql`true`,
): { id: string; writes: Writes } {
  const lines = checkedLines(posting);
  const id = newId();
  const column = <T>(pick: (line: PostingLine) => T) => sql.param(lines.map(pick));
  const entry = sql`journal_entry AS (
    INSERT INTO ${journalEntries} (id, number, business_date, description, source_type, source_id, currency, created_by)
    SELECT ${id}, ${numbered('journal_number_seq', 'JE-', 7)}, ${posting.businessDate}::date, ${posting.description},
      ${posting.sourceType}, ${posting.sourceId ?? null}::text, ${posting.currency}, ${actor.id}::text
    WHERE ${when}
    RETURNING id)`;
  const entryLines = sql`journal_entry_lines AS (
    INSERT INTO ${journalLines} (entry_id, account_code, debit, credit, contract_id, customer_id, memo)
    SELECT journal_entry.id, v.account, v.debit, v.credit, v.contract_id, v.customer_id, v.memo
    FROM journal_entry, unnest(${column((l) => l.account)}::text[], ${column((l) => l.debit ?? 0)}::bigint[],
      ${column((l) => l.credit ?? 0)}::bigint[], ${column((l) => l.contractId ?? null)}::text[],
      ${column((l) => l.customerId ?? null)}::text[], ${column((l) => l.memo ?? null)}::text[])
      AS v(account, debit, credit, contract_id, customer_id, memo))`;
  return { id, writes: { with: [entry, entryLines] } };
}

/** The cash-type account a payment channel lands in. */
export function cashAccountFor(channel: string): string {
  if (channel === 'mobile_money') return ACCOUNTS.mobileMoney;
  if (channel === 'bank_transfer' || channel === 'card' || channel === 'auto_debit') return ACCOUNTS.bank;
  return ACCOUNTS.cash;
}

export async function accounts(ctx: AppContext) {
  return ctx.db.select().from(ledgerAccounts).orderBy(asc(ledgerAccounts.code));
}

/** Debits and credits per account up to a business date; the totals are always equal. */
export async function trialBalance(ctx: AppContext, asOf?: string): Promise<TrialBalance> {
  const org = await organisation(ctx, ctx.db);
  const date = asOf ?? businessToday(ctx, org);
  const rows = await queryRows<{ code: string; name: string; type: string; debit: string; credit: string }>(
    ctx.db,
    sql`SELECT a.code, a.name, a.type,
               COALESCE(sum(l.debit) FILTER (WHERE e.business_date <= ${date}), 0) AS debit,
               COALESCE(sum(l.credit) FILTER (WHERE e.business_date <= ${date}), 0) AS credit
        FROM ledger_accounts a
        LEFT JOIN journal_lines l ON l.account_code = a.code
        LEFT JOIN journal_entries e ON e.id = l.entry_id
        GROUP BY a.code, a.name, a.type ORDER BY a.code`,
  );
  const result = rows.map((row) => {
    const debit = Number(row.debit);
    const credit = Number(row.credit);
    return {
      code: row.code,
      name: row.name,
      type: row.type as TrialBalance['rows'][number]['type'],
      debit,
      credit,
      balance: debit - credit,
    };
  });
  const totals = result.reduce(
    (sum, row) => ({ debit: sum.debit + row.debit, credit: sum.credit + row.credit }),
    { debit: 0, credit: 0 },
  );
  return {
    asOf: date,
    currency: org.currency,
    rows: result,
    totals,
    balanced: totals.debit === totals.credit,
  };
}
