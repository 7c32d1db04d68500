import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { journalEntries, journalLines } from '../../../db/schema';
import { runWrites, type Writes } from '../../../db/writes';
import type { Actor } from '../../audit';
import type { Executor } from '../../context';
import { unprocessable } from '../../errors';
import type { Posting } from './service';

/**
 * Many journal entries at once (a statement import's payments, a batch of API payments): each
 * checked as `post()` checks one (non-negative safe integers, one side per line, balanced, two
 * lines or more), then written in one statement, numbered from the journal sequence. All or
 * none, in the caller's transaction.
 */
export async function postMany(
  executor: Executor,
  actor: Actor,
  /** `by`: who posted this entry, when not `actor` (a batch of payments, each its own request's). */
  postings: ReadonlyArray<Posting & { by?: Actor }>,
): Promise<void> {
  if (postings.length) await runWrites(executor, [postingsWrites(actor, postings)], { prepared: true });
}

/**
 * `postMany` as a part of a larger statement: the entries as the CTE `posted_entries`, their
 * lines as `posted_lines` (checked by the balance trigger once the statement has written both).
 * Refuses (422) an entry `post()` would refuse, before anything is written.
 */
export function postingsWrites(actor: Actor, postings: ReadonlyArray<Posting & { by?: Actor }>): Writes {
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
  if (!entries.length) return { with: [] };
  const param = <T>(values: T[]) => sql.param(values);
  const lines = entries.flatMap((e) => e.lines.map((line) => ({ entryId: e.id, ...line })));
  return {
    with: [
      // Numbered from the journal sequence in the entries' order (a volatile column of an ordered
      // subquery is computed row by row after its sort).
      sql`posted_entries AS (
    INSERT INTO ${journalEntries} (id, number, business_date, description, source_type, source_id, currency, created_by)
    SELECT v.id, 'JE-' || lpad(v.s::text, greatest(7, length(v.s::text)), '0'), v.business_date::date, v.description,
           v.source_type, v.source_id, v.currency, v.created_by
    FROM (SELECT u.*, nextval('journal_number_seq') AS s
      FROM unnest(${param(entries.map((e) => e.id))}::text[],
                  ${param(entries.map((e) => e.posting.businessDate))}::text[], ${param(entries.map((e) => e.posting.description))}::text[],
                  ${param(entries.map((e) => e.posting.sourceType))}::text[], ${param(entries.map((e) => e.posting.sourceId ?? null))}::text[],
                  ${param(entries.map((e) => e.posting.currency))}::text[],
                  ${param(entries.map((e) => (e.posting.by ?? actor).id))}::text[]) WITH ORDINALITY
        AS u(id, business_date, description, source_type, source_id, currency, created_by, i)
      ORDER BY u.i) v)`,
      sql`posted_lines AS (
    INSERT INTO ${journalLines} (entry_id, account_code, debit, credit, contract_id, customer_id, memo)
    SELECT * FROM unnest(${param(lines.map((l) => l.entryId))}::text[], ${param(lines.map((l) => l.account))}::text[],
                         ${param(lines.map((l) => l.debit ?? 0))}::bigint[], ${param(lines.map((l) => l.credit ?? 0))}::bigint[],
                         ${param(lines.map((l) => l.contractId ?? null))}::text[], ${param(lines.map((l) => l.customerId ?? null))}::text[],
                         ${param(lines.map((l) => l.memo ?? null))}::text[]))`,
    ],
  };
}

/** What `postPairsFrom` writes: one two-line entry per source row, debit one account, credit another. */
export interface PairPostings {
  /** Rows (source_id, contract_id, customer_id, amount): amount > 0, in minor units. */
  source: SQL;
  debit: string;
  credit: string;
  businessDate: string;
  description: string;
  sourceType: string;
  currency: string;
}

/**
 * Many two-line entries written from a query, without reading them out (the close of business's
 * late fees: one entry per contract charged). Balanced by construction, one line each side of
 * the same positive amount; a zero amount writes nothing, a negative one is refused by the
 * database (the lines' checks). Numbered from the journal's sequence, one number a row (as
 * `numbered()` writes them), one statement, in the caller's transaction. Answers how many entries it wrote.
 */
export async function postPairsFrom(
  executor: Executor,
  actor: Actor,
  postings: PairPostings,
): Promise<number> {
  const [row] = await queryRows<{ entries: number }>(
    executor,
    sql`
    WITH source AS MATERIALIZED (
      SELECT gen_random_uuid()::text AS id, nextval('journal_number_seq') AS seq,
             v.source_id, v.contract_id, v.customer_id, v.amount::bigint AS amount
      FROM (${postings.source}) AS v(source_id, contract_id, customer_id, amount)
      WHERE v.amount <> 0
    ), entries AS (
      INSERT INTO ${journalEntries} (id, number, business_date, description, source_type, source_id, currency, created_by)
      SELECT s.id, 'JE-' || lpad(s.seq::text, greatest(7, length(s.seq::text)), '0'), ${postings.businessDate}::date, ${postings.description},
             ${postings.sourceType}, s.source_id, ${postings.currency}, ${actor.id}::text
      FROM source s
      RETURNING id
    ), lines AS (
      INSERT INTO ${journalLines} (entry_id, account_code, debit, credit, contract_id, customer_id, memo)
      SELECT s.id, side.account, CASE WHEN side.debit THEN s.amount ELSE 0 END, CASE WHEN side.debit THEN 0 ELSE s.amount END,
             s.contract_id, s.customer_id, NULL
      FROM entries e JOIN source s ON s.id = e.id
      CROSS JOIN (VALUES (${postings.debit}::text, true), (${postings.credit}::text, false)) AS side(account, debit)
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM entries)::int AS entries`,
  );
  return row?.entries ?? 0;
}
