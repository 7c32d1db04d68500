import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AllocationLineView, PaymentMethod } from '../../../contracts/payments';
import { queryRows } from '../../../db/client';
import { paymentAllocations, payments } from '../../../db/schema';
import {
  type AllocationOptions,
  allocatePayment,
  type Component,
  clonePositions,
  formatMoney,
  type InstallmentPosition,
  isSettled,
} from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import { businessDateOf } from '../../business-date';
import type { TxContext } from '../../context';
import { conflict, fieldError } from '../../errors';
import { claimIdempotencyKey, settleIdempotencyKey } from '../../idempotency';
import { savepoint } from '../../transaction';
import { addEvent } from '../contracts/events';
import {
  openForRepayment,
  type RepaymentOutcome,
  type RepaymentState,
  saveRepayment,
  wasReamortised,
} from '../contracts/repayment';
import { ACCOUNTS, cashAccountFor, type Posting, type PostingLine, post } from '../ledger/service';
import { notifyAgentOfPayment } from './notices';
import { duplicatePayment, findPaymentByReference, recordPayment } from './service';

/** A clock a little ahead of ours (a phone, a till) is not "the future"; an hour is. */
const CLOCK_SKEW_MS = 5 * 60_000;

export interface PaymentInput {
  contractId: string;
  amount: number;
  method: Exclude<PaymentMethod, 'deposit'>;
  provider?: string | null;
  reference?: string | null;
  receivedAt?: string | Date | null;
  idempotencyKey?: string | null;
  accountReference?: string | null;
  payload?: unknown;
  importId?: string | null;
  transferredFrom?: string | null;
}

export interface Posted {
  paymentId: string;
  created: boolean;
  outcome: RepaymentOutcome | null;
}

/** One allocation line as stored (the credit line has no instalment). */
export interface Line {
  installmentNumber: number | null;
  component: Component | 'credit';
  amount: number;
}

/**
 * Posts a payment to a contract (PRODUCT.md section 2, Payment; API.md POST /api/payments), in the
 * caller's transaction:
 * - a replay posts nothing and answers the first payment: the same `Idempotency-Key` with the same
 *   request (another request with it is a 409), or the same `(method, reference)` on the same
 *   contract (on another contract, or for another amount, a 409 naming it);
 * - payments on one contract serialise on its row lock;
 * - the engine allocates in the plan's order; beyond the whole balance is customer credit;
 * - a back-dated payment (before the contract's latest) re-runs the allocation from its date;
 * - ledger by component, the contract's figures, the device's answer, the timeline, a notice
 *   for the agent, and the audit row last.
 */
export async function postPayment(ctx: TxContext, actor: Actor, input: PaymentInput): Promise<Posted> {
  const paymentId = randomUUID();
  const { idempotencyKey, ...request } = input;
  const claim = idempotencyKey
    ? { operation: 'payment.create' as const, key: idempotencyKey, request: fingerprintOf(request) }
    : null;
  if (claim) {
    const first = await claimIdempotencyKey(ctx, { ...claim, resourceId: paymentId });
    if (first) return { paymentId: first, created: false, outcome: null };
  }
  const replay = async () => {
    const earlier = input.reference
      ? await findPaymentByReference(ctx.tx, input.method, input.reference)
      : undefined;
    if (!earlier) return null;
    if (earlier.contractId !== input.contractId || earlier.amount !== input.amount) {
      throw conflict(
        `Reference ${input.reference} was already used for another ${input.method.replace('_', ' ')} payment; check the reference`,
        'REFERENCE_USED',
      );
    }
    if (claim) await settleIdempotencyKey(ctx, claim, earlier.id);
    return { paymentId: earlier.id, created: false, outcome: null };
  };
  const state = await openForRepayment(ctx, input.contractId, 'payment');
  const earlier = await replay();
  if (earlier) return earlier;
  const receivedAt = checkReceivedAt(ctx, state, input.receivedAt);
  const valueDate = businessDateOf(receivedAt, state.org);
  const row = state.row;
  const insert = () =>
    recordPayment(ctx.tx, {
      id: paymentId,
      contractId: row.id,
      customerId: row.customerId,
      amount: input.amount,
      currency: row.currency,
      method: input.method,
      provider: input.provider ?? input.method,
      reference: input.reference ?? null,
      idempotencyKey: input.idempotencyKey ?? null,
      accountReference: input.accountReference ?? null,
      payload: input.payload ?? null,
      importId: input.importId ?? null,
      transferredFrom: input.transferredFrom ?? null,
      receivedAt,
      valueDate,
      postedBy: actor.id,
      postedAt: ctx.clock.now(),
    });
  if (input.reference) {
    // Under a savepoint: the same reference sent to another contract at the same moment (not
    // serialised by this contract's lock) fails the unique index and leaves the transaction usable.
    try {
      await savepoint(ctx, () => insert());
    } catch (error) {
      if (!duplicatePayment(error)) throw error;
      const again = await replay();
      if (!again) throw error;
      return again;
    }
  } else {
    await insert();
  }
  const { outcome, backDated } = await allocateRecorded(ctx, actor, state, {
    id: paymentId,
    amount: input.amount,
    method: input.method,
    valueDate,
    receivedAt,
  });
  if (claim) await settleIdempotencyKey(ctx, claim, paymentId);
  await writeAudit(ctx.tx, actor, {
    action: 'payment.create',
    entityType: 'payment',
    entityId: paymentId,
    after: { ...request, receivedAt: receivedAt.toISOString(), valueDate, backDated },
  });
  return { paymentId, created: true, outcome };
}

/**
 * Allocates a payment already recorded on the contract (posted now, or a suspense payment just
 * matched to it): on the current positions when it is the newest, else by re-running the
 * contract's allocation from its date; then the timeline line and the agent's notice. The caller
 * holds the contract's lock (`openForRepayment`) and writes the audit row.
 */
export async function allocateRecorded(
  ctx: TxContext,
  actor: Actor,
  state: RepaymentState,
  payment: { id: string; amount: number; method: string; valueDate: string; receivedAt: Date },
): Promise<{ outcome: RepaymentOutcome; backDated: boolean }> {
  const { row } = state;
  const backDated = await isBackDated(ctx, row.id, payment.id, payment.valueDate, payment.receivedAt);
  const outcome = backDated
    ? await rerunAllocation(ctx, actor, state, { type: 'payment', id: payment.id })
    : await allocateForward(ctx, actor, state, payment);
  const amount = formatMoney(payment.amount, row.currency);
  await addEvent(
    ctx,
    row.id,
    actor,
    'payment',
    `Payment of ${amount} received (${payment.method.replace('_', ' ')})`,
    {
      paymentId: payment.id,
      token: outcome.device.token,
      command: outcome.device.command,
      backDated,
    },
  );
  await notifyAgentOfPayment(ctx, row, amount, payment.id);
  return { outcome, backDated };
}

/** The request as the idempotency fingerprint sees it (dates normalised). */
function fingerprintOf(request: Omit<PaymentInput, 'idempotencyKey'>): unknown {
  const { receivedAt, ...rest } = request;
  return { ...rest, receivedAt: receivedAt ? new Date(receivedAt).toISOString() : null };
}

function checkReceivedAt(ctx: TxContext, state: RepaymentState, value: PaymentInput['receivedAt']): Date {
  const now = ctx.clock.now();
  if (!value) return now;
  const at = new Date(value);
  if (at.getTime() > now.getTime() + CLOCK_SKEW_MS)
    throw fieldError('receivedAt', 'receivedAt must not be in the future');
  const since = state.row.activatedAt;
  if (since && at.getTime() < since.getTime()) {
    throw fieldError(
      'receivedAt',
      `receivedAt must not be before the contract was activated (${since.toISOString()})`,
    );
  }
  return at;
}

/** Whether another posted payment on the contract counts from later (this one then re-runs the allocation). */
async function isBackDated(
  ctx: TxContext,
  contractId: string,
  paymentId: string,
  valueDate: string,
  receivedAt: Date,
): Promise<boolean> {
  const [row] = await queryRows<{ later: boolean }>(
    ctx.tx,
    sql`SELECT EXISTS (SELECT 1 FROM ${payments} WHERE contract_id = ${contractId} AND status = 'posted'
      AND method <> 'deposit' AND id <> ${paymentId}
      AND (value_date, received_at) > (${valueDate}::date, ${receivedAt.toISOString()}::timestamptz)) AS later`,
  );
  return row?.later === true;
}

export function optionsOf(state: RepaymentState): AllocationOptions {
  const terms = state.row.terms as { allocationStrategy?: string };
  if (terms.allocationStrategy !== 'principal_reduction') return { strategy: 'default' };
  return {
    strategy: 'principal_reduction',
    terms: {
      method: state.row.interestMethod as 'declining' | 'flat',
      apr: state.row.apr,
      frequency: state.row.frequency as 'daily' | 'weekly' | 'monthly',
      installment: state.row.installment,
    },
  };
}

interface Allocated {
  lines: Line[];
  credit: number;
  positions: InstallmentPosition[];
  rescheduled: boolean;
}

export function allocate(
  positions: InstallmentPosition[],
  amount: number,
  valueDate: string,
  options: AllocationOptions,
  settledOn: Map<number, string | null>,
): Allocated {
  const result = allocatePayment(positions, amount, valueDate, options);
  const wasSettled = new Set(positions.filter(isSettled).map((p) => p.n));
  for (const p of result.installments)
    if (isSettled(p) && !wasSettled.has(p.n)) settledOn.set(p.n, valueDate);
  const lines: Line[] = result.lines.map((l) => ({ ...l }));
  if (result.credit > 0) lines.push({ installmentNumber: null, component: 'credit', amount: result.credit });
  return { lines, credit: result.credit, positions: result.installments, rescheduled: result.rescheduled };
}

/** The usual case: the newest payment on the contract, allocated on the current positions. */
async function allocateForward(
  ctx: TxContext,
  actor: Actor,
  state: RepaymentState,
  payment: { id: string; amount: number; valueDate: string; method: string },
): Promise<RepaymentOutcome> {
  const settledOn = new Map<number, string | null>();
  const result = allocate(state.positions, payment.amount, payment.valueDate, optionsOf(state), settledOn);
  await writeLines(ctx, state, payment.id, result.lines);
  if (result.credit > 0) {
    await ctx.tx.update(payments).set({ credit: result.credit }).where(eq(payments.id, payment.id));
  }
  await postAllocation(ctx, actor, state, payment, result.lines, payment.valueDate, 'payment');
  return saveRepayment(ctx, actor, state, result.positions, {
    totalPaid: state.row.totalPaid + payment.amount,
    credit: state.row.creditBalance + result.credit,
    settledOn,
    rescheduled: result.rescheduled,
    source: { type: 'payment', id: payment.id },
  });
}

async function writeLines(ctx: TxContext, state: RepaymentState, paymentId: string, lines: readonly Line[]) {
  if (!lines.length) return;
  await ctx.tx.insert(paymentAllocations).values(
    lines.map((line) => ({
      paymentId,
      contractId: state.row.id,
      scheduleVersion: state.row.scheduleVersion,
      installmentNumber: line.installmentNumber,
      component: line.component,
      amount: line.amount,
    })),
  );
}

const INCOME_ACCOUNT: Record<Line['component'], string> = {
  principal: ACCOUNTS.loansReceivable,
  interest: ACCOUNTS.interestIncome,
  fee: ACCOUNTS.serviceFeeIncome,
  penalty: ACCOUNTS.penaltyIncome,
  credit: ACCOUNTS.customerCredit,
};

/**
 * The journal entry of a payment's allocation: the money in (cash, bank or mobile money by
 * method) against each component; `reversal` mirrors it. Until accrual postings exist (close of
 * business), interest, fees and penalties are income when paid. Null when the lines are empty.
 * Single payments post it with `post`, statement imports many at once with `postMany`.
 */
export function allocationPosting(
  state: Pick<RepaymentState, 'row'>,
  payment: { id: string; method: string },
  lines: readonly Line[],
  date: string,
  kind: 'payment' | 'payment.reversal',
): Posting | null {
  const byAccount = new Map<string, number>();
  let total = 0;
  for (const line of lines) {
    const account = INCOME_ACCOUNT[line.component];
    byAccount.set(account, (byAccount.get(account) ?? 0) + line.amount);
    total += line.amount;
  }
  if (total === 0) return null;
  const { row } = state;
  const parties = { contractId: row.id, customerId: row.customerId };
  const reversal = kind === 'payment.reversal';
  const cash: PostingLine = { account: cashAccountFor(payment.method), ...parties };
  const legs: PostingLine[] = [...byAccount].map(([account, amount]) => ({
    account,
    ...parties,
    ...(reversal ? { debit: amount } : { credit: amount }),
  }));
  return {
    businessDate: date,
    description: `${reversal ? 'Reversal of payment' : 'Payment'} on ${row.number}`,
    sourceType: kind,
    sourceId: payment.id,
    currency: row.currency,
    lines: [{ ...cash, ...(reversal ? { credit: total } : { debit: total }) }, ...legs],
  };
}

async function postAllocation(
  ctx: TxContext,
  actor: Actor,
  state: RepaymentState,
  payment: { id: string; method: string },
  lines: readonly Line[],
  date: string,
  kind: 'payment' | 'payment.reversal',
): Promise<void> {
  const posting = allocationPosting(state, payment, lines, date, kind);
  if (posting) await post(ctx.tx, actor, posting);
}

interface PostedRow {
  id: string;
  amount: number;
  method: string;
  value_date: string;
  status: string;
  lines: Line[] | null;
}

/**
 * Re-runs the contract's allocation from the earliest point a change touches (a back-dated
 * payment, a reversal, a transfer): every posted payment from there is allocated again, in value
 * date order, on the positions as they stood before it. A payment whose lines change keeps its
 * old lines as history (superseded) and its old journal entry is reversed before the new one is
 * posted, dated today; a reversed payment's lines are superseded and its entry reversed. The
 * contract's figures and the device are then brought up to date. A principal-reduction contract
 * whose schedule a prepayment re-amortised cannot be re-run (its original dues are gone): 409.
 */
export async function rerunAllocation(
  ctx: TxContext,
  actor: Actor,
  state: RepaymentState,
  source: { type: string; id: string },
): Promise<RepaymentOutcome> {
  const { row } = state;
  if (optionsOf(state).strategy === 'principal_reduction' && (await wasReamortised(ctx, row.id))) {
    throw conflict(
      `${row.number}'s schedule was shortened by a prepayment; a back-dated payment or a correction cannot be re-run on it. Restructure the contract instead.`,
      'PAYMENT_STATE',
    );
  }
  // Every payment of the contract with its current lines, in allocation order; the re-run starts
  // at the first one that is not posted with lines matching its place (the new or reversed one).
  const rows = await queryRows<PostedRow>(
    ctx.tx,
    sql`SELECT p.id, p.amount, p.method, p.value_date::text AS value_date, p.status,
        (SELECT json_agg(json_build_object('installmentNumber', a.installment_number, 'component', a.component, 'amount', a.amount) ORDER BY a.id)
           FROM ${paymentAllocations} a WHERE a.payment_id = p.id AND a.superseded_at IS NULL) AS lines
      FROM ${payments} p
      WHERE p.contract_id = ${row.id} AND p.method <> 'deposit' AND p.status IN ('posted', 'reversed')
      ORDER BY p.value_date, p.received_at, p.id`,
  );
  const start = rows.findIndex((p) => (p.status === 'posted') !== (p.lines !== null && p.lines.length > 0));
  if (start < 0) throw new Error(`Re-run on ${row.number} found nothing to re-run`);
  const tail = rows.slice(start);
  // The positions before the tail: the current ones less what the tail's current lines paid.
  let positions = clonePositions(state.positions);
  const byN = new Map(positions.map((p) => [p.n, p]));
  let credit = state.row.creditBalance;
  const settledOn = new Map<number, string | null>();
  for (const payment of tail) {
    for (const line of payment.lines ?? []) {
      if (line.component === 'credit') {
        credit -= line.amount;
        continue;
      }
      const p = byN.get(line.installmentNumber ?? -1);
      if (!p)
        throw new Error(`Allocation line for missing instalment ${line.installmentNumber} on ${row.number}`);
      p.paid[line.component] -= line.amount;
      if (!isSettled(p)) settledOn.set(p.n, null);
    }
  }
  const options = optionsOf(state);
  const now = ctx.clock.now();
  let rescheduled = false;
  let totalPaid = state.row.totalPaid;
  for (const payment of tail) {
    const old = payment.lines ?? [];
    if (payment.status !== 'posted') {
      if (old.length) {
        await supersede(ctx, payment.id, now);
        await postAllocation(ctx, actor, state, payment, old, state.today, 'payment.reversal');
        await ctx.tx.update(payments).set({ credit: 0 }).where(eq(payments.id, payment.id));
        totalPaid -= Number(payment.amount);
      }
      continue;
    }
    const result = allocate(positions, Number(payment.amount), payment.value_date, options, settledOn);
    positions = result.positions;
    rescheduled ||= result.rescheduled;
    credit += result.credit;
    if (sameLines(old, result.lines)) continue;
    if (old.length) {
      await supersede(ctx, payment.id, now);
      await postAllocation(ctx, actor, state, payment, old, state.today, 'payment.reversal');
    } else {
      totalPaid += Number(payment.amount);
    }
    await writeLines(ctx, state, payment.id, result.lines);
    await ctx.tx.update(payments).set({ credit: result.credit }).where(eq(payments.id, payment.id));
    // A newly posted payment's entry is dated by its value date; a re-posted one by today.
    await postAllocation(
      ctx,
      actor,
      state,
      payment,
      result.lines,
      old.length ? state.today : payment.value_date,
      'payment',
    );
  }
  return saveRepayment(ctx, actor, state, positions, { totalPaid, credit, settledOn, rescheduled, source });
}

async function supersede(ctx: TxContext, paymentId: string, at: Date): Promise<void> {
  await ctx.tx
    .update(paymentAllocations)
    .set({ supersededAt: at })
    .where(and(eq(paymentAllocations.paymentId, paymentId), isNull(paymentAllocations.supersededAt)));
}

function sameLines(a: readonly Line[], b: readonly Line[]): boolean {
  if (a.length !== b.length) return false;
  const key = (l: Line) => `${l.installmentNumber}|${l.component}|${l.amount}`;
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  return left.every((k, i) => k === right[i]);
}

/** A payment's current lines, for answers and receipts. */
export async function currentLines(
  ctx: Pick<TxContext, 'tx'> | { tx: TxContext['tx'] },
  paymentId: string,
): Promise<AllocationLineView[]> {
  const rows = await ctx.tx
    .select({
      installmentNumber: paymentAllocations.installmentNumber,
      component: paymentAllocations.component,
      amount: paymentAllocations.amount,
    })
    .from(paymentAllocations)
    .where(and(eq(paymentAllocations.paymentId, paymentId), isNull(paymentAllocations.supersededAt)))
    .orderBy(paymentAllocations.id);
  return rows;
}
