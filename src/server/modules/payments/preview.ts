import type { z } from 'zod';
import type { paymentPreviewBody, paymentPreviewSchema } from '../../../contracts/payments';
import { allocatePayment } from '../../../domain';
import { businessDateOf } from '../../business-date';
import type { AppContext } from '../../context';
import { peekRepayment } from '../contracts/repayment';
import { figuresOf } from '../contracts/standing';
import { optionsOf } from './posting';

/** What a payment would do now: its allocation lines and the balance and paid-through after, nothing written. */
export async function previewPayment(
  ctx: AppContext,
  body: z.infer<typeof paymentPreviewBody>,
): Promise<z.infer<typeof paymentPreviewSchema>> {
  const state = await peekRepayment(ctx, body.contractId);
  const valueDate = body.receivedAt ? businessDateOf(new Date(body.receivedAt), state.org) : state.today;
  const result = allocatePayment(state.positions, body.amount, valueDate, optionsOf(state));
  const before = figuresOf(state.row, state.installments, state.org, state.today);
  const afterRows = state.installments.map((row) => {
    const p = result.installments.find((x) => x.n === row.n);
    return p
      ? {
          ...row,
          principalPaid: p.paid.principal,
          interestPaid: p.paid.interest,
          feePaid: p.paid.fee,
          penaltyPaid: p.paid.penalty,
          principalDue: p.due.principal,
          interestDue: p.due.interest,
          feeDue: p.due.fee,
        }
      : row;
  });
  const after = figuresOf(state.row, afterRows, state.org, state.today);
  const allocations = [
    ...result.lines,
    ...(result.credit > 0
      ? [{ installmentNumber: null, component: 'credit' as const, amount: result.credit }]
      : []),
  ];
  return {
    allocations,
    outstandingBefore: before.totalOutstanding,
    outstandingAfter: after.totalOutstanding,
    paidThroughBefore: before.paidThrough,
    paidThroughAfter: after.paidThrough,
    currency: state.row.currency,
  };
}
