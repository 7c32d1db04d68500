import { eq, type SQL, sql } from 'drizzle-orm';
import type { Correction, CorrectionKind, PaymentHistory, PaymentLink } from '../../../contracts/payments';
import { queryRows } from '../../../db/client';
import { paymentCorrections, payments } from '../../../db/schema';
import { formatMoney } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { conflict, fieldError, forbidden, notFound } from '../../errors';
import { newId } from '../../ids';
import { addEvent } from '../contracts/events';
import { openForRepayment } from '../contracts/repayment';
import { notify, resolveTask } from '../notifications/service';
import { postPayment, rerunAllocation } from './posting';
import { selectPayments } from './read';

/**
 * Reversals and transfers of posted payments, with maker-checker (PRODUCT.md section 1): the
 * request records who asked and why; a second user with the payments permission approves or
 * rejects; the maker never approves. On approval the payment is reversed (nothing is deleted: its
 * status, who, when and why are kept, its lines superseded and its journal entry reversed) and the
 * contract's allocation re-runs from the payment's date; a transfer then posts the same money to
 * the other contract, dated as the original.
 */
export const correctionTask = (id: string) => `payment-correction:${id}`;

export async function requestCorrection(
  ctx: TxContext,
  actor: Actor,
  paymentId: string,
  request: { kind: CorrectionKind; reason: string; targetContractId?: string },
): Promise<string> {
  const [payment] = await ctx.tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
  if (!payment) throw notFound('Payment not found');
  if (payment.status !== 'posted' || payment.method === 'deposit' || !payment.contractId) {
    throw conflict(
      payment.method === 'deposit'
        ? 'A deposit is corrected through its contract, not reversed here'
        : `Only a posted payment can be ${request.kind === 'reverse' ? 'reversed' : 'transferred'}; ${payment.receiptNumber} is ${payment.status}`,
      'PAYMENT_STATE',
    );
  }
  if (request.kind === 'transfer' && request.targetContractId === payment.contractId) {
    throw fieldError('contractId', 'The payment is already on that contract; choose another one');
  }
  if (request.kind === 'transfer' && request.targetContractId) {
    // Refuses now (not at approval) a target that takes no payments.
    await openForRepayment(ctx, request.targetContractId, 'payment');
  }
  const id = newId();
  const inserted = await ctx.tx
    .insert(paymentCorrections)
    .values({
      id,
      paymentId,
      kind: request.kind,
      targetContractId: request.targetContractId ?? null,
      reason: request.reason,
      requestedBy: actor.id,
      requestedAt: ctx.clock.now(),
    })
    .onConflictDoNothing()
    .returning({ id: paymentCorrections.id });
  if (!inserted.length) {
    throw conflict(`${payment.receiptNumber} already has a correction awaiting approval`, 'PAYMENT_STATE');
  }
  const amount = formatMoney(payment.amount, payment.currency);
  await notify(
    ctx,
    { permission: 'payments.manage' },
    {
      title: request.kind === 'reverse' ? 'Reversal waiting for approval' : 'Transfer waiting for approval',
      message: `${payment.receiptNumber} (${amount}): ${request.reason}`,
      type: 'warning',
      link: '/payment-processing/reversals',
      category: 'approvals',
      task: correctionTask(id),
    },
  );
  await writeAudit(ctx.tx, actor, {
    action: request.kind === 'reverse' ? 'payment.reverse_request' : 'payment.transfer_request',
    entityType: 'payment_correction',
    entityId: id,
    after: { paymentId, ...request },
  });
  return id;
}

async function lockOpen(ctx: TxContext, actor: Actor, id: string) {
  const [row] = await ctx.tx
    .select()
    .from(paymentCorrections)
    .where(eq(paymentCorrections.id, id))
    .for('update');
  if (!row) throw notFound('Correction not found');
  if (row.status !== 'pending') throw conflict(`This correction is already ${row.status}`, 'PAYMENT_STATE');
  if (row.requestedBy === actor.id) {
    throw forbidden(
      'Whoever asked for a correction cannot approve or reject it; a second person must',
      'MAKER_CHECKER',
    );
  }
  return row;
}

export async function approveCorrection(
  ctx: TxContext,
  actor: Actor,
  id: string,
  note?: string,
): Promise<void> {
  const correction = await lockOpen(ctx, actor, id);
  const now = ctx.clock.now();
  const [payment] = await ctx.tx
    .select()
    .from(payments)
    .where(eq(payments.id, correction.paymentId))
    .for('update');
  if (!payment?.contractId || payment.status !== 'posted') {
    throw conflict('The payment is no longer posted; reject this correction', 'PAYMENT_STATE');
  }
  const state = await openForRepayment(ctx, payment.contractId, 'rerun');
  const reason = correction.kind === 'transfer' ? `Transferred: ${correction.reason}` : correction.reason;
  await ctx.tx
    .update(payments)
    .set({ status: 'reversed', reversedBy: actor.id, reversedAt: now, reversalReason: reason })
    .where(eq(payments.id, payment.id));
  await rerunAllocation(ctx, actor, state, { type: 'payment.reversal', id: payment.id });
  const amount = formatMoney(payment.amount, payment.currency);
  await addEvent(
    ctx,
    payment.contractId,
    actor,
    'payment_reversed',
    `Payment ${payment.receiptNumber} of ${amount} reversed: ${reason}`,
    {
      paymentId: payment.id,
      correctionId: id,
    },
  );
  if (correction.kind === 'transfer' && correction.targetContractId) {
    const moved = await postPayment(ctx, actor, {
      contractId: correction.targetContractId,
      amount: payment.amount,
      method: payment.method === 'deposit' ? 'adjustment' : payment.method,
      provider: payment.provider,
      accountReference: payment.reference ?? payment.accountReference,
      receivedAt: payment.receivedAt,
      transferredFrom: payment.id,
    });
    await addEvent(
      ctx,
      correction.targetContractId,
      actor,
      'payment_transferred',
      `Payment ${payment.receiptNumber} of ${amount} transferred here`,
      {
        paymentId: moved.paymentId,
        from: payment.id,
      },
    );
  }
  await ctx.tx
    .update(paymentCorrections)
    .set({ status: 'approved', decidedBy: actor.id, decidedAt: now, decisionNote: note ?? null })
    .where(eq(paymentCorrections.id, id));
  await resolveTask(ctx, correctionTask(id));
  await writeAudit(ctx.tx, actor, {
    action: 'payment.correction_approve',
    entityType: 'payment_correction',
    entityId: id,
    after: { paymentId: payment.id, kind: correction.kind, note: note ?? null },
  });
}

export async function rejectCorrection(
  ctx: TxContext,
  actor: Actor,
  id: string,
  note?: string,
): Promise<void> {
  await lockOpen(ctx, actor, id);
  await ctx.tx
    .update(paymentCorrections)
    .set({ status: 'rejected', decidedBy: actor.id, decidedAt: ctx.clock.now(), decisionNote: note ?? null })
    .where(eq(paymentCorrections.id, id));
  await resolveTask(ctx, correctionTask(id));
  await writeAudit(ctx.tx, actor, {
    action: 'payment.correction_reject',
    entityType: 'payment_correction',
    entityId: id,
    after: { note: note ?? null },
  });
}

interface CorrectionRow {
  id: string;
  kind: Correction['kind'];
  status: Correction['status'];
  reason: string;
  payment_id: string;
  target_contract_id: string | null;
  target_contract_number: string | null;
  requested_by: string | null;
  requested_by_name: string | null;
  requested_at: Date | string;
  decided_by_name: string | null;
  decided_at: Date | string | null;
  decision_note: string | null;
}

type CorrectionEntry = Omit<Correction, 'payment'> & { paymentId: string };

/** Corrections without their payments, in the order given (newest request first by default). */
async function correctionEntries(
  executor: Executor,
  where: SQL | undefined,
  limit: number,
  offset = 0,
  order: SQL = sql`r.requested_at DESC, r.id DESC`,
): Promise<CorrectionEntry[]> {
  const rows = await queryRows<CorrectionRow>(
    executor,
    sql`SELECT r.id, r.kind, r.status, r.reason, r.payment_id, r.target_contract_id,
        (SELECT number FROM contracts WHERE id = r.target_contract_id) AS target_contract_number,
        r.requested_by, (SELECT first_name || ' ' || last_name FROM users WHERE id = r.requested_by) AS requested_by_name,
        r.requested_at, (SELECT first_name || ' ' || last_name FROM users WHERE id = r.decided_by) AS decided_by_name,
        r.decided_at, r.decision_note
      FROM ${paymentCorrections} r ${where ? sql`WHERE ${where}` : sql``}
      ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    reason: r.reason,
    paymentId: r.payment_id,
    targetContractId: r.target_contract_id,
    targetContractNumber: r.target_contract_number,
    requestedBy: r.requested_by,
    requestedByName: r.requested_by_name,
    requestedAt: new Date(r.requested_at).toISOString(),
    decidedByName: r.decided_by_name,
    decidedAt: r.decided_at === null ? null : new Date(r.decided_at).toISOString(),
    decisionNote: r.decision_note,
  }));
}

/** Corrections with their payments, newest request first. */
export async function selectCorrections(
  executor: Executor,
  where: SQL | undefined,
  limit: number,
  offset = 0,
): Promise<Correction[]> {
  const entries = await correctionEntries(executor, where, limit, offset);
  if (!entries.length) return [];
  const ids = entries.map((r) => r.paymentId);
  const byId = new Map(
    (await selectPayments(executor, sql`payments.id IN ${ids}`, sql`payments.id`, ids.length)).map((p) => [
      p.id,
      p,
    ]),
  );
  return entries.map(({ paymentId, ...entry }) => {
    const payment = byId.get(paymentId);
    if (!payment) throw new Error(`Correction ${entry.id} names a missing payment`);
    return { ...entry, payment };
  });
}

/**
 * A payment's receipt history: every reversal or transfer asked for it, oldest first (who asked,
 * why, who decided), and the payment a transfer moved it from or to. A transfer's new payment is
 * found on its target contract (by the contract's index), so no index on `transferred_from` is needed.
 */
export async function paymentHistory(executor: Executor, id: string): Promise<PaymentHistory> {
  const [payment] = await executor
    .select({ transferredFrom: payments.transferredFrom })
    .from(payments)
    .where(eq(payments.id, id));
  if (!payment) throw notFound('Payment not found');
  const entries = await correctionEntries(
    executor,
    sql`r.payment_id = ${id}`,
    100,
    0,
    sql`r.requested_at, r.id`,
  );
  const link = async (where: SQL): Promise<PaymentLink | null> => {
    const [found] = await selectPayments(executor, where, sql`payments.received_at`, 1);
    return found
      ? {
          id: found.id,
          receiptNumber: found.receiptNumber,
          contractId: found.contractId,
          contractNumber: found.contractNumber,
          status: found.status,
        }
      : null;
  };
  const moved = entries.find((e) => e.kind === 'transfer' && e.status === 'approved' && e.targetContractId);
  return {
    corrections: entries.map(({ paymentId: _, ...entry }) => entry),
    transferredFrom: payment.transferredFrom
      ? await link(sql`payments.id = ${payment.transferredFrom}`)
      : null,
    transferredTo: moved
      ? await link(
          sql`payments.contract_id = ${moved.targetContractId} AND payments.transferred_from = ${id}`,
        )
      : null,
  };
}

export async function countCorrections(executor: Executor, where: SQL | undefined): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`SELECT count(*)::int AS n FROM ${paymentCorrections} r ${where ? sql`WHERE ${where}` : sql``}`,
  );
  return row?.n ?? 0;
}
