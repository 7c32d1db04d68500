import { eq } from 'drizzle-orm';
import type { PaymentMethod } from '../../../contracts/payments';
import { payments } from '../../../db/schema';
import { formatMoney } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import { businessDateOf } from '../../business-date';
import type { TxContext } from '../../context';
import { conflict, notFound, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { openForRepayment } from '../contracts/repayment';
import { ACCOUNTS, cashAccountFor, post } from '../ledger/service';
import { allocateRecorded } from './posting';
import { recordPayment } from './service';

/**
 * The suspense queue (PRODUCT.md section 2: "a mobile-money payment whose account reference
 * matches no contract goes to the suspense queue; finance staff match it to a contract, which
 * posts it"). Accounting (decision 020): money held is debit mobile money (the method's cash account) / credit suspense (a
 * liability: it is the payer's until matched); matching moves it out of suspense (debit suspense,
 * credit mobile money) and the allocation's own entry then debits mobile money against the
 * contract's components, so the net is suspense to the components; a refund gives it back
 * (debit suspense, credit mobile money). The suspense account nets to zero once the queue is empty.
 */

export interface SuspenseInput {
  amount: number;
  currency?: string;
  /** Mobile money from callbacks; a statement import may hold other methods the same way. */
  method: Exclude<PaymentMethod, 'deposit'>;
  provider: string;
  reference: string;
  receivedAt: Date;
  accountReference: string | null;
  payload: unknown;
  /** Why no contract took it, for the audit row. */
  reason: string;
}

/**
 * Records a payment that names no live contract, in the caller's transaction. The caller catches
 * a duplicate reference (`duplicatePayment`) under a savepoint: the first delivery holds it.
 */
export async function recordSuspense(ctx: TxContext, actor: Actor, input: SuspenseInput): Promise<string> {
  const org = await organisation(ctx, ctx.tx);
  const id = newId();
  const currency = input.currency ?? org.currency;
  const valueDate = businessDateOf(input.receivedAt, org);
  await recordPayment(
    ctx.tx,
    {
      id,
      contractId: null,
      customerId: null,
      amount: input.amount,
      currency,
      method: input.method,
      provider: input.provider,
      reference: input.reference,
      accountReference: input.accountReference,
      receivedAt: input.receivedAt,
      valueDate,
      payload: input.payload ?? null,
    },
    'suspense',
  );
  await post(ctx.tx, actor, {
    businessDate: valueDate,
    description: `Unmatched ${input.provider} payment ${input.reference} held in suspense`,
    sourceType: 'payment.suspense',
    sourceId: id,
    currency,
    lines: [
      { account: cashAccountFor(input.method), debit: input.amount },
      { account: ACCOUNTS.suspense, credit: input.amount },
    ],
  });
  await writeAudit(ctx.tx, actor, {
    action: 'payment.suspense',
    entityType: 'payment',
    entityId: id,
    after: {
      amount: input.amount,
      currency,
      reference: input.reference,
      accountReference: input.accountReference,
      receivedAt: input.receivedAt.toISOString(),
      reason: input.reason,
    },
  });
  return id;
}

async function lockSuspense(ctx: TxContext, paymentId: string, what: 'matched' | 'refunded') {
  const [payment] = await ctx.tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
  if (!payment) throw notFound('Payment not found');
  if (payment.status !== 'suspense') {
    throw conflict(
      `Only a payment in suspense can be ${what}; ${payment.receiptNumber} is ${payment.status}${payment.refunded ? ' (refunded)' : ''}`,
      'PAYMENT_STATE',
    );
  }
  return payment;
}

/**
 * Matches a suspense payment to a live contract: under the payment's row lock (a second match or a
 * refund at the same moment waits, then finds it no longer in suspense: 409) and the contract's
 * (`openForRepayment`), the row is posted on the contract as received (its value date is its
 * receipt's, so a payment held for days is back-dated and re-runs the allocation), moved out of
 * suspense in the ledger, allocated, and audited.
 */
export async function matchSuspense(
  ctx: TxContext,
  actor: Actor,
  paymentId: string,
  request: { contractId: string; reason: string },
): Promise<void> {
  const payment = await lockSuspense(ctx, paymentId, 'matched');
  const state = await openForRepayment(ctx, request.contractId, 'payment');
  const { row } = state;
  if (payment.currency !== row.currency) {
    throw unprocessable(
      `The payment is in ${payment.currency} and ${row.number} in ${row.currency}; it cannot be matched there`,
      'PAYMENT_STATE',
    );
  }
  if (row.activatedAt && payment.receivedAt.getTime() < row.activatedAt.getTime()) {
    throw unprocessable(
      `The payment was received before ${row.number} was activated; match it to another contract or refund it`,
      'PAYMENT_STATE',
    );
  }
  const valueDate = businessDateOf(payment.receivedAt, state.org);
  const now = ctx.clock.now();
  await ctx.tx
    .update(payments)
    .set({
      status: 'posted',
      contractId: row.id,
      customerId: row.customerId,
      valueDate,
      postedBy: actor.id,
      postedAt: now,
    })
    .where(eq(payments.id, payment.id));
  const parties = { contractId: row.id, customerId: row.customerId };
  await post(ctx.tx, actor, {
    businessDate: state.today,
    description: `Suspense payment ${payment.receiptNumber} matched to ${row.number}`,
    sourceType: 'payment.match',
    sourceId: payment.id,
    currency: row.currency,
    lines: [
      { account: ACCOUNTS.suspense, debit: payment.amount, ...parties },
      { account: cashAccountFor(payment.method), credit: payment.amount, ...parties },
    ],
  });
  const { backDated } = await allocateRecorded(ctx, actor, state, {
    id: payment.id,
    amount: payment.amount,
    method: payment.method,
    valueDate,
    receivedAt: payment.receivedAt,
  });
  await writeAudit(ctx.tx, actor, {
    action: 'payment.match',
    entityType: 'payment',
    entityId: payment.id,
    before: { status: 'suspense', accountReference: payment.accountReference },
    after: {
      status: 'posted',
      contractId: row.id,
      contractNumber: row.number,
      amount: formatMoney(payment.amount, payment.currency),
      valueDate,
      backDated,
      reason: request.reason,
    },
  });
}

/**
 * Gives a suspense payment back to the payer (the money goes back out through the provider):
 * reversed and marked refunded, nothing deleted; the ledger takes it out of suspense.
 */
export async function refundSuspense(
  ctx: TxContext,
  actor: Actor,
  paymentId: string,
  reason: string,
): Promise<void> {
  const payment = await lockSuspense(ctx, paymentId, 'refunded');
  const org = await organisation(ctx, ctx.tx);
  const now = ctx.clock.now();
  await ctx.tx
    .update(payments)
    .set({
      status: 'reversed',
      refunded: true,
      reversedBy: actor.id,
      reversedAt: now,
      reversalReason: reason,
    })
    .where(eq(payments.id, payment.id));
  await post(ctx.tx, actor, {
    businessDate: businessDateOf(now, org),
    description: `Suspense payment ${payment.receiptNumber} refunded to the payer`,
    sourceType: 'payment.refund',
    sourceId: payment.id,
    currency: payment.currency,
    lines: [
      { account: ACCOUNTS.suspense, debit: payment.amount },
      { account: cashAccountFor(payment.method), credit: payment.amount },
    ],
  });
  await writeAudit(ctx.tx, actor, {
    action: 'payment.refund',
    entityType: 'payment',
    entityId: payment.id,
    before: { status: 'suspense' },
    after: { status: 'reversed', refunded: true, reason },
  });
}
