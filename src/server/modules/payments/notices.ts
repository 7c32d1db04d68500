import type { SQL } from 'drizzle-orm';
import type { Writes } from '../../../db/writes';
import type { TxContext } from '../../context';
import type { ContractRow } from '../contracts/lifecycle';
import { agentsOfContracts, customerOf } from '../contracts/parties';
import { type NotificationInput, notificationWrites, notify } from '../notifications/service';

/** Tells the contract's agent (the customer's assigned agent, else whoever made the contract) that money came in. */
export async function notifyAgentOfPayment(
  ctx: TxContext,
  row: Pick<ContractRow, 'number' | 'customerId' | 'createdBy' | 'id'>,
  amount: string,
  paymentId: string,
): Promise<void> {
  const customer = await customerOf(ctx.tx, row.customerId);
  const agent = customer.assignedAgentId ?? row.createdBy;
  if (agent) await notify(ctx, { userId: agent }, paymentNotice(row, amount, paymentId));
}

/** The same as a part of the payment's one write (decision 022), for an agent already known. */
export function agentNoticeWrites(
  ctx: TxContext,
  agent: string | null,
  row: Pick<ContractRow, 'number'>,
  amount: string,
  paymentId: string,
  when: SQL,
): Writes[] {
  return agent
    ? [notificationWrites(ctx, { userId: agent }, paymentNotice(row, amount, paymentId), when)]
    : [];
}

/** The agent's notice of a payment as a row for `notifyFrom` (a batch of payments, decision 044). */
export function paymentNoticeRow(
  userId: string,
  row: Pick<ContractRow, 'number'>,
  amount: string,
  paymentId: string,
): { userId: string; title: string; message: string; type: string; link: string | null } {
  const notice = paymentNotice(row, amount, paymentId);
  return {
    userId,
    title: notice.title,
    message: notice.message,
    type: notice.type,
    link: notice.link ?? null,
  };
}

function paymentNotice(
  row: Pick<ContractRow, 'number'>,
  amount: string,
  paymentId: string,
): NotificationInput {
  return {
    title: 'Payment received',
    message: `${amount} received on ${row.number}`,
    type: 'success',
    link: `/payment-processing/receipts/${paymentId}`,
    category: 'payments',
  };
}

/** One notice per agent for a statement import's chunk: how many payments came in on their contracts. */
export async function notifyAgentsOfImport(
  ctx: TxContext,
  contractIds: readonly string[],
  importId: string,
): Promise<void> {
  const agents = await agentsOfContracts(ctx.tx, contractIds);
  const counts = new Map<string, number>();
  for (const agent of agents.values()) counts.set(agent, (counts.get(agent) ?? 0) + 1);
  for (const [agent, count] of counts) {
    await notify(
      ctx,
      { userId: agent },
      {
        title: 'Payments received',
        message: `A statement import posted payments on ${count} of your contract${count === 1 ? '' : 's'}`,
        type: 'success',
        link: `/payment-processing?tab=import&import=${importId}`,
        category: 'payments',
      },
    );
  }
}
