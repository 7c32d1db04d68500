import { type SQL, sql } from 'drizzle-orm';
import type { JournalSource } from '../../../contracts/ledger';
import { journalEntries, journalLines } from '../../../db/schema';
import { runWrites, type Writes } from '../../../db/writes';
import type { Actor } from '../../audit';
import type { Executor } from '../../context';
import { newId } from '../../ids';
import { checkedLines, type Posting } from './service';

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
  const entries = postings.map((posting) => ({ id: newId(), posting, lines: checkedLines(posting) }));
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

/** What `batchEntryWrites` writes: one entry, a line per source row on one side and their total on the other. */
export interface BatchPosting {
  /** Rows (contract_id, customer_id, amount): amount > 0, in minor units. */
  source: SQL;
  /** The account each row's line debits (a receivable, per contract). */
  debit: string;
  /** The account the total is credited to (the income, in one line). */
  credit: string;
  businessDate: string;
  description: string;
  sourceType: JournalSource;
  /** What caused it, e.g. the close of business's date. */
  sourceId: string;
  currency: string;
}

/**
 * One journal entry for a batch (the close of business's late fees of a date), as parts of a
 * larger statement: a debit line per source row, naming its contract and customer (the contract's
 * receivables on the books are its lines, `receivables.ts`), and one credit line of their total,
 * so it balances by construction. `source` may read the statement's other CTEs; `name` prefixes
 * this part's own. No row, no entry; a zero amount writes no line, a negative one is refused by
 * the database (the lines' checks). Selects how many lines it debited as `<name>_lines`.
 *
 * One entry rather than one per contract (decision 034): at a million contracts a catch-up close
 * charges 200,000 contracts, and their 200,000 entries and 400,000 lines, with the checks of
 * each, took a third of the late-fee step.
 */
export function batchEntryWrites(actor: Actor, name: string, posting: BatchPosting): Writes {
  const cte = (suffix: string) => sql.identifier(`${name}_${suffix}`);
  return {
    with: [
      sql`${cte('source')} AS MATERIALIZED (
      SELECT v.contract_id, v.customer_id, v.amount::bigint AS amount
      FROM (${posting.source}) AS v(contract_id, customer_id, amount)
      WHERE v.amount <> 0
    )`,
      sql`${cte('entry')} AS (
      INSERT INTO ${journalEntries} (id, number, business_date, description, source_type, source_id, currency, created_by)
      SELECT new_row_id(), 'JE-' || lpad(n.s::text, greatest(7, length(n.s::text)), '0'), ${posting.businessDate}::date,
             ${posting.description}, ${posting.sourceType}, ${posting.sourceId}, ${posting.currency}, ${actor.id}::text
      FROM (SELECT nextval('journal_number_seq') AS s) n
      WHERE EXISTS (SELECT 1 FROM ${cte('source')})
      RETURNING id
    )`,
      sql`${cte('lines')} AS (
      INSERT INTO ${journalLines} (entry_id, account_code, debit, credit, contract_id, customer_id, memo)
      SELECT e.id, ${posting.debit}, s.amount, 0, s.contract_id, s.customer_id, NULL
      FROM ${cte('entry')} e CROSS JOIN ${cte('source')} s
      UNION ALL
      SELECT e.id, ${posting.credit}, 0, (SELECT sum(amount) FROM ${cte('source')}), NULL, NULL, NULL
      FROM ${cte('entry')} e
      RETURNING debit
    )`,
    ],
    select: [sql`(SELECT count(*) FILTER (WHERE debit > 0) FROM ${cte('lines')})::int AS ${cte('lines')}`],
  };
}
