import { eq, type SQL, sql } from 'drizzle-orm';
import { JOURNAL_LINES_SHOWN, type JournalEntry, ledgerEndpoints } from '../../../contracts/ledger';
import { queryRows } from '../../../db/client';
import { journalEntries, journalLines, ledgerAccounts } from '../../../db/schema';
import { csvOfLines, defineList } from '../../list-definition';
import { likePattern } from '../../lists';

/** Entries with a line on this account and (when both are given) of this contract: one line, both. */
function withLine(query: { accountCode?: string | undefined; contractId?: string | undefined }): SQL {
  const conditions: SQL[] = [sql`l.entry_id = ${journalEntries.id}`];
  if (query.accountCode) conditions.push(sql`l.account_code = ${query.accountCode}`);
  if (query.contractId) conditions.push(sql`l.contract_id = ${query.contractId}`);
  return sql`EXISTS (SELECT 1 FROM journal_lines l WHERE ${sql.join(conditions, sql` AND `)})`;
}

interface JournalLineRow {
  entry_id: string;
  account_code: string;
  account_name: string;
  debit: string;
  credit: string;
  contract_id: string | null;
  memo: string | null;
}

/** /api/ledger/journal: entries with their lines; not cached (finance reads it rarely). */
export const journalList = defineList({
  name: 'journal',
  endpoint: ledgerEndpoints.list,
  shows: [journalEntries, journalLines, ledgerAccounts],
  search: (q) =>
    sql`lower(${journalEntries.description} || ' ' || ${journalEntries.number}) LIKE ${likePattern(q)}`,
  filters: {
    from: (from) => sql`${journalEntries.businessDate} >= ${from}`,
    to: (to) => sql`${journalEntries.businessDate} <= ${to}`,
    accountCode: (_code, _env, query) => withLine(query),
    sourceType: (type) => eq(journalEntries.sourceType, type),
    // With an account too, the account's condition has it.
    contractId: (_id, _env, query) => (query.accountCode ? undefined : withLine(query)),
  },
  sorts: {
    businessDate: { columns: [journalEntries.businessDate] },
    number: { columns: [journalEntries.number], unique: true },
  },
  // Entry numbers are unique and grow with time.
  tieBreak: journalEntries.number,
  rows: async ({ ctx, where, orderBy, limit, offset, query, exporting }) => {
    const entries = await ctx.db
      .select()
      .from(journalEntries)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    if (!entries.length) return [];
    const ids = entries.map((entry) => entry.id);
    // A page shows the first lines of each entry (of the contract filtered on, and those of no
    // contract); an export every line. Each entry's totals count all of them.
    const shown = exporting
      ? sql``
      : sql`${query.contractId ? sql`AND (l.contract_id = ${query.contractId} OR l.contract_id IS NULL)` : sql``}
          ORDER BY l.id LIMIT ${JOURNAL_LINES_SHOWN}`;
    const [lines, totals] = await Promise.all([
      queryRows<JournalLineRow>(
        ctx.db,
        sql`SELECT l.entry_id, l.account_code, a.name AS account_name, l.debit, l.credit, l.contract_id, l.memo
          FROM unnest(${sql.param(ids)}::text[]) AS e(id)
          CROSS JOIN LATERAL (SELECT l.* FROM ${journalLines} l WHERE l.entry_id = e.id ${shown}) l
          JOIN ${ledgerAccounts} a ON a.code = l.account_code
          ORDER BY l.id`,
      ),
      queryRows<{ entry_id: string; lines: number; debit: string; credit: string }>(
        ctx.db,
        sql`SELECT entry_id, count(*)::int AS lines, sum(debit)::text AS debit, sum(credit)::text AS credit
          FROM ${journalLines} WHERE entry_id = ANY(${sql.param(ids)}::text[]) GROUP BY entry_id`,
      ),
    ]);
    const totalOf = new Map(totals.map((t) => [t.entry_id, t]));
    return entries.map((entry) => {
      const total = totalOf.get(entry.id);
      return {
        id: entry.id,
        number: entry.number,
        businessDate: entry.businessDate,
        description: entry.description,
        sourceType: entry.sourceType,
        sourceId: entry.sourceId,
        currency: entry.currency,
        createdAt: entry.createdAt.toISOString(),
        createdBy: entry.createdBy,
        lines: lines
          .filter((line) => line.entry_id === entry.id)
          .map((line) => ({
            accountCode: line.account_code,
            accountName: line.account_name,
            debit: Number(line.debit),
            credit: Number(line.credit),
            contractId: line.contract_id,
            memo: line.memo,
          })),
        lineCount: total?.lines ?? 0,
        debitTotal: Number(total?.debit ?? 0),
        creditTotal: Number(total?.credit ?? 0),
      };
    });
  },
  // One CSV line per journal line; entries are read with their lines by id, so at most 10,000.
  csv: csvOfLines(
    { filename: 'journal.csv', noun: 'journal entries', limit: 10_000 },
    (entry: JournalEntry) => entry.lines.map((line) => ({ entry, line })),
    [
      { header: 'Entry', value: (r) => r.entry.number },
      { header: 'Date', value: (r) => r.entry.businessDate },
      { header: 'Description', value: (r) => r.entry.description },
      { header: 'Account', value: (r) => r.line.accountCode },
      { header: 'Account name', value: (r) => r.line.accountName },
      { header: 'Debit (minor units)', value: (r) => r.line.debit },
      { header: 'Credit (minor units)', value: (r) => r.line.credit },
      { header: 'Currency', value: (r) => r.entry.currency },
    ],
  ),
});
