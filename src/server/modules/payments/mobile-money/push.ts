import { and, eq, gt, sql } from 'drizzle-orm';
import type { Push, PushBody, StkCallback } from '../../../../contracts/payments';
import { mobileMoneyPushes } from '../../../../db/schema';
import { formatMoney, minorUnitDigits } from '../../../../domain';
import { type Actor, writeAudit } from '../../../audit';
import type { Executor, TxContext } from '../../../context';
import { conflict, fieldError, notFound, unprocessable } from '../../../errors';
import { newId } from '../../../ids';
import { organisation } from '../../../organisation';
import { pushTarget } from '../../contracts/push-target';
import { normalisePhone } from '../../customers/phone';
import type { PushAccepted, PushRequest } from './provider';
import { providerAmount, providerInstant, receiveMobileMoney } from './receive';

/**
 * STK push ("pay now", PRODUCT.md section 7): staff ask the customer's phone to approve a payment
 * on a contract. The route records the push (`createPush`), asks the provider outside any
 * transaction, then stores its checkout id (`pushSent`) or its refusal (`pushRefused`). The
 * provider's result comes to `handleStkCallback`: a success takes the money like a C2B
 * confirmation (de-duplicated on the M-Pesa receipt), a failure is recorded on the push.
 */

type PushRow = typeof mobileMoneyPushes.$inferSelect;

/** How long a pending push keeps another one for its contract from being sent. */
const PENDING_BLOCKS_MS = 2 * 60_000;

export async function createPush(
  ctx: TxContext,
  actor: Actor,
  provider: string,
  body: PushBody & { amount: number },
  callbackUrl: string,
): Promise<{ id: string; request: PushRequest }> {
  const target = await pushTarget(ctx.tx, body.contractId);
  if (!target) throw notFound('Contract not found');
  if (!target.live) {
    throw unprocessable(
      `Payments are taken on active contracts; ${target.number} is ${target.status.replace('_', ' ')}`,
      'CONTRACT_NOT_ACTIVE',
    );
  }
  const org = await organisation(ctx, ctx.tx);
  const phone = normalisePhone(body.phone ?? target.customerPhone, org.country, 'phone');
  const unit = 10 ** minorUnitDigits(target.currency);
  if (body.amount % unit !== 0)
    throw fieldError(
      'amount',
      `M-Pesa takes whole amounts: ${formatMoney(body.amount, target.currency)} is not one`,
    );
  // One request waiting on a phone at a time per contract: a second press (the portal's pay now,
  // a staff double click) would ask the customer twice. Serialised per contract, so two at once
  // cannot both pass; a push left pending by a lost callback stops blocking after two minutes.
  await ctx.tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`mobile-money-push:${target.id}`}))`);
  const since = new Date(ctx.clock.now().getTime() - PENDING_BLOCKS_MS);
  const [waiting] = await ctx.tx
    .select({ id: mobileMoneyPushes.id })
    .from(mobileMoneyPushes)
    .where(
      and(
        eq(mobileMoneyPushes.contractId, target.id),
        eq(mobileMoneyPushes.status, 'pending'),
        gt(mobileMoneyPushes.createdAt, since),
      ),
    )
    .limit(1);
  if (waiting)
    throw conflict(
      `A payment request for ${target.number} is already waiting on the phone: confirm or cancel it there, or try again in two minutes`,
      'PUSH_PENDING',
    );
  const id = newId();
  await ctx.tx.insert(mobileMoneyPushes).values({
    id,
    contractId: target.id,
    phone,
    amount: body.amount,
    provider,
    status: 'pending',
    requestedBy: actor.id,
    createdAt: ctx.clock.now(),
  });
  await writeAudit(ctx.tx, actor, {
    action: 'payment.push',
    entityType: 'contract',
    entityId: target.id,
    after: { pushId: id, phone, amount: body.amount, provider },
  });
  return {
    id,
    request: {
      phone,
      amount: body.amount,
      currency: target.currency,
      accountReference: target.number,
      description: `Pay ${target.number}`,
      callbackUrl,
      timeZone: org.timeZone,
    },
  };
}

/** The provider took the push: its checkout id is how its callback finds it. */
export async function pushSent(ctx: TxContext, id: string, accepted: PushAccepted): Promise<void> {
  await ctx.tx
    .update(mobileMoneyPushes)
    .set({ checkoutRequestId: accepted.checkoutRequestId })
    .where(eq(mobileMoneyPushes.id, id));
}

/** The provider refused the push or could not be reached. */
export async function pushRefused(ctx: TxContext, id: string, message: string): Promise<void> {
  await ctx.tx
    .update(mobileMoneyPushes)
    .set({ status: 'failed', resultDesc: message.slice(0, 500), completedAt: ctx.clock.now() })
    .where(eq(mobileMoneyPushes.id, id));
}

/**
 * The provider's result for a push, in the caller's transaction, under the push's row lock (a
 * repeated callback waits and then finds it settled: nothing more is written). An unknown
 * CheckoutRequestID writes nothing ('unknown'; the route still answers Accepted and logs it).
 */
export async function handleStkCallback(
  ctx: TxContext,
  actor: Actor,
  body: StkCallback,
): Promise<'done' | 'unknown' | 'repeat'> {
  const callback = body.Body.stkCallback;
  const [push] = await ctx.tx
    .select()
    .from(mobileMoneyPushes)
    .where(eq(mobileMoneyPushes.checkoutRequestId, callback.CheckoutRequestID))
    .for('update');
  if (!push) return 'unknown';
  if (push.status !== 'pending') return 'repeat';
  const now = ctx.clock.now();
  if (callback.ResultCode !== 0) {
    await ctx.tx
      .update(mobileMoneyPushes)
      .set({
        status: 'failed',
        resultCode: callback.ResultCode,
        resultDesc: callback.ResultDesc?.slice(0, 500) ?? null,
        completedAt: now,
      })
      .where(eq(mobileMoneyPushes.id, push.id));
    return 'done';
  }
  const items = new Map((callback.CallbackMetadata?.Item ?? []).map((item) => [item.Name, item.Value]));
  const receipt = items.get('MpesaReceiptNumber');
  const paid = items.get('Amount');
  const field = 'Body.stkCallback.CallbackMetadata';
  if (typeof receipt !== 'string' || !/^[A-Za-z0-9]{1,40}$/.test(receipt))
    throw fieldError(field, 'A successful result must carry its MpesaReceiptNumber');
  if (paid === undefined) throw fieldError(field, 'A successful result must carry its Amount');
  const org = await organisation(ctx, ctx.tx);
  const amount = providerAmount(String(paid), org.currency, `${field}.Amount`);
  const date = items.get('TransactionDate');
  const receivedAt =
    date === undefined ? now : providerInstant(String(date), org, ctx.clock, `${field}.TransactionDate`);
  const target = await pushTarget(ctx.tx, push.contractId);
  const received = await receiveMobileMoney(ctx, actor, {
    contractId: push.contractId,
    amount,
    reference: receipt,
    receivedAt,
    accountReference: target?.number ?? null,
    payload: body,
  });
  await ctx.tx
    .update(mobileMoneyPushes)
    .set({
      status: 'succeeded',
      resultCode: 0,
      resultDesc: callback.ResultDesc?.slice(0, 500) ?? null,
      paymentId: received.paymentId,
      completedAt: now,
    })
    .where(eq(mobileMoneyPushes.id, push.id));
  return 'done';
}

/** A push as staff poll it. */
export async function pushView(executor: Executor, id: string): Promise<Push> {
  const [row] = await executor.select().from(mobileMoneyPushes).where(eq(mobileMoneyPushes.id, id));
  if (!row) throw notFound('Push not found');
  const target = await pushTarget(executor, row.contractId);
  return toPush(row, target?.number ?? null, target?.currency ?? '');
}

function toPush(row: PushRow, contractNumber: string | null, currency: string): Push {
  return {
    id: row.id,
    contractId: row.contractId,
    contractNumber,
    phone: row.phone,
    amount: row.amount,
    currency,
    provider: row.provider,
    checkoutRequestId: row.checkoutRequestId,
    status: row.status,
    resultCode: row.resultCode,
    resultDesc: row.resultDesc,
    paymentId: row.paymentId,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
  };
}
