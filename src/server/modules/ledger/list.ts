import { asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type JournalEntry, ledgerEndpoints } from '../../../contracts/ledger';
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
  rows: async ({ ctx, where, orderBy, limit, offset }) => {
    const entries = await ctx.db
      .select()
      .from(journalEntries)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    const lines = entries.length
      ? await ctx.db
          .select({ line: journalLines, accountName: ledgerAccounts.name })
          .from(journalLines)
          .innerJoin(ledgerAccounts, eq(ledgerAccounts.code, journalLines.accountCode))
          .where(
            inArray(
              journalLines.entryId,
              entries.map((entry) => entry.id),
            ),
          )
          .orderBy(asc(journalLines.id))
      : [];
    return entries.map((entry) => ({
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
        .filter(({ line }) => line.entryId === entry.id)
        .map(({ line, accountName }) => ({
          accountCode: line.accountCode,
          accountName,
          debit: line.debit,
          credit: line.credit,
          contractId: line.contractId,
          memo: line.memo,
        })),
    }));
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
