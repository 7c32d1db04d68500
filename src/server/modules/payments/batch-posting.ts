import { sql } from 'drizzle-orm';
import { planGenerically, queryRows } from '../../../db/client';
import { payments } from '../../../db/schema';
import { runWrites, type Writes } from '../../../db/writes';
import { formatMoney } from '../../../domain';
import { auditRowsWrites } from '../../audit';
import type { TxContext } from '../../context';
import { claimIdempotencyKeys, claimKey } from '../../idempotency';
import { eventsFromWrites } from '../contracts/events';
import { payingCustomerOf } from '../contracts/parties';
import { figuresSavesWrites, openManyForRepayment, type RepaymentState } from '../contracts/repayment';
import { deviceControlled } from '../devices/commands';
import { postingsWrites } from '../ledger/bulk';
import { notificationsFromWrites } from '../notifications/service';
import { paymentNoticeRow } from './notices';
import {
  allocateForward,
  allocationPosting,
  answerOf,
  auditedOf,
  checkReceivedAt,
  type Forward,
  NO_DEVICE_EFFECT,
  type PaymentRequest,
  type Posted,
  paymentOf,
  paymentReceivedText,
  recordedOf,
} from './posting';
import { allocatedPayment, allocationLinesWrites, paymentRowsWrites, receiptsOf } from './service';

/** A payment the batch posts: its request, its contract as locked, its allocation, its customer. */
interface Taken {
  index: number;
  asked: PaymentRequest;
  state: RepaymentState;
  forward: Forward;
  customer: { name: string | null; agent: string | null };
}

/**
 * Posts the usual payments of a batch together, in the caller's transaction (decision 044): the
 * newest payment on a live contract that moves nothing (no paid-off move, no re-amortisation) on
 * a unit no one controls. Every contract is
 * locked in id order in one statement, their schedules and what else a payment reads are two
 * more, the keys are claimed in one, and every write of every payment is one statement, so a
 * batch of thirty costs the statements of one payment.
 *
 * Answers, for each request in order, what was posted, or null for one this batch leaves alone:
 * no such contract or one taking no payments, a date out of range, a back-dated payment, a
 * reference already used (or used twice in the batch), a key used twice in the batch or already
 * claimed (a replay), a payment that would move the contract or answer a unit. Those are posted
 * (or refused, with the right error) by `postPayment` on their own once this transaction is over;
 * nothing of theirs is written here. The batcher gives each contract one request at most.
 */
export async function postBatch(
  ctx: TxContext,
  requests: readonly PaymentRequest[],
): Promise<Array<Posted | null>> {
  const answers: Array<Posted | null> = requests.map(() => null);
  // Every statement below is prepared, its values in arrays: its one plan fits any batch. Left to
  // choose, PostgreSQL plans most of them afresh for each batch (a fifth of a batch's time).
  await planGenerically(ctx.tx);
  const { states } = await openManyForRepayment(
    ctx,
    requests.map((asked) => asked.input.contractId),
  );
  const seen = new Set<string>();
  const once = (key: string | null) => {
    if (key === null) return true;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const candidates: Array<{ index: number; asked: PaymentRequest; state: RepaymentState }> = [];
  for (const [index, asked] of requests.entries()) {
    const state = states.get(asked.input.contractId);
    if (!state) continue;
    const { input } = asked;
    if (!once(`contract\u0000${input.contractId}`)) continue;
    if (!once(asked.claim ? `key\u0000${claimKey(asked.claim)}` : null)) continue;
    if (!once(input.reference ? `reference\u0000${input.method}\u0000${input.reference}` : null)) continue;
    try {
      checkReceivedAt(ctx, state, asked.receivedAt);
    } catch {
      continue;
    }
    candidates.push({ index, asked, state });
  }
  if (!candidates.length) return answers;

  const beside = await besideOf(ctx, candidates);
  const kept: Taken[] = [];
  for (const [n, candidate] of candidates.entries()) {
    const read = beside[n];
    if (!read || read.later || read.earlier || read.controlled) continue;
    const forward = allocateForward(ctx, candidate.asked.actor, candidate.state, recordedOf(candidate.asked));
    if (forward.plan.move || forward.totals.rescheduled) continue;
    kept.push({ ...candidate, forward, customer: read.customer });
  }
  // The keys last, once the contracts are locked: a replay waits for its first delivery's commit here.
  const claims = kept.flatMap((k) => (k.asked.claim ? [k.asked.claim] : []));
  const claimed = await claimIdempotencyKeys(ctx, claims);
  const taken = kept.filter((k) => !k.asked.claim || claimed.has(claimKey(k.asked.claim)));
  if (!taken.length) return answers;

  // Every write of every payment in one statement, as a single payment's are (decision 022).
  const notices = taken.flatMap((k) =>
    k.customer.agent === null
      ? []
      : [
          paymentNoticeRow(
            k.customer.agent,
            k.state.row,
            formatMoney(k.asked.input.amount, k.state.row.currency),
            k.asked.paymentId,
          ),
        ],
  );
  const first = (taken[0] as Taken).asked.actor;
  const written = await runWrites(
    ctx.tx,
    [
      paymentRowsWrites(taken.map((k) => ({ ...paymentOf(k.state, k.asked), credit: k.forward.credit }))),
      allocationLinesWrites(
        taken.flatMap((k) =>
          k.forward.lines.map((line) => ({
            ...line,
            paymentId: k.asked.paymentId,
            contractId: k.state.row.id,
            scheduleVersion: k.state.row.scheduleVersion,
          })),
        ),
      ),
      postingsWrites(
        first,
        taken.flatMap((k) => {
          const posting = allocationPosting(
            k.state,
            { id: k.asked.paymentId, method: k.asked.input.method },
            k.forward.lines,
            k.asked.valueDate,
            'payment',
          );
          return posting ? [{ ...posting, by: k.asked.actor }] : [];
        }),
      ),
      figuresSavesWrites(
        ctx,
        taken.map((k) => ({ state: k.state, plan: k.forward.plan, totals: k.forward.totals })),
      ),
      ...timelineWrites(ctx, taken),
      ...(notices.length ? [agentNoticesWrites(ctx, notices)] : []),
      auditRowsWrites(taken.map((k) => ({ actor: k.asked.actor, entry: auditedOf(k.asked, false) }))),
    ],
    { prepared: true },
  );
  const receipts = receiptsOf(written);
  for (const k of taken) {
    const outcome = {
      before: k.forward.plan.before,
      after: k.forward.plan.after,
      device: NO_DEVICE_EFFECT,
      status: k.state.row.status,
    };
    answers[k.index] = {
      paymentId: k.asked.paymentId,
      created: true,
      outcome,
      answer: answerOf(
        k.state,
        k.asked,
        k.forward,
        outcome,
        receipts.get(k.asked.paymentId) as string,
        k.customer.name,
      ),
    };
  }
  return answers;
}

/**
 * What each candidate's single payment reads beside its contract, for all of them in one
 * statement: whether a posted payment on the contract counts from later (this one would re-run
 * the allocation), whether its reference is taken, whether anything controls its unit, and its
 * customer's name and agent.
 */
async function besideOf(
  ctx: TxContext,
  candidates: ReadonlyArray<{ asked: PaymentRequest; state: RepaymentState }>,
): Promise<
  Array<{
    later: boolean;
    earlier: boolean;
    controlled: boolean;
    customer: { name: string | null; agent: string | null };
  }>
> {
  const col = <T>(pick: (c: (typeof candidates)[number]) => T) => sql.param(candidates.map(pick));
  const rows = await queryRows<{
    later: boolean;
    earlier: boolean;
    controlled: boolean;
    customer: [string | null, string | null] | null;
  }>(
    ctx.tx,
    sql`SELECT
        EXISTS (SELECT 1 FROM ${payments} p WHERE p.contract_id = v.contract_id AND ${allocatedPayment(sql`p`)}
          AND (p.value_date, p.received_at) > (v.value_date::date, v.received_at)) AS later,
        v.reference IS NOT NULL AND EXISTS (SELECT 1 FROM ${payments} p WHERE p.method = v.method AND p.reference = v.reference) AS earlier,
        ${deviceControlled(sql`v.device_id`)} AS controlled,
        ${payingCustomerOf(sql`v.customer_id`, sql`v.created_by`)} AS customer
      FROM unnest(${col((c) => c.state.row.id)}::text[], ${col((c) => c.state.row.deviceId)}::text[],
                  ${col((c) => c.state.row.customerId)}::text[], ${col((c) => c.state.row.createdBy)}::text[], ${col((c) => c.asked.valueDate)}::text[],
                  ${col((c) => c.asked.receivedAt.toISOString())}::timestamptz[], ${col((c) => c.asked.input.method)}::text[],
                  ${col((c) => c.asked.input.reference ?? null)}::text[]) WITH ORDINALITY
        AS v(contract_id, device_id, customer_id, created_by, value_date, received_at, method, reference, i)
      ORDER BY v.i`,
    { prepared: true },
  );
  return rows.map((row) => {
    const [name, agent] = row.customer ?? [null, null];
    return { later: row.later, earlier: row.earlier, controlled: row.controlled, customer: { name, agent } };
  });
}

/** One timeline line per payment, each written with its own poster's name on it. */
function timelineWrites(ctx: TxContext, taken: readonly Taken[]): Writes[] {
  const byActor = new Map<string | null, Taken[]>();
  for (const k of taken) byActor.set(k.asked.actor.id, [...(byActor.get(k.asked.actor.id) ?? []), k]);
  return [...byActor.values()].map((group, n) => {
    const col = <T>(pick: (k: Taken) => T) => sql.param(group.map(pick));
    return eventsFromWrites(
      ctx,
      (group[0] as Taken).asked.actor,
      `posted_events_${n}`,
      sql`SELECT * FROM unnest(${col((k) => k.state.row.id)}::text[], ${col(() => 'payment')}::text[],
            ${col((k) => paymentReceivedText(formatMoney(k.asked.input.amount, k.state.row.currency), k.asked.input.method))}::text[],
            ${col((k) => JSON.stringify({ paymentId: k.asked.paymentId, token: null, command: null, backDated: false }))}::text[])`,
    );
  });
}

/** The agents' notices of the batch's payments, in the payments' statement. */
function agentNoticesWrites(
  ctx: TxContext,
  notices: ReadonlyArray<ReturnType<typeof paymentNoticeRow>>,
): Writes {
  const col = (pick: (row: (typeof notices)[number]) => string | null) => sql.param(notices.map(pick));
  return notificationsFromWrites(
    ctx,
    sql`SELECT * FROM unnest(${col((r) => r.userId)}::text[], ${col((r) => r.title)}::text[],
          ${col((r) => r.message)}::text[], ${col((r) => r.type)}::text[], ${col((r) => r.link)}::text[],
          ${col(() => null)}::text[])`,
    'payments',
    notices.map((row) => row.userId),
  );
}
