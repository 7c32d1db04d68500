import { eq } from 'drizzle-orm';
import { contracts } from '../../../db/schema';
import { formatMoney } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import { businessDateOf } from '../../business-date';
import type { TxContext } from '../../context';
import { conflict, fieldError, unprocessable } from '../../errors';
import { claimIdempotencyKey, settleIdempotencyKey } from '../../idempotency';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { savepoint } from '../../transaction';
import { ACCOUNTS, cashAccountFor, post } from '../ledger/service';
import {
  depositReceived,
  duplicatePayment,
  findPaymentByReference,
  type PaymentByReference,
  recordPayment,
} from '../payments/service';
import { addEvent } from './events';
import { type ContractRow, lockContract } from './lifecycle';

export interface DepositInput {
  amount: number;
  channel: string;
  reference?: string | undefined;
  receivedAt?: string | undefined;
  idempotencyKey?: string | undefined;
}

/** A clock a little ahead of ours (a phone, a till) is not "the future"; an hour is. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Records (part of) the deposit as a payment of method `deposit`, before activation
 * (decision 015). Replays answer with the first payment and post nothing:
 * - the same `Idempotency-Key` with the same request, for this operation (another request with
 *   that key is a 409);
 * - the same reference on this contract and channel (a reference already used on another
 *   contract or channel is a 409 naming it: never silently dropped, never posted twice).
 * Deposits on one contract serialise on its row lock, so a replay racing the first waits for it
 * and answers with its result. Ledger: the cash in, held as customer credit until activation.
 */
export async function recordDeposit(
  ctx: TxContext,
  actor: Actor,
  id: string,
  input: DepositInput,
): Promise<{ paymentId: string; created: boolean }> {
  const { idempotencyKey, ...request } = input;
  const paymentId = newId();
  const claim = idempotencyKey
    ? { operation: 'contract.deposit' as const, key: idempotencyKey, request: { contractId: id, ...request } }
    : null;
  if (claim) {
    const first = await claimIdempotencyKey(ctx, { ...claim, resourceId: paymentId });
    if (first) return { paymentId: first, created: false };
  }
  const row = await lockContract(ctx, id);
  const replayOf = async (earlier: PaymentByReference) => {
    await refuseOtherUse(ctx, earlier, row, input);
    if (claim) await settleIdempotencyKey(ctx, claim, earlier.id);
    return { paymentId: earlier.id, created: false };
  };
  if (input.reference) {
    const earlier = await findPaymentByReference(ctx.tx, 'deposit', input.reference);
    if (earlier) return replayOf(earlier);
  }
  checkDeposit(ctx, row, input);
  const received = await depositReceived(ctx.tx, id);
  const missing = row.deposit - received;
  if (input.amount > missing) {
    const money = (value: number) => formatMoney(value, row.currency);
    throw unprocessable(
      missing === 0
        ? `The deposit of ${money(row.deposit)} is already received`
        : `The deposit is ${money(row.deposit)} and ${money(received)} is received: at most ${money(missing)} more`,
      'DEPOSIT_EXCEEDED',
    );
  }
  try {
    // Under a savepoint: the same reference sent to another contract at the same moment (not
    // serialised by this contract's lock) fails the unique index and leaves the transaction usable.
    await savepoint(ctx, (ctx) => postDeposit(ctx, actor, row, input, paymentId));
  } catch (error) {
    if (!duplicatePayment(error) || !input.reference) throw error;
    const earlier = await findPaymentByReference(ctx.tx, 'deposit', input.reference);
    if (!earlier) throw error;
    return replayOf(earlier);
  }
  return { paymentId, created: true };
}

async function refuseOtherUse(
  ctx: TxContext,
  earlier: PaymentByReference,
  row: ContractRow,
  input: DepositInput,
): Promise<void> {
  if (earlier.contractId === row.id && earlier.provider === input.channel) return;
  const [other] = earlier.contractId
    ? await ctx.tx
        .select({ number: contracts.number })
        .from(contracts)
        .where(eq(contracts.id, earlier.contractId))
    : [];
  const where = earlier.contractId === row.id ? 'this contract' : (other?.number ?? 'another contract');
  throw conflict(
    `Reference ${input.reference} was already used for a ${String(earlier.provider).replace('_', ' ')} deposit on ${where}; check the reference`,
    'REFERENCE_USED',
  );
}

/** The contract takes deposits, and the date received is neither ahead of us nor before the contract. */
function checkDeposit(ctx: TxContext, row: ContractRow, input: DepositInput): void {
  if (row.status !== 'draft' && row.status !== 'pending_approval') {
    throw conflict(
      `The deposit is taken before activation; ${row.number} is ${row.status.replace('_', ' ')}`,
    );
  }
  if (!input.receivedAt) return;
  const receivedAt = new Date(input.receivedAt).getTime();
  if (receivedAt > ctx.clock.now().getTime() + CLOCK_SKEW_MS)
    throw fieldError('receivedAt', 'receivedAt must not be in the future');
  if (receivedAt < row.createdAt.getTime())
    throw fieldError(
      'receivedAt',
      `receivedAt must not be before the contract was created (${row.createdAt.toISOString()})`,
    );
}

async function postDeposit(
  ctx: TxContext,
  actor: Actor,
  row: ContractRow,
  input: DepositInput,
  paymentId: string,
): Promise<void> {
  const { tx } = ctx;
  const org = await organisation(ctx, tx);
  const receivedAt = input.receivedAt ? new Date(input.receivedAt) : ctx.clock.now();
  await recordPayment(tx, {
    id: paymentId,
    contractId: row.id,
    customerId: row.customerId,
    amount: input.amount,
    currency: row.currency,
    method: 'deposit',
    provider: input.channel,
    reference: input.reference ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    receivedAt,
    postedBy: actor.id,
    postedAt: ctx.clock.now(),
  });
  await post(tx, actor, {
    businessDate: businessDateOf(receivedAt, org),
    description: `Deposit for ${row.number}`,
    sourceType: 'deposit',
    sourceId: paymentId,
    currency: row.currency,
    lines: [
      {
        account: cashAccountFor(input.channel),
        debit: input.amount,
        contractId: row.id,
        customerId: row.customerId,
      },
      {
        account: ACCOUNTS.customerCredit,
        credit: input.amount,
        contractId: row.id,
        customerId: row.customerId,
        memo: 'deposit held until activation',
      },
    ],
  });
  await addEvent(
    ctx,
    row.id,
    actor,
    'deposit',
    `Deposit of ${formatMoney(input.amount, row.currency)} received (${input.channel.replace('_', ' ')})`,
    { paymentId },
  );
  await writeAudit(tx, actor, {
    action: 'contract.deposit',
    entityType: 'payment',
    entityId: paymentId,
    after: { contractId: row.id, ...input },
  });
}
