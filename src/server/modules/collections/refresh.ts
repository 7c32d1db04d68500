import { type SQL, sql } from 'drizzle-orm';
import { CONTACT_KINDS } from '../../../contracts/collections';
import { queryRows } from '../../../db/client';
import {
  collectionActions,
  collectionCases,
  collectionPromises,
  contracts,
  customers,
} from '../../../db/schema';
import { tablesChanged } from '../../cache';
import type { TxContext } from '../../context';
import { organisation } from '../../organisation';
import { hashTheBookInMemory } from '../../transaction';
import { bucketOn, dpdOn, figuresJoin, pastDueMoreThan } from '../contracts/figures';
import { LIVE_STATUSES, NOT_LIVE_STATUSES } from '../contracts/portfolio';
import { scorePartsSql } from './score-sql';

/**
 * Brings the collections cases to the business date `date`, set-based in one statement: every
 * live contract in arrears, due that day or whose latest promise was broken gets (or keeps) its
 * case with the score's inputs and parts; a case whose contract no longer qualifies (paid, or
 * closed) leaves the queue but keeps its assignment and history. `scope` narrows it: to some
 * contracts (after an action on them), or to the cases not already current for `date` (`'changed'`,
 * the close's rescoring after the day's start scored every case: `caseStale`). Answers how many
 * cases were written and how many are in the queue.
 */
export async function refreshCases(
  ctx: TxContext,
  date: string,
  scope?: readonly string[] | 'changed',
): Promise<{ cases: number; inQueue: number }> {
  const contractIds = Array.isArray(scope) ? scope : undefined;
  const only = (column: SQL) =>
    contractIds ? sql`AND ${column} = ANY(${sql.param([...contractIds])}::text[])` : sql``;
  // Every contract that can have a case: in arrears or due on the date, or with a case or a
  // promise already. Over the whole book the cases and the promises are joined (each read once
  // and hashed), not probed per contract; named contracts probe their promises (decision 042).
  const promises = contractIds
    ? { join: sql``, has: sql`EXISTS (SELECT 1 FROM ${collectionPromises} p WHERE p.contract_id = c.id)` }
    : {
        join: sql`LEFT JOIN (SELECT DISTINCT contract_id FROM ${collectionPromises}) pr ON pr.contract_id = c.id`,
        has: sql`pr.contract_id IS NOT NULL`,
      };
  const changed = scope === 'changed' ? caseStale(date) : undefined;
  const buckets = (await organisation(ctx, ctx.tx)).delinquencyBuckets;
  const contacts = sql.raw(CONTACT_KINDS.map((kind) => `'${kind}'`).join(', '));
  const parts = scorePartsSql({
    dpd: sql`s.dpd`,
    amountOverdue: sql`s.amount_overdue`,
    regularPayment: sql`s.regular_payment`,
    riskGrade: sql`s.risk_grade`,
    brokenPromises: sql`s.broken_promises`,
    daysSinceContact: sql`s.days_since_contact`,
  });
  // Over the whole book (a close, a day's start), its hashes of the customers and the figures.
  if (!contractIds) await hashTheBookInMemory(ctx);
  const [row] = await queryRows<{ cases: number; in_queue: number }>(
    ctx.tx,
    sql`
    WITH candidates AS (
      SELECT c.id, c.customer_id, c.plan_id, ${bucketOn(buckets, date)} AS bucket, ${dpdOn(date)} AS dpd,
             f.overdue_total, c.currency,
             (c.installment + c.service_fee) AS regular_payment,
             COALESCE(f.next_due_date = ${date}::date, false) AS due_today
      FROM ${contracts} c ${figuresJoin()}
      LEFT JOIN ${collectionCases} k ON k.contract_id = c.id
      ${promises.join} ${changed?.joins ?? sql``}
      WHERE c.status IN ${[...LIVE_STATUSES]} ${only(sql`c.id`)}
        AND (${pastDueMoreThan(date, 0)} OR f.next_due_date = ${date}::date OR k.contract_id IS NOT NULL OR ${promises.has})
        ${changed ? sql`AND ${changed.where}` : sql``}
    ), promised AS (
      SELECT p.contract_id,
             count(*) FILTER (WHERE p.state IN ('broken', 'partly_kept'))::int AS broken,
             (array_agg(p.state ORDER BY p.taken_at DESC, p.id DESC))[1] AS latest
      FROM candidates l JOIN ${collectionPromises} p ON p.contract_id = l.id
      GROUP BY p.contract_id
    ), contacted AS (
      SELECT a.contract_id, max(a.at) AS last_at, max(a.business_date) AS last_date
      FROM candidates l JOIN ${collectionActions} a ON a.contract_id = l.id
      WHERE a.kind IN (${contacts})
      GROUP BY a.contract_id
    ), s AS (
      SELECT l.id, l.customer_id, l.plan_id, cu.region, cu.assigned_agent_id AS agent_id, l.bucket, l.dpd,
             l.overdue_total AS amount_overdue, l.regular_payment, l.currency, l.due_today,
             cu.risk_grade, COALESCE(p.broken, 0) AS broken_promises, k.last_at,
             (${date}::date - k.last_date) AS days_since_contact, p.latest AS promise_state
      FROM candidates l
      JOIN ${customers} cu ON cu.id = l.customer_id
      LEFT JOIN promised p ON p.contract_id = l.id
      LEFT JOIN contacted k ON k.contract_id = l.id
    ), scored AS (
      SELECT s.*, ${parts.dpd} AS dpd_points, ${parts.amount} AS amount_points, ${parts.risk} AS risk_points,
             ${parts.promises} AS promise_points, ${parts.contact} AS contact_points,
             (s.dpd > 0 OR s.due_today OR COALESCE(s.promise_state IN ('broken', 'partly_kept'), false)) AS in_queue
      FROM s
    ), written AS (
      INSERT INTO ${collectionCases} AS cc (
        contract_id, customer_id, plan_id, region, agent_id, bucket, dpd, amount_overdue, regular_payment,
        currency, due_today, risk_grade, broken_promises, last_contact_at, days_since_contact, promise_state,
        score, dpd_points, amount_points, risk_points, promise_points, contact_points, in_queue, scored_on, updated_at)
      SELECT id, customer_id, plan_id, region, agent_id, bucket, dpd, amount_overdue, regular_payment,
             currency, due_today, risk_grade, broken_promises, last_at, days_since_contact, promise_state,
             dpd_points + amount_points + risk_points + promise_points + contact_points,
             dpd_points, amount_points, risk_points, promise_points, contact_points, in_queue, ${date}::date,
             ${ctx.clock.now()}
      -- Sorted, so every candidate is read before the first row is written: the probes of
      -- collection_cases above (a sequential scan while the table looks empty) never read the rows
      -- this statement adds, which made a first scoring of 20,000 cases quadratic (decision 041).
      FROM scored ORDER BY id
      ON CONFLICT (contract_id) DO UPDATE SET
        customer_id = excluded.customer_id, plan_id = excluded.plan_id, region = excluded.region,
        agent_id = excluded.agent_id, bucket = excluded.bucket, dpd = excluded.dpd,
        amount_overdue = excluded.amount_overdue, regular_payment = excluded.regular_payment,
        currency = excluded.currency, due_today = excluded.due_today, risk_grade = excluded.risk_grade,
        broken_promises = excluded.broken_promises, last_contact_at = excluded.last_contact_at,
        days_since_contact = excluded.days_since_contact, promise_state = excluded.promise_state,
        score = excluded.score, dpd_points = excluded.dpd_points, amount_points = excluded.amount_points,
        risk_points = excluded.risk_points, promise_points = excluded.promise_points,
        contact_points = excluded.contact_points, in_queue = excluded.in_queue,
        scored_on = excluded.scored_on, updated_at = excluded.updated_at
      -- Only rows whose figures moved: a second refresh for the same date writes nothing.
      WHERE (cc.customer_id, cc.plan_id, cc.region, cc.agent_id, cc.bucket, cc.dpd, cc.amount_overdue,
             cc.regular_payment, cc.due_today, cc.risk_grade, cc.broken_promises, cc.last_contact_at,
             cc.days_since_contact, cc.promise_state, cc.score, cc.in_queue, cc.scored_on)
        IS DISTINCT FROM
            (excluded.customer_id, excluded.plan_id, excluded.region, excluded.agent_id, excluded.bucket,
             excluded.dpd, excluded.amount_overdue, excluded.regular_payment, excluded.due_today,
             excluded.risk_grade, excluded.broken_promises, excluded.last_contact_at,
             excluded.days_since_contact, excluded.promise_state, excluded.score, excluded.in_queue,
             excluded.scored_on)
      RETURNING cc.contract_id, cc.in_queue
    ), closed AS (
      -- Cases of contracts no longer live (paid off, written off, returned) leave the queue.
      -- Named by status (its index), so the closed contracts are found without reading every contract.
      UPDATE ${collectionCases} cc SET in_queue = false, updated_at = ${ctx.clock.now()}
      FROM ${contracts} c
      WHERE c.id = cc.contract_id AND cc.in_queue AND c.status IN ${NOT_LIVE_STATUSES} ${only(sql`cc.contract_id`)}
      RETURNING cc.contract_id
    )
    SELECT (SELECT count(*) FROM written)::int + (SELECT count(*) FROM closed)::int AS cases,
           (SELECT count(*) FROM written WHERE in_queue)::int AS in_queue`,
  );
  const cases = Number(row?.cases ?? 0);
  if (cases) await tablesChanged(ctx, ctx.tx, collectionCases);
  return { cases, inQueue: Number(row?.in_queue ?? 0) };
}

/**
 * A contract whose case may not be current for `date` (its alias `c`, its figures `f`, its case
 * `k` if any): it has no case, or one scored for another date, or written no later than its
 * contract, its figures or its customer last changed (a payment, a late fee, an arrears move, a
 * default, an edit or a rescore bumps an `updated_at`; strictly later, so a change in the same
 * instant counts), or one of its promises was checked on the date. Every other input of the score
 * is the date's own (days past due, days since contact) or moves only through a collections
 * action, which rescores its contract at once. The customers are joined (read once, hashed), not
 * probed per contract.
 */
function caseStale(date: string): { joins: SQL; where: SQL } {
  return {
    joins: sql`JOIN ${customers} cu ON cu.id = c.customer_id`,
    where: sql`(NOT coalesce(k.scored_on = ${date}::date AND k.updated_at > c.updated_at
                  AND k.updated_at > f.updated_at AND k.updated_at > cu.updated_at, false)
      OR c.id IN (SELECT p.contract_id FROM ${collectionPromises} p WHERE p.checked_on = ${date}::date))`,
  };
}
