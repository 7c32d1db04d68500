import { and, eq, sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { payments } from '../../../db/schema';
import type { Executor } from '../../context';
import { nextNumber } from '../../numbers';
import { uniqueViolation } from '../../unique';

/**
 * The payments area: it alone writes the `payments` table (others record payments through it).
 * Posting and allocation are in `posting.ts`, corrections in `corrections.ts`, reads here.
 */

type PaymentRow = typeof payments.$inferInsert;

/** What a caller records; the receipt number and the posted status are the area's own. */
export type NewPayment = Omit<PaymentRow, 'receiptNumber' | 'status' | 'createdAt'> & { id: string };

/**
 * Records a payment with the next receipt number, in the caller's transaction: posted, or held in
 * the suspense queue (mobile money that names no contract: no contract or customer yet).
 */
export async function recordPayment(
  executor: Executor,
  payment: NewPayment,
  status: 'posted' | 'suspense' = 'posted',
): Promise<{ receiptNumber: string }> {
  const receiptNumber = await nextNumber(executor, 'receipt_number_seq', 'R-', 7);
  await executor.insert(payments).values({ ...payment, receiptNumber, status });
  return { receiptNumber };
}

export interface PaymentByReference {
  id: string;
  contractId: string | null;
  provider: string | null;
  amount: number;
  status: PaymentRow['status'];
}

/** The payment already recorded with this method and reference (they are unique together), if any. */
export async function findPaymentByReference(
  executor: Executor,
  method: PaymentRow['method'],
  reference: string,
): Promise<PaymentByReference | undefined> {
  const [row] = await executor
    .select({
      id: payments.id,
      contractId: payments.contractId,
      provider: payments.provider,
      amount: payments.amount,
      status: payments.status,
    })
    .from(payments)
    .where(and(eq(payments.method, method), eq(payments.reference, reference)));
  return row;
}

/** Whether an insert failed because a concurrent delivery of the same payment won the race. */
export function duplicatePayment(error: unknown): boolean {
  return uniqueViolation(error) === 'payments_reference_key';
}

/** Deposit payments posted to a contract (the contract page sums the same rows from its payment list). */
export async function depositReceived(executor: Executor, contractId: string): Promise<number> {
  const [row] = await queryRows<{ total: string }>(
    executor,
    sql`SELECT COALESCE(sum(amount), 0) AS total FROM ${payments} WHERE contract_id = ${contractId} AND method = 'deposit' AND status = 'posted'`,
  );
  return Number(row?.total ?? 0);
}
