import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { journalEntries, journalLines } from '../../../db/schema';
import type { Actor } from '../../audit';
import type { Executor } from '../../context';
import { unprocessable } from '../../errors';
import type { Posting } from './service';

/**
 * Many journal entries at once (a statement import's payments): each checked as `post()` checks
 * one (non-negative safe integers, one side per line, balanced, two lines or more), then numbered
 * from one sequence call and written in two statements. All or none, in the caller's transaction.
 */
export async function postMany(
  executor: Executor,
  actor: Actor,
  postings: readonly Posting[],
): Promise<void> {
  if (!postings.length) return;
  const entries = postings.map((posting) => {
    const lines = posting.lines.filter((line) => (line.debit ?? 0) !== 0 || (line.credit ?? 0) !== 0);
    let balance = 0;
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
      balance += debit - credit;
    }
    if (lines.length < 2 || balance !== 0) {
      throw unprocessable(`Unbalanced journal entry "${posting.description}"`, 'UNBALANCED');
    }
    return { id: randomUUID(), posting, lines };
  });
  const numbers = await queryRows<{ seq: number }>(
    executor,
    sql`SELECT nextval('journal_number_seq')::int AS seq FROM generate_series(1, ${entries.length})`,
  );
  const param = <T>(values: T[]) => sql.param(values);
  await executor.execute(sql`
    INSERT INTO ${journalEntries} (id, number, business_date, description, source_type, source_id, currency, created_by)
    SELECT v.id, v.number, v.business_date::date, v.description, v.source_type, v.source_id, v.currency, ${actor.id}::text
    FROM unnest(${param(entries.map((e) => e.id))}::text[],
                ${param(entries.map((_, i) => `JE-${String(numbers[i]?.seq ?? 0).padStart(7, '0')}`))}::text[],
                ${param(entries.map((e) => e.posting.businessDate))}::text[], ${param(entries.map((e) => e.posting.description))}::text[],
                ${param(entries.map((e) => e.posting.sourceType))}::text[], ${param(entries.map((e) => e.posting.sourceId ?? null))}::text[],
                ${param(entries.map((e) => e.posting.currency))}::text[])
      AS v(id, number, business_date, description, source_type, source_id, currency)`);
  const lines = entries.flatMap((e) => e.lines.map((line) => ({ entryId: e.id, ...line })));
  await executor.execute(sql`
    INSERT INTO ${journalLines} (entry_id, account_code, debit, credit, contract_id, customer_id, memo)
    SELECT * FROM unnest(${param(lines.map((l) => l.entryId))}::text[], ${param(lines.map((l) => l.account))}::text[],
                         ${param(lines.map((l) => l.debit ?? 0))}::bigint[], ${param(lines.map((l) => l.credit ?? 0))}::bigint[],
                         ${param(lines.map((l) => l.contractId ?? null))}::text[], ${param(lines.map((l) => l.customerId ?? null))}::text[],
                         ${param(lines.map((l) => l.memo ?? null))}::text[])`);
}
