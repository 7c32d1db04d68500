import type { FastifyRequest } from 'fastify';
import type { C2bCallback, C2bResult } from '../../../../contracts/payments';
import type { Organisation } from '../../../../contracts/profile';
import { MAX_MONEY_INPUT, parseMoney } from '../../../../domain';
import type { Actor } from '../../../audit';
import type { Config } from '../../../config';
import type { Clock, TxContext } from '../../../context';
import { AppError, fieldError } from '../../../errors';
import { organisation } from '../../../organisation';
import { savepoint } from '../../../transaction';
import { findContractForReference } from '../../contracts/references';
import { postPayment } from '../posting';
import { duplicatePayment, findPaymentByReference } from '../service';
import { recordSuspense } from '../suspense';
import { instantOfProviderTime } from './time';

/** The provider name on payments that came through M-Pesa. */
export const MPESA = 'mpesa';

export const ACCEPTED: C2bResult = { ResultCode: 0, ResultDesc: 'Accepted' };

/** Who records what the provider sends: no user; the audit row names M-Pesa and the caller. */
export function mpesaActor(request?: Pick<FastifyRequest, 'ip' | 'id'>): Actor {
  return {
    id: null,
    label: 'mpesa',
    name: 'M-Pesa',
    ip: request?.ip ?? null,
    requestId: request ? String(request.id) : null,
  };
}

/** A C2B payment as read: minor units, the instant, the account reference. */
export interface C2bPayment {
  transId: string;
  amount: number;
  receivedAt: Date;
  accountReference: string | null;
}

/** Reads an amount in major units ("150.00") into the organisation's minor units; a 400 names the field. */
export function providerAmount(text: string, currency: string, field: string): number {
  let amount: number;
  try {
    amount = parseMoney(text, currency, field);
  } catch (error) {
    throw fieldError(field, error instanceof Error ? error.message : `${field} is not an amount`);
  }
  if (amount <= 0) throw fieldError(field, `${field} must be more than 0`);
  if (amount > MAX_MONEY_INPUT)
    throw fieldError(field, `${field} is larger than any payment this system takes`);
  return amount;
}

/** The instant of a provider time; one a little ahead of our clock (the provider's) counts as now. */
export function providerInstant(text: string, org: Organisation, clock: Clock, field: string): Date {
  const at = instantOfProviderTime(text, org.timeZone);
  if (!at) throw fieldError(field, `${field} must be a real time, YYYYMMDDHHmmss`);
  const now = clock.now();
  return at.getTime() > now.getTime() ? now : at;
}

export function readC2b(body: C2bCallback, org: Organisation, clock: Clock): C2bPayment {
  return {
    transId: body.TransID,
    amount: providerAmount(body.TransAmount, org.currency, 'TransAmount'),
    receivedAt: providerInstant(body.TransTime, org, clock, 'TransTime'),
    accountReference: body.BillRefNumber?.trim() || null,
  };
}

/**
 * The C2B validation callback (called before the payer is charged, when the paybill has external
 * validation on): a bad amount or another paybill's short code is refused with Daraja's codes;
 * anything else is accepted, an unmatched reference included, since the suspense queue is where
 * finance staff give it a contract (decision 020). Writes nothing.
 */
export async function validateC2b(
  ctx: Pick<TxContext, 'clock'> & { config: Config },
  org: Organisation,
  body: C2bCallback,
): Promise<C2bResult> {
  const shortCode = ctx.config.MPESA_SHORTCODE;
  if (shortCode && body.BusinessShortCode && body.BusinessShortCode !== shortCode)
    return { ResultCode: 'C2B00015', ResultDesc: 'Rejected' };
  try {
    providerAmount(body.TransAmount, org.currency, 'TransAmount');
  } catch {
    return { ResultCode: 'C2B00013', ResultDesc: 'Rejected' };
  }
  return ACCEPTED;
}

export type Received =
  | { outcome: 'posted'; paymentId: string }
  | { outcome: 'suspense'; paymentId: string; reason: string }
  | { outcome: 'duplicate'; paymentId: string | null };

export interface MobileMoneyIn {
  /** The contract it is for, when known (an STK push); otherwise matched on the account reference. */
  contractId?: string | null;
  amount: number;
  reference: string;
  receivedAt: Date;
  accountReference: string | null;
  payload: unknown;
}

/**
 * Takes mobile money the provider confirmed, in the caller's transaction, exactly once per
 * reference (the M-Pesa receipt, TransID): a reference already recorded is a duplicate and writes
 * nothing; a concurrent delivery of the same reference loses the race on the unique index, under
 * a savepoint, and is a duplicate too. The money is posted to the contract its account reference
 * names (or the push's contract); when none takes it (unmatched, ambiguous, not live, or the
 * contract refuses it) it is held in suspense. Money the provider took is never refused.
 */
export async function receiveMobileMoney(
  ctx: TxContext,
  actor: Actor,
  input: MobileMoneyIn,
): Promise<Received> {
  const duplicate = async (): Promise<Received> => ({
    outcome: 'duplicate',
    paymentId: (await findPaymentByReference(ctx.tx, 'mobile_money', input.reference))?.id ?? null,
  });
  if (await findPaymentByReference(ctx.tx, 'mobile_money', input.reference)) return duplicate();
  const org = await organisation(ctx, ctx.tx);
  let contractId = input.contractId ?? null;
  let reason = 'no contract named';
  if (!contractId) {
    const match = await findContractForReference(ctx.tx, input.accountReference, org.country);
    if (match.contractId === null) reason = match.reason;
    else contractId = match.contractId;
  }
  if (contractId) {
    const target = contractId;
    try {
      const posted = await savepoint(ctx, (inner) =>
        postPayment(inner, actor, {
          contractId: target,
          amount: input.amount,
          method: 'mobile_money',
          provider: MPESA,
          reference: input.reference,
          receivedAt: input.receivedAt,
          accountReference: input.accountReference,
          payload: input.payload,
        }),
      );
      return posted.created ? { outcome: 'posted', paymentId: posted.paymentId } : duplicate();
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      if (error.code === 'REFERENCE_USED') return duplicate();
      reason = `the contract refused it: ${error.message}`;
      ctx.log.warn(
        { reference: input.reference, code: error.code },
        'mobile money held in suspense: %s',
        reason,
      );
    }
  }
  try {
    const paymentId = await savepoint(ctx, (inner) =>
      recordSuspense(inner, actor, {
        amount: input.amount,
        currency: org.currency,
        method: 'mobile_money',
        provider: MPESA,
        reference: input.reference,
        receivedAt: input.receivedAt,
        accountReference: input.accountReference,
        payload: input.payload,
        reason,
      }),
    );
    return { outcome: 'suspense', paymentId, reason };
  } catch (error) {
    if (!duplicatePayment(error)) throw error;
    return duplicate();
  }
}
