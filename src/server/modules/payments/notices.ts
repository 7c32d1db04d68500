import type { TxContext } from '../../context';
import type { ContractRow } from '../contracts/lifecycle';
import { customerOf } from '../contracts/parties';
import { notify } from '../notifications/service';

/** Tells the contract's agent (the customer's assigned agent, else whoever made the contract) that money came in. */
export async function notifyAgentOfPayment(
  ctx: TxContext,
  row: Pick<ContractRow, 'number' | 'customerId' | 'createdBy' | 'id'>,
  amount: string,
  paymentId: string,
): Promise<void> {
  const customer = await customerOf(ctx.tx, row.customerId);
  const agent = customer.assignedAgentId ?? row.createdBy;
  if (!agent) return;
  await notify(
    ctx,
    { userId: agent },
    {
      title: 'Payment received',
      message: `${amount} received on ${row.number}`,
      type: 'success',
      link: `/payment-processing/receipts/${paymentId}`,
      category: 'payments',
    },
  );
}
