import type { Contract } from '../../../contracts/contracts';
import type { Push } from '../../../contracts/payments';
import type { PortalContract, PortalPush, PortalToken } from '../../../contracts/portal';
import type { AppContext, Executor } from '../../context';
import { AppError, notFound } from '../../errors';
import { contractDetail } from '../contracts/detail';
import { ownContracts } from '../customer-service/data';
import { listTokens } from '../devices/tokens';
import { pushView } from '../payments/mobile-money/push';
import { paymentResult } from '../payments/read';

/**
 * What a signed-in customer may see, always by the session's customer id: their contracts (the
 * same set the customer-service assistant talks about), each checked before it is read. Another
 * customer's id answers 404 exactly as an unknown id does, so nothing tells them apart.
 */

const NOT_FOUND = 'Contract not found';

/** The other area's 404 as null (any other failure stays an error). */
const orNull = <T>(read: Promise<T>): Promise<T | null> =>
  read.catch((error: unknown) => {
    if (error instanceof AppError && error.statusCode === 404) return null;
    throw error;
  });

/** Whether the contract is one of this customer's. */
async function isOwnContract(executor: Executor, customerId: string, contractId: string): Promise<boolean> {
  const own = await ownContracts(executor, customerId);
  return own.some((contract) => contract.id === contractId);
}

/** Refuses (404) a contract that is not this customer's. */
export async function assertOwnContract(
  executor: Executor,
  customerId: string,
  contractId: string,
): Promise<void> {
  if (!(await isOwnContract(executor, customerId, contractId))) throw notFound(NOT_FOUND);
}

export async function portalContracts(ctx: AppContext, customerId: string): Promise<PortalContract[]> {
  const own = await ownContracts(ctx.db, customerId);
  return Promise.all(own.map((contract) => present(ctx, contract.id)));
}

export async function portalContract(
  ctx: AppContext,
  customerId: string,
  contractId: string,
): Promise<PortalContract> {
  await assertOwnContract(ctx.db, customerId, contractId);
  return present(ctx, contractId);
}

/** The device's latest unlock code on this contract (tokens of a unit's earlier contracts are not theirs). */
async function latestToken(ctx: AppContext, contract: Contract): Promise<PortalToken | null> {
  const tokens = await listTokens(ctx, contract.device.id);
  const latest = tokens.find((token) => token.contractId === contract.id);
  return latest
    ? { token: latest.token, type: latest.type, days: latest.days, issuedAt: latest.issuedAt }
    : null;
}

async function present(ctx: AppContext, contractId: string): Promise<PortalContract> {
  // No staff viewer: the customer's own phone is masked in what is shared with staff views.
  const contract = await contractDetail(ctx, contractId, null);
  const due = contract.schedule.reduce((sum, row) => sum + row.total, 0);
  const paid = contract.schedule.reduce((sum, row) => sum + Math.min(row.paid, row.total), 0);
  return {
    id: contract.id,
    number: contract.number,
    status: contract.status,
    currency: contract.currency,
    device: contract.device.model || null,
    frequency: contract.frequency,
    regularPayment: contract.regularPayment,
    totalPayable: contract.totalPayable,
    totalPaid: contract.totalPaid,
    creditBalance: contract.creditBalance,
    progress: due > 0 ? Math.min(1, paid / due) : 0,
    dpd: contract.dpd,
    outstanding: contract.outstanding,
    paidThroughDate: contract.paidThroughDate,
    nextDue: contract.nextDue,
    schedule: contract.schedule.map((row) => ({
      n: row.n,
      dueDate: row.dueDate,
      total: row.total,
      paid: row.paid,
      status: row.status,
    })),
    payments: contract.payments.map((payment) => ({
      id: payment.id,
      receiptNumber: payment.receiptNumber,
      amount: payment.amount,
      method: payment.method,
      reference: payment.reference,
      receivedAt: payment.receivedAt,
      status: payment.status,
    })),
    token: await latestToken(ctx, contract),
  };
}

/** A payment of this customer's (for its receipt), else 404. */
export async function assertOwnPayment(
  ctx: AppContext,
  customerId: string,
  paymentId: string,
): Promise<void> {
  const found = await orNull(paymentResult(ctx.db, paymentId));
  if (!found || found.payment.customerId !== customerId || found.payment.status === 'suspense')
    throw notFound('Payment not found');
}

/** A push on one of this customer's contracts, as they follow it; else 404. */
export async function portalPush(ctx: AppContext, customerId: string, pushId: string): Promise<PortalPush> {
  const push = await orNull(pushView(ctx.db, pushId));
  if (!push || !(await isOwnContract(ctx.db, customerId, push.contractId)))
    throw notFound('Payment request not found');
  return toPortalPush(push);
}

export function toPortalPush(push: Push): PortalPush {
  return {
    id: push.id,
    contractId: push.contractId,
    amount: push.amount,
    currency: push.currency,
    status: push.status,
    resultDesc: push.resultDesc,
    paymentId: push.paymentId,
    createdAt: push.createdAt,
    completedAt: push.completedAt,
  };
}
