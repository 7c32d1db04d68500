import { type SQL, sql } from 'drizzle-orm';
import { CONTRACT_TRANSITIONS } from '../../../contracts/contracts';
import { queryRows } from '../../../db/client';
import { contractFigures, contractInstallments, contracts, interestAccruals } from '../../../db/schema';
import { runWrites, type Writes } from '../../../db/writes';
import { addDays } from '../../../domain';
import type { Actor } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { addEventsFrom, eventsFromWrites } from './events';
import { dpdOn, figuresJoin, pastDueAtLeast, pastDueMoreThan } from './figures';
import { contractsChanged } from './list-cache';
import { LIVE_STATUSES } from './portfolio';

/**
 * The contracts' side of the close of business (decision 026): each step's change to contracts,
 * set-based, in the caller's transaction (the step's). The rules are the domain's
 * (`assessLateFees`, `locksOn`, `defaultsOn`, `interestEarnedTo`), written once more as SQL so
 * that no contract is handled one at a time; the tests hold the two to each other.
 */

/** A plan term copied onto the contract (`terms`), as SQL. */
const term = (name: string) => sql.raw(`(c.terms->>'${name}')`);

/** A non-negative numeric rounded HALF_EVEN to a whole number, as the engine rounds money. */
const halfEven = (x: SQL) =>
  sql`(CASE WHEN ${x} - floor(${x}) = 0.5 THEN floor(${x}) + (floor(${x})::bigint % 2) ELSE round(${x}) END)::bigint`;

/**
 * Locks the live contracts a step will change, in id order: payments lock a contract (both its
 * rows) before its instalments, and imports lock theirs in id order, so the step waits for them,
 * never deadlocks. `where` reads the contract `c` and its figures `f`; `of` is the row the step
 * writes: the figures (a late fee) or the contract (a default). `among`, when given, are the only
 * contracts looked at, each probed by its key: as `c.id = ANY(…)` the planner scanned the book and
 * searched the list for every contract (25,000 ids × a million rows, minutes).
 */
async function lockLive(
  ctx: TxContext,
  where: SQL,
  of: 'c' | 'f',
  among?: readonly string[],
): Promise<string[]> {
  const query = sql`SELECT c.id FROM ${contracts} c ${figuresJoin()}
    WHERE c.status IN ${[...LIVE_STATUSES]} AND ${where}`;
  const rows = await queryRows<{ id: string }>(
    ctx.tx,
    among
      ? sql`SELECT l.id FROM unnest(${sql.param([...among].sort())}::text[]) WITH ORDINALITY AS s(id, k)
          CROSS JOIN LATERAL (${query} AND c.id = s.id FOR UPDATE OF ${sql.raw(of)}) l ORDER BY s.k`
      : sql`${query} ORDER BY c.id FOR UPDATE OF ${sql.raw(of)}`,
  );
  return rows.map((row) => row.id);
}

/** An instalment's unpaid principal, interest and fee (`overdueBase`: what a late fee is charged on). */
const UNPAID = sql`(i.principal_due - i.principal_paid + i.interest_due - i.interest_paid + i.fee_due - i.fee_paid)`;

/**
 * The plan terms kept as whole days that have an index on the contracts, of the contract `c`,
 * written as their indexes have them (`contracts_grace_days_idx`, `contracts_lock_after_days_idx`).
 */
export const TERM_DAYS = {
  graceDays: sql`coalesce(${term('graceDays')}::int, 0)`,
  lockAfterDays: sql`(${term('lockAfterDays')}::int)`,
} as const;

const GRACE = TERM_DAYS.graceDays;

/**
 * The distinct values of a term over every contract (a few: the plans' versions), one probe of
 * its index each (a loose index scan), ascending; a term left empty is not among them.
 */
export async function termValues(executor: Executor, name: keyof typeof TERM_DAYS): Promise<number[]> {
  const term = TERM_DAYS[name];
  const rows = await queryRows<{ v: number }>(
    executor,
    sql`
    WITH RECURSIVE v(v) AS (
      SELECT min(${term}) FROM ${contracts} c
      UNION ALL
      SELECT (SELECT min(${term}) FROM ${contracts} c WHERE ${term} > v.v) FROM v WHERE v.v IS NOT NULL
    )
    SELECT v FROM v WHERE v IS NOT NULL`,
  );
  return rows.map((row) => row.v);
}

/**
 * The contracts step 2 may find a new fee on at `date` when the step last ran for `since` (an
 * earlier date): at `since` every instalment past its grace days and unpaid was charged, so a new
 * fee is owed only on an instalment whose grace days ran out after `since` (its due date between
 * `since` and `date`, less its contract's grace days) or on a contract an allocation left with more
 * to pay on an instalment (`fees_recheck_on`, set by the repayment writers on or after `since`'s
 * business date). The due dates are read per grace value (a probe of the grace index each, and a
 * range of the due-date index), not over every contract in arrears: at a million contracts those
 * were 300,000 schedules read each night to find 25,000 fees (decision 053).
 */
async function lateFeeScope(ctx: TxContext, date: string, since: string): Promise<string[]> {
  const graces = await termValues(ctx.tx, 'graceDays');
  // Each grace value's window as dates, read from the due-date index, each instalment then probing
  // its contract by key. As a join to the grace values the planner scanned all 12 million
  // instalments (11 s); as a plain join, with no statistics yet on the grace index, it took the
  // contracts of a grace value for a handful and probed the window once per contract (minutes).
  // `OFFSET 0` keeps the probe a subquery of its own, which the planner would otherwise flatten.
  const windows = graces.map((g) => {
    const from = addDays(since, -g);
    const to = addDays(date, -g - 1);
    return sql`SELECT i.contract_id FROM ${contractInstallments} i
      CROSS JOIN LATERAL (SELECT 1 FROM ${contracts} c
        WHERE c.id = i.contract_id AND c.schedule_version = i.schedule_version AND ${GRACE} = ${g}
          AND c.status IN ${[...LIVE_STATUSES]} AND ${term('lateFeeKind')} IN ('flat', 'percent') OFFSET 0) c
      WHERE i.due_date BETWEEN ${from}::date AND ${to}::date AND i.settled_at IS NULL AND ${UNPAID} > 0`;
  });
  const rows = await queryRows<{ contract_id: string }>(
    ctx.tx,
    sql.join(
      [
        ...windows,
        sql`SELECT f.contract_id FROM ${contractFigures} f WHERE f.fees_recheck_on >= ${since}::date`,
      ],
      sql` UNION `,
    ),
  );
  return rows.map((row) => row.contract_id);
}

/** What step 2 charged on a date: how many contracts, and the total of their fees. */
export interface LateFeesCharged {
  contracts: number;
  amount: number;
}

/**
 * Step 2: a late fee once per instalment of a live contract overdue on `date` by more than the
 * grace days with principal, interest or fee unpaid (`assessLateFees`): added to the instalment's
 * penalty due, which nothing else raises, with the date charged (`late_fee_on`: set, it is the
 * "once", decision 060), and added to the contract's outstanding and overdue totals, with a
 * timeline line per contract; `ledger` adds the step's journal entry to the same statement, from
 * the fees per contract it is given (rows of contract_id, customer_id, amount).
 *
 * Set-based in two statements (decision 032): the contracts with an instalment to charge are
 * locked, then one statement finds their fees, raises the instalments, and writes the contracts,
 * the timeline and the ledger. Only contracts more days past due than their grace days are
 * looked at: step 1 has just brought the day their arrears began to `date` (an instalment overdue
 * by more than the grace days makes the contract's DPD at least that), so the search reads the
 * figures instead of every contract's schedule. Each instalment is raised as it is read, while its
 * page is still in memory (decision 034: raised after all the fees were found, the 400,000
 * instalments of a million-contract catch-up were read from disk a second time). `since` is the
 * date the step last completed for, before `date`; the search then starts from what changed
 * since (`lateFeeScope`), and from every contract in arrears when there is none.
 */
export async function chargeLateFees(
  ctx: TxContext,
  actor: Actor,
  date: string,
  since: string | null,
  ledger: (perContract: SQL) => Writes,
): Promise<LateFeesCharged> {
  // Past the grace days (which are never negative). The search of the whole book (a first close)
  // reads the book in its keys' order, figures beside contracts: through the arrears index (in
  // arrears order), each figures row just rewritten by step 1 was a page read at random and
  // written back with its hint bits, 8.9 s against 3.0 s for the 336,584 of the million-contract
  // catch-up. Where the contracts are given by id their figures rows are found by key.
  const candidates = sql`c.status IN ${[...LIVE_STATUSES]} AND ${pastDueMoreThan(date, GRACE)} AND ${term('lateFeeKind')} IN ('flat', 'percent')`;
  const overdue = sql`i.contract_id = c.id AND i.schedule_version = c.schedule_version AND i.settled_at IS NULL
    AND i.due_date < ${date}::date - ${GRACE} AND ${UNPAID} > 0 AND i.late_fee_on IS NULL`;
  // After a close, only the contracts something may have made chargeable since (decision 053).
  const scope = since === null ? null : await lateFeeScope(ctx, date, since);
  if (scope?.length === 0) return { contracts: 0, amount: 0 };
  // After a close, only contracts with an overdue instalment not charged yet are locked and
  // charged: on a night after the last close nearly every contract past its grace days was
  // charged already, and locking them all (a write to each figures row) cost the million-contract
  // book 10 s for a handful of new fees. On the first close nothing was charged before, and a
  // contract past its grace days owes on the instalment its arrears began with, so no schedule is
  // read to find that (all 336,584 candidates of the million-contract catch-up had a fee; their
  // schedules were a third of the search's 15 s). The charge below checks every rule again under
  // the lock.
  const uncharged = sql`EXISTS (SELECT 1 FROM ${contractInstallments} i WHERE ${overdue})`;
  const locked = await lockLive(
    ctx,
    scope ? sql`${candidates} AND ${uncharged}` : candidates,
    'f',
    scope ?? undefined,
  );
  if (!locked.length) return { contracts: 0, amount: 0 };
  const percent = sql`(${UNPAID}::numeric * ${term('lateFeeValue')}::numeric / 100)`;
  const charge = sql`
    fees AS (
      SELECT i.contract_id, i.schedule_version, i.n,
             CASE ${term('lateFeeKind')} WHEN 'flat' THEN ${term('lateFeeValue')}::numeric::bigint
                  ELSE ${halfEven(percent)} END AS amount
      FROM unnest(${sql.param(locked)}::text[]) AS l(id)
      JOIN ${contracts} c ON c.id = l.id ${figuresJoin()}
      -- Each candidate's schedule read in its key's order: one index scan per contract, which the
      -- planner otherwise took as a bitmap scan per contract at twice the cost (decision 034).
      CROSS JOIN LATERAL (
        SELECT i.* FROM ${contractInstallments} i WHERE ${overdue} ORDER BY i.n) i
      WHERE ${candidates}
    ), raised AS (
      -- The fee is recorded on the row it raises; one already recorded is never charged again.
      UPDATE ${contractInstallments} i
      SET penalty_due = i.penalty_due + fe.amount, late_fee_on = ${date}::date
      FROM fees fe
      WHERE i.contract_id = fe.contract_id AND i.schedule_version = fe.schedule_version AND i.n = fe.n
        AND fe.amount > 0 AND i.late_fee_on IS NULL
      RETURNING i.contract_id, i.n, fe.amount
    ), per_contract AS (
      SELECT r.contract_id, sum(r.amount)::bigint AS amount, count(*)::int AS charges,
             array_agg(r.n ORDER BY r.n) AS ns
      FROM raised r
      GROUP BY r.contract_id
    ), totals AS (
      UPDATE ${contractFigures} f
      SET outstanding_total = f.outstanding_total + p.amount, overdue_total = f.overdue_total + p.amount, updated_at = ${ctx.clock.now().toISOString()}::timestamptz
      FROM per_contract p WHERE f.contract_id = p.contract_id
      RETURNING p.amount
    )`;
  const events = eventsFromWrites(
    ctx,
    actor,
    'late_fee_events',
    sql`SELECT contract_id, 'late_fee', 'Late fee charged for ' || charges || ' overdue instalment(s)',
               json_build_object('businessDate', ${date}::text, 'amount', amount, 'installments', ns)::text
        FROM per_contract`,
  );
  const row = await runWrites<{ contracts: number; amount: string | null }>(ctx.tx, [
    {
      with: [charge],
      select: [
        sql`(SELECT count(*) FROM totals)::int AS contracts`,
        sql`(SELECT sum(amount) FROM totals)::text AS amount`,
      ],
    },
    events,
    // Each contract's customer by its key: two of the statement's own results joined to each other
    // were planned as a nested loop over both at 100,000 contracts (40,000 × 40,000 rows, 150 s).
    ledger(
      sql`SELECT p.contract_id, c.customer_id, p.amount FROM per_contract p JOIN ${contracts} c ON c.id = p.contract_id`,
    ),
  ]);
  return { contracts: row.contracts, amount: Number(row.amount ?? 0) };
}

/**
 * Step 3's contracts, as rows of (contract id, device id) for the devices area to queue locks
 * from: live contracts whose days past due (step 1's figures for the date) exceed their plan's
 * lock-after days (`locksOn`). The devices area decides which units get a command.
 */
export function lockCandidates(date: string): SQL {
  return sql`SELECT c.id, c.device_id FROM ${contracts} c ${figuresJoin()}
    WHERE c.status IN ${[...LIVE_STATUSES]} AND ${TERM_DAYS.lockAfterDays} IS NOT NULL
      AND ${pastDueMoreThan(date, TERM_DAYS.lockAfterDays)}`;
}

/**
 * The units of live contracts (active or defaulted), as rows of (device id), for the devices area
 * to record those whose OpenPAYGO time ran out (step 3, decision 050).
 */
export function liveContractUnits(): SQL {
  return sql`SELECT c.device_id FROM ${contracts} c WHERE c.status IN ${[...LIVE_STATUSES]}`;
}

/**
 * Of these contracts, those still past their plan's lock-after days now (step 3's rule): a lock the
 * close queued goes out only for them (device control's delivery), since a payment that committed
 * while the close's step was under way cleared the arrears without seeing the lock to undo.
 */
export async function stillPastLockAfter(
  executor: Executor,
  date: string,
  contractIds: readonly string[],
): Promise<Set<string>> {
  if (!contractIds.length) return new Set();
  const rows = await queryRows<{ id: string }>(
    executor,
    sql`SELECT l.id FROM (${lockCandidates(date)}) AS l(id, device_id) WHERE l.id = ANY(${sql.param(contractIds)}::text[])`,
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * Step 4: active contracts whose days past due reached their plan's default-after days
 * (`defaultsOn`) move to `defaulted` through the lifecycle's table (the move `default`), version
 * raised, with a timeline line each: the contracts locked in id order, moved by id, and their lines
 * written, three statements. Answers the contracts moved.
 */
export async function defaultOverdue(ctx: TxContext, actor: Actor, date: string): Promise<string[]> {
  const move = CONTRACT_TRANSITIONS.default;
  const due = sql`c.status IN ${[...move.from]} AND ${term('defaultAfterDays')} IS NOT NULL
    AND ${pastDueAtLeast(date, sql`${term('defaultAfterDays')}::int`)}`;
  const locked = await lockLive(ctx, due, 'c');
  if (!locked.length) return [];
  // The contracts just locked, by id, still due as this statement sees them: a payment that
  // committed while the lock waited for its contract cleared the arrears its lock re-checked with
  // the figures read before (a locking read re-reads only the rows it locks), so the figures are
  // read again here, after every lock is held.
  const moved = await queryRows<{ id: string }>(
    ctx.tx,
    sql`UPDATE ${contracts} c SET status = ${move.to}, version = c.version + 1,
               updated_at = ${ctx.clock.now().toISOString()}::timestamptz
        FROM unnest(${sql.param(locked)}::text[]) AS l(id), ${contractFigures} f
        WHERE c.id = l.id AND f.contract_id = c.id AND ${due}
        RETURNING c.id`,
  );
  const ids = moved.map((row) => row.id);
  if (!ids.length) return [];
  await addEventsFrom(
    ctx,
    actor,
    sql`SELECT f.contract_id, 'defaulted', 'Defaulted at close of business: ' || ${dpdOn(date)} || ' days past due',
               json_build_object('businessDate', ${date}::text, 'dpd', ${dpdOn(date)})::text
        FROM unnest(${sql.param(ids)}::text[]) AS l(id) JOIN ${contractFigures} f ON f.contract_id = l.id`,
  );
  await contractsChanged(ctx, ctx.tx);
  return ids;
}

/** Contracts under accrual accounting: started on or after the organisation's accrual date. */
export const accrualScope = (from: string): SQL =>
  sql`SELECT c.id FROM ${contracts} c WHERE c.start_date >= ${from}::date`;

/**
 * Step 7: the day's interest accrual of every active contract under accrual accounting: interest
 * earned by the end of `date` (`interestEarnedTo`, per instalment of the current schedule) less
 * what the contract's earlier accruals recorded, one row per contract with a change. Defaulted
 * contracts accrue nothing (non-accrual status). Answers the day's total.
 */
export async function accrueInterest(
  ctx: TxContext,
  date: string,
  from: string,
): Promise<{ contracts: number; amount: number }> {
  const share = sql`(i.interest_due::numeric * LEAST(GREATEST(${date}::date - i.period_start, 0), i.due_date - i.period_start)
                     / (i.due_date - i.period_start))`;
  const [row] = await queryRows<{ contracts: number; amount: string | null }>(
    ctx.tx,
    sql`
    WITH periods AS (
      SELECT i.contract_id, i.due_date, i.interest_due,
             lag(i.due_date, 1, c.start_date) OVER (PARTITION BY i.contract_id ORDER BY i.n) AS period_start
      FROM ${contracts} c
      JOIN ${contractInstallments} i ON i.contract_id = c.id AND i.schedule_version = c.schedule_version
      WHERE c.status = 'active' AND c.start_date >= ${from}::date AND c.start_date < ${date}::date
    ), earned AS (
      SELECT i.contract_id, sum(CASE WHEN i.due_date > i.period_start THEN ${halfEven(share)} ELSE 0 END)::bigint AS earned
      FROM periods i GROUP BY i.contract_id
    ), accrued AS (
      INSERT INTO ${interestAccruals} (contract_id, business_date, amount, earned)
      SELECT e.contract_id, ${date}::date, e.earned - coalesce(last.earned, 0), e.earned
      FROM earned e
      LEFT JOIN LATERAL (SELECT a.earned FROM ${interestAccruals} a
                         WHERE a.contract_id = e.contract_id AND a.business_date < ${date}::date
                         ORDER BY a.business_date DESC LIMIT 1) last ON true
      WHERE e.earned <> coalesce(last.earned, 0)
      ON CONFLICT DO NOTHING
      RETURNING amount
    )
    SELECT count(*)::int AS contracts, sum(amount)::text AS amount FROM accrued`,
  );
  return { contracts: row?.contracts ?? 0, amount: Number(row?.amount ?? 0) };
}
