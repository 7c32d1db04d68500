import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { AllocationLineView, PaymentMethod, PaymentResult } from '../../../contracts/payments';
import { queryRows } from '../../../db/client';
import { paymentAllocations, payments } from '../../../db/schema';
import { runWrites, type Writes } from '../../../db/writes';
import {
  type AllocationOptions,
  allocatePayment,
  type Component,
  clonePositions,
  formatMoney,
  type InstallmentPosition,
  isSettled,
} from '../../../domain';
import { type Actor, auditInsertSql, writeAudit } from '../../audit';
import { businessDateOf } from '../../business-date';
import type { AppServices, Executor, TxContext } from '../../context';
import { conflict, fieldError } from '../../errors';
import { claimWrites, firstClaim, type IdempotentClaim, settleIdempotencyKey } from '../../idempotency';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { eventWrites } from '../contracts/events';
import { payingCustomerColumn } from '../contracts/parties';
import {
  applyRepayment,
  lockForRepayment,
  planRepayment,
  type RepaymentOutcome,
  type RepaymentState,
  type RepaymentTotals,
  repaymentWrites,
  saveRepayment,
  wasReamortised,
} from '../contracts/repayment';
import type { DeviceEffect } from '../contracts/repayment-device';
import { ACCOUNTS, cashAccountFor, type Posting, type PostingLine, postingWrites } from '../ledger/service';
import { agentNoticeWrites, notifyAgentOfPayment } from './notices';
import { deviceCommandOf } from './read';
import {
  allocatedPayment,
  findPaymentByReference,
  type NewPayment,
  paymentWrites,
  paymentWritten,
} from './service';

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
  /** The answer, built from what was written (decision 022), when the payment was the newest; else read it. */
  answer: PaymentResult | null;
}

/** One allocation line as stored (the credit line has no instalment). */
export interface Line {
  installmentNumber: number | null;
  component: Component | 'credit';
  amount: number;
}

/** A payment request before anything is read: who asks, what, its id, its idempotency claim and its dates. */
export interface PaymentRequest {
  actor: Actor;
  input: PaymentInput;
  paymentId: string;
  /** The request without its key, as the audit row records it. */
  request: Omit<PaymentInput, 'idempotencyKey'>;
  claim: IdempotentClaim | null;
  receivedAt: Date;
  valueDate: string;
  postedAt: Date;
  /** What the contract's statement reads beside it: a later payment, the reference's payment, the customer. */
  columns: (c: SQL) => SQL[];
}

export async function requestOf(
  ctx: AppServices,
  executor: Executor,
  actor: Actor,
  input: PaymentInput,
): Promise<PaymentRequest> {
  const paymentId = newId();
  const { idempotencyKey, ...request } = input;
  const claim = idempotencyKey
    ? {
        operation: 'payment.create' as const,
        key: idempotencyKey,
        request: fingerprintOf(request),
        resourceId: paymentId,
      }
    : null;
  const org = await organisation(ctx, executor);
  const receivedAt = input.receivedAt ? new Date(input.receivedAt) : ctx.clock.now();
  const valueDate = businessDateOf(receivedAt, org);
  return {
    actor,
    input,
    paymentId,
    request,
    claim,
    receivedAt,
    valueDate,
    postedAt: ctx.clock.now(),
    columns: (c) => [
      sql`${laterPayment(c, paymentId, valueDate, receivedAt)} AS later`,
      sql`${input.reference ? paymentByReference(input.method, input.reference) : sql`NULL::json`} AS earlier`,
      sql`${payingCustomerColumn(c)} AS customer`,
    ],
  };
}

/** The paying customer's name and agent, as `payingCustomerColumn` reads them beside the contract. */
export function customerOf(beside: Record<string, unknown>): { name: string | null; agent: string | null } {
  const [name, agent] = (beside.customer ?? [null, null]) as [string | null, string | null];
  return { name, agent };
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
 * The usual payment (the newest on its contract, no move, no controlled unit) is two statements
 * and the audit row (decision 022): the key's claim, the contract's lock and everything the
 * payment reads in one; every write in another.
 */
export async function postPayment(ctx: TxContext, actor: Actor, input: PaymentInput): Promise<Posted> {
  const asked = await requestOf(ctx, ctx.tx, actor, input);
  const { paymentId, claim, receivedAt } = asked;
  const locked = await lockForRepayment(ctx, input.contractId, {
    ...(claim ? { writes: claimWrites(ctx, claim) } : {}),
    columns: asked.columns,
  });
  const replayed = (id: string): Posted => ({ paymentId: id, created: false, outcome: null, answer: null });
  if (claim && !locked.beside.claimed) return replayed(await firstClaim(ctx, claim));
  const state = locked.state('payment');
  // A replay by reference: the same payment again, or a 409 when the reference paid for another.
  const replay = async (earlier: { id: string; contractId: string | null; amount: number }) => {
    if (earlier.contractId !== input.contractId || earlier.amount !== input.amount) {
      throw conflict(
        `Reference ${input.reference} was already used for another ${input.method.replace('_', ' ')} payment; check the reference`,
        'REFERENCE_USED',
      );
    }
    if (claim) await settleIdempotencyKey(ctx, claim, earlier.id);
    return replayed(earlier.id);
  };
  // Taken since the read: the same reference sent to another contract at the same moment (not
  // serialised by this contract's lock) won the unique index, and this payment wrote nothing.
  const raced = async () => {
    const earlier = input.reference
      ? await findPaymentByReference(ctx.tx, input.method, input.reference)
      : undefined;
    if (!earlier) throw new Error(`Payment ${paymentId} was not written and no payment holds its reference`);
    return replay(earlier);
  };
  const earlier = locked.beside.earlier as [string, string | null, number] | null;
  if (earlier) return replay({ id: earlier[0], contractId: earlier[1], amount: Number(earlier[2]) });
  checkReceivedAt(ctx, state, receivedAt);
  const recorded = recordedOf(asked);
  const backDated = locked.beside.later === true;
  let outcome: RepaymentOutcome;
  let answer: PaymentResult | null = null;
  if (backDated) {
    const written = await runWrites<{ receipt_number: string | null }>(ctx.tx, [
      paymentWrites(paymentOf(state, asked), 'posted', { ifReferenceFree: true }),
    ]);
    if (!written.receipt_number) return raced();
    outcome = (await allocateRecorded(ctx, actor, state, recorded, true)).outcome;
    await writeAudit(ctx.tx, actor, auditedOf(asked, true));
  } else {
    const forward = allocateForward(ctx, actor, state, recorded);
    // The usual payment writes everything in one statement; one that moves the contract (paid
    // off), re-amortises or answers a controlled unit writes its payment, lines and entry there,
    // then the contract's side, timeline and notice as a correction or a suspense match does.
    const plain = isPlain(state, forward);
    const parts = plain
      ? plainWrites(ctx, state, asked, forward, customerOf(locked.beside).agent)
      : [
          paymentWrites({ ...paymentOf(state, asked), credit: forward.credit }, 'posted', {
            ifReferenceFree: true,
          }),
          ...forward.writes(paymentWritten),
        ];
    const written = await runWrites<{ receipt_number: string | null }>(ctx.tx, parts, { prepared: true });
    if (!written.receipt_number) return raced();
    outcome = await applyRepayment(ctx, actor, state, forward.plan, forward.totals, plain);
    // A plain payment's audit row went with its writes; the others' is written last.
    if (!plain) {
      await afterAllocation(ctx, actor, state, recorded, outcome, false);
      await writeAudit(ctx.tx, actor, auditedOf(asked, false));
    }
    answer = answerOf(state, asked, forward, outcome, written.receipt_number, customerOf(locked.beside).name);
  }
  return { paymentId, created: true, outcome, answer };
}

export type Forward = ReturnType<typeof allocateForward>;

/** A payment that moves nothing: no paid-off move, no re-amortised schedule, no unit to answer. */
function isPlain(state: RepaymentState, forward: Forward): boolean {
  return !forward.plan.move && !forward.totals.rescheduled && state.device?.controlKind === 'none';
}

export function recordedOf(asked: PaymentRequest): Recorded {
  const { paymentId: id, valueDate, receivedAt, input } = asked;
  return { id, amount: input.amount, method: input.method, valueDate, receivedAt };
}

export function auditedOf(asked: PaymentRequest, backDated: boolean) {
  const { receivedAt, valueDate } = asked;
  return {
    action: 'payment.create' as const,
    entityType: 'payment' as const,
    entityId: asked.paymentId,
    after: { ...asked.request, receivedAt: receivedAt.toISOString(), valueDate, backDated },
  };
}

export function paymentOf(state: RepaymentState, asked: PaymentRequest): NewPayment {
  const { row } = state;
  const { actor, input } = asked;
  return {
    id: asked.paymentId,
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
    receivedAt: asked.receivedAt,
    valueDate: asked.valueDate,
    postedBy: actor.id,
    postedAt: asked.postedAt,
  };
}

/**
 * Every write of a plain payment as the parts of one statement: the payment (only `when` holds,
 * and only if its reference is free), its lines and journal entry, the contract's figures and
 * instalments, the timeline, the agent's notice and the audit row (decision 023: one plain INSERT,
 * chained after commit by the sealer), each hanging on the payment's row.
 */
function plainWrites(
  ctx: TxContext,
  state: RepaymentState,
  asked: PaymentRequest,
  forward: Forward,
  agent: string | null,
  when?: SQL,
): Writes[] {
  const { actor, input } = asked;
  const payment = { ...paymentOf(state, asked), credit: forward.credit };
  return [
    paymentWrites(payment, 'posted', { ifReferenceFree: true, ...(when ? { when } : {}) }),
    ...forward.writes(paymentWritten),
    repaymentWrites(ctx, state, forward.plan, forward.totals.settledOn, paymentWritten),
    paymentEvent(ctx, actor, state, recordedOf(asked), NO_DEVICE_EFFECT, false, paymentWritten),
    ...agentNoticeWrites(
      ctx,
      agent,
      state.row,
      formatMoney(input.amount, state.row.currency),
      asked.paymentId,
      paymentWritten,
    ),
    { with: [sql`payment_audit AS (${auditInsertSql(actor, auditedOf(asked, false), paymentWritten)})`] },
  ];
}

/** The answer of a payment posted forward, built from what was written (decision 022). */
export function answerOf(
  state: RepaymentState,
  asked: PaymentRequest,
  forward: Forward,
  outcome: RepaymentOutcome,
  receiptNumber: string,
  customerName: string | null,
): PaymentResult {
  const { row } = state;
  const { actor, input } = asked;
  return {
    payment: {
      id: asked.paymentId,
      receiptNumber,
      contractId: row.id,
      contractNumber: row.number,
      customerId: row.customerId,
      customerName,
      amount: input.amount,
      currency: row.currency,
      method: input.method,
      provider: input.provider ?? input.method,
      reference: input.reference ?? null,
      accountReference: input.accountReference ?? null,
      receivedAt: asked.receivedAt.toISOString(),
      valueDate: asked.valueDate,
      status: 'posted',
      credit: forward.credit,
      postedByName: actor.id ? actor.name : null,
      postedAt: asked.postedAt.toISOString(),
      reversedAt: null,
      reversalReason: null,
      refunded: false,
      transferredFrom: input.transferredFrom ?? null,
      token: outcome.device.token,
      deviceCommand: deviceCommandOf(outcome.device.command, row.deviceId),
    },
    allocations: forward.lines.map((line) => ({ ...line })),
  };
}

export const NO_DEVICE_EFFECT: DeviceEffect = { token: null, command: null, activeUntil: null };

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
  payment: Recorded,
  backDated?: boolean,
): Promise<{ outcome: RepaymentOutcome; backDated: boolean }> {
  const { row } = state;
  const later = backDated ?? (await isBackDated(ctx, row.id, payment));
  let outcome: RepaymentOutcome;
  if (later) {
    outcome = await rerunAllocation(ctx, actor, state, { type: 'payment', id: payment.id });
  } else {
    const forward = allocateForward(ctx, actor, state, payment);
    await runWrites(ctx.tx, [
      {
        with: [
          sql`payment_credit AS (UPDATE ${payments} SET credit = ${forward.credit} WHERE id = ${payment.id})`,
        ],
      },
      ...forward.writes(sql`true`),
    ]);
    outcome = await applyRepayment(ctx, actor, state, forward.plan, forward.totals);
  }
  await afterAllocation(ctx, actor, state, payment, outcome, later);
  return { outcome, backDated: later };
}

/** A payment as allocation sees it. */
export interface Recorded {
  id: string;
  amount: number;
  method: string;
  valueDate: string;
  receivedAt: Date;
}

/** The timeline line of a payment (with what the device was told). */
function paymentEvent(
  ctx: TxContext,
  actor: Actor,
  state: RepaymentState,
  payment: Recorded,
  device: DeviceEffect,
  backDated: boolean,
  when?: SQL,
): Writes {
  const amount = formatMoney(payment.amount, state.row.currency);
  return eventWrites(
    ctx,
    state.row.id,
    actor,
    'payment',
    paymentReceivedText(amount, payment.method),
    { paymentId: payment.id, token: device.token, command: device.command, backDated },
    when,
  ).writes;
}

/** A payment's line on its contract's timeline (a single payment's, a batch's). */
export function paymentReceivedText(amount: string, method: string): string {
  return `Payment of ${amount} received (${method.replace('_', ' ')})`;
}

/** The timeline line and the agent's notice of an allocated payment, each in its own statement. */
async function afterAllocation(
  ctx: TxContext,
  actor: Actor,
  state: RepaymentState,
  payment: Recorded,
  outcome: RepaymentOutcome,
  backDated: boolean,
): Promise<void> {
  await runWrites(ctx.tx, [paymentEvent(ctx, actor, state, payment, outcome.device, backDated)]);
  await notifyAgentOfPayment(ctx, state.row, formatMoney(payment.amount, state.row.currency), payment.id);
}

/** The request as the idempotency fingerprint sees it (dates normalised). */
function fingerprintOf(request: Omit<PaymentInput, 'idempotencyKey'>): unknown {
  const { receivedAt, ...rest } = request;
  return { ...rest, receivedAt: receivedAt ? new Date(receivedAt).toISOString() : null };
}

export function checkReceivedAt(ctx: TxContext, state: RepaymentState, at: Date): void {
  if (at.getTime() > ctx.clock.now().getTime() + CLOCK_SKEW_MS)
    throw fieldError('receivedAt', 'receivedAt must not be in the future');
  const since = state.row.activatedAt;
  if (since && at.getTime() < since.getTime()) {
    throw fieldError(
      'receivedAt',
      `receivedAt must not be before the contract was activated (${since.toISOString()})`,
    );
  }
}

/** Whether another posted payment on the contract counts from later (this one then re-runs the allocation). */
async function isBackDated(ctx: TxContext, contractId: string, payment: Recorded): Promise<boolean> {
  const [row] = await queryRows<{ later: boolean }>(
    ctx.tx,
    sql`SELECT ${laterPayment(sql`${contractId}`, payment.id, payment.valueDate, payment.receivedAt, false)} AS later`,
  );
  return row?.later === true;
}

/** `isBackDated` as a column beside the contract's row `c` (or its id). */
function laterPayment(c: SQL, paymentId: string, valueDate: string, receivedAt: Date, row = true): SQL {
  return sql`EXISTS (SELECT 1 FROM ${payments} p WHERE p.contract_id = ${row ? sql`${c}.id` : c}
      AND ${allocatedPayment(sql`p`)} AND p.id <> ${paymentId}
      AND (p.value_date, p.received_at) > (${valueDate}::date, ${receivedAt.toISOString()}::timestamptz))`;
}

/** The payment holding a `(method, reference)`, as a JSON array column: id, contract, amount. */
function paymentByReference(method: string, reference: string): SQL {
  return sql`(SELECT json_build_array(p.id, p.contract_id, p.amount) FROM ${payments} p
    WHERE p.method = ${method} AND p.reference = ${reference})`;
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

/**
 * The usual case, the newest payment on the contract, allocated on the current positions: what it
 * changes on the contract (`plan`), and its lines and journal entry as parts of a statement.
 */
export function allocateForward(ctx: TxContext, actor: Actor, state: RepaymentState, payment: Recorded) {
  const settledOn = new Map<number, string | null>();
  const result = allocate(state.positions, payment.amount, payment.valueDate, optionsOf(state), settledOn);
  const totals: RepaymentTotals = {
    totalPaid: state.row.totalPaid + payment.amount,
    credit: state.row.creditBalance + result.credit,
    settledOn,
    rescheduled: result.rescheduled,
    source: { type: 'payment', id: payment.id },
  };
  return {
    lines: result.lines,
    credit: result.credit,
    totals,
    positions: result.positions,
    plan: planRepayment(ctx, state, result.positions, totals),
    writes: (when: SQL): Writes[] => [
      ...linesWrites(state, payment.id, result.lines, when),
      ...postingWritesOf(actor, state, payment, result.lines, payment.valueDate, 'payment', when),
    ],
  };
}

/** A payment's allocation lines as a part of a statement (none when there are none). */
function linesWrites(state: RepaymentState, paymentId: string, lines: readonly Line[], when: SQL): Writes[] {
  if (!lines.length) return [];
  const col = <T>(pick: (line: Line) => T) => sql.param(lines.map(pick));
  return [
    {
      with: [
        sql`payment_lines AS (
          INSERT INTO ${paymentAllocations} (payment_id, contract_id, schedule_version, installment_number, component, amount)
          SELECT ${paymentId}, ${state.row.id}, ${state.row.scheduleVersion}::int, v.n, v.component, v.amount
          FROM unnest(${col((l) => l.installmentNumber)}::int[], ${col((l) => l.component)}::text[],
            ${col((l) => l.amount)}::bigint[]) WITH ORDINALITY AS v(n, component, amount, i)
          WHERE ${when} ORDER BY v.i)`,
      ],
    },
  ];
}

async function writeLines(ctx: TxContext, state: RepaymentState, paymentId: string, lines: readonly Line[]) {
  const parts = linesWrites(state, paymentId, lines, sql`true`);
  if (parts.length) await runWrites(ctx.tx, parts);
}

const COMPONENT_ACCOUNT: Record<Line['component'], string> = {
  principal: ACCOUNTS.loansReceivable,
  interest: ACCOUNTS.interestIncome,
  fee: ACCOUNTS.serviceFeeIncome,
  // Penalties are income when the close of business charges them (decision 026): paying one
  // settles the receivable it was charged to.
  penalty: ACCOUNTS.penaltiesReceivable,
  credit: ACCOUNTS.customerCredit,
};

/** Whether the contract's interest is earned by daily accrual (decision 026) rather than when paid. */
export function onInterestAccrual(state: Pick<RepaymentState, 'row' | 'org'>): boolean {
  const from = state.org.interestAccrualFrom;
  return from !== null && state.row.startDate >= from;
}

/**
 * The journal entry of a payment's allocation: the money in (cash, bank or mobile money by
 * method) against each component; `reversal` mirrors it. Fees are income when paid; penalties
 * settle the receivable the close of business charged; interest is income when paid, or settles
 * the accrued receivable on a contract under interest accrual (decision 026). Null when the lines
 * are empty. Single payments post it with `post`, statement imports many at once with `postMany`.
 */
export function allocationPosting(
  state: Pick<RepaymentState, 'row' | 'org'>,
  payment: { id: string; method: string },
  lines: readonly Line[],
  date: string,
  kind: 'payment' | 'payment.reversal',
): Posting | null {
  const byAccount = new Map<string, number>();
  let total = 0;
  for (const line of lines) {
    const account =
      line.component === 'interest' && onInterestAccrual(state)
        ? ACCOUNTS.interestReceivable
        : COMPONENT_ACCOUNT[line.component];
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

function postingWritesOf(
  actor: Actor,
  state: RepaymentState,
  payment: { id: string; method: string },
  lines: readonly Line[],
  date: string,
  kind: 'payment' | 'payment.reversal',
  when: SQL,
): Writes[] {
  const posting = allocationPosting(state, payment, lines, date, kind);
  return posting ? [postingWrites(actor, posting, when).writes] : [];
}

async function postAllocation(
  ctx: TxContext,
  actor: Actor,
  ...entry: [
    RepaymentState,
    { id: string; method: string },
    readonly Line[],
    string,
    'payment' | 'payment.reversal',
  ]
): Promise<void> {
  const parts = postingWritesOf(actor, ...entry, sql`true`);
  if (parts.length) await runWrites(ctx.tx, parts);
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
