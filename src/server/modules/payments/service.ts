import { and, eq, type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { paymentAllocations, payments } from '../../../db/schema';
import { runWrites, type Writes } from '../../../db/writes';
import type { Executor } from '../../context';
import { numbered } from '../../numbers';
import { uniqueViolation } from '../../unique';

/**
 * The payments area: it alone writes the `payments` table (others record payments through it).
 * Posting and allocation are in `posting.ts`, corrections in `corrections.ts`, reads here.
 */

type PaymentRow = typeof payments.$inferInsert;

/**
 * Whether payment `p` counts in its contract's allocation (posted, not the deposit), as a test the
 * planner cannot answer from the status index: a contract's payments are found by its own index,
 * and with statistics taken while the table was nearly empty a plan kept for a chunk ANDed each
 * contract's probe with a bitmap of every posted payment (1.4 s a chunk of 2,000 contracts over
 * 60,000 payments, against 15 ms as probes alone).
 */
export const allocatedPayment = (p: SQL) =>
  sql`(${p}.status = 'posted' AND ${p}.method <> 'deposit') IS TRUE`;

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
  const { receipt_number } = await runWrites<{ receipt_number: string }>(executor, [
    paymentWrites(payment, status),
  ]);
  return { receiptNumber: receipt_number };
}

/**
 * `recordPayment` as a part of a larger statement (a payment's writes, decision 022): the row as
 * the CTE `payment`, its receipt number as the column `receipt_number`. With `ifReferenceFree`
 * a payment whose `(method, reference)` is taken (a concurrent delivery won) is not written and
 * `receipt_number` is null, where `recordPayment` fails on the unique index; the parts that
 * depend on it are written only `when` it was (`paymentWritten`).
 */
export function paymentWrites(
  payment: NewPayment,
  status: 'posted' | 'suspense' = 'posted',
  options: { ifReferenceFree?: boolean; when?: SQL } = {},
): Writes {
  const p = payment;
  const json = p.payload === undefined || p.payload === null ? null : JSON.stringify(p.payload);
  // With `when`, a SELECT of the values that holds only then (its receipt number is not drawn otherwise).
  const row = sql`payment AS (
    INSERT INTO ${payments} (id, receipt_number, contract_id, customer_id, amount, currency, method, provider, reference,
      idempotency_key, account_reference, payload, import_id, transferred_from, received_at, value_date, status,
      credit, posted_by, posted_at)
    ${options.when ? sql`SELECT ` : sql`VALUES (`}${p.id}, ${numbered('receipt_number_seq', 'R-', 7)}, ${p.contractId ?? null}::text, ${p.customerId ?? null}::text,
      ${p.amount}, ${p.currency}, ${p.method}, ${p.provider ?? null}::text, ${p.reference ?? null}::text,
      ${p.idempotencyKey ?? null}::text, ${p.accountReference ?? null}::text, ${json}::jsonb, ${p.importId ?? null}::text,
      ${p.transferredFrom ?? null}::text, ${p.receivedAt}::timestamptz, ${p.valueDate ?? null}::date, ${status}, ${p.credit ?? 0},
      ${p.postedBy ?? null}::text, ${p.postedAt ?? null}::timestamptz${options.when ? sql` WHERE ${options.when}` : sql`)`}
    ${options.ifReferenceFree ? sql`ON CONFLICT (method, reference) WHERE reference IS NOT NULL DO NOTHING` : sql``}
    RETURNING receipt_number)`;
  return { with: [row], select: [sql`(SELECT receipt_number FROM payment) AS receipt_number`] };
}

/**
 * Many posted payments in one INSERT (a statement import's chunk, a batch of API payments), each
 * with the credit its allocation left, numbered from the receipt sequence in the rows' order.
 * Answers each payment's receipt number by id.
 */
export async function recordPayments(
  executor: Executor,
  rows: readonly NewPayment[],
): Promise<Map<string, string>> {
  if (!rows.length) return new Map();
  return receiptsOf(await runWrites(executor, [paymentRowsWrites(rows)], { prepared: true }));
}

/**
 * `recordPayments` as a part of a larger statement: the rows as the CTE `recorded_payments`, and
 * their receipt numbers as the column `receipts` (read them with `receiptsOf`).
 */
export function paymentRowsWrites(rows: readonly NewPayment[]): Writes {
  const col = <T>(pick: (p: (typeof rows)[number]) => T) => sql.param(rows.map(pick));
  const json = (p: NewPayment) =>
    p.payload === undefined || p.payload === null ? null : JSON.stringify(p.payload);
  return {
    with: [
      sql`recorded_payments AS (
    INSERT INTO ${payments} (id, receipt_number, contract_id, customer_id, amount, currency, method, provider, reference,
      idempotency_key, account_reference, payload, import_id, transferred_from, received_at, value_date, status,
      credit, posted_by, posted_at)
    SELECT v.id, 'R-' || lpad(v.s::text, greatest(7, length(v.s::text)), '0'), v.contract_id, v.customer_id,
      v.amount, v.currency, v.method, v.provider, v.reference, v.idempotency_key, v.account_reference, v.payload::jsonb,
      v.import_id, v.transferred_from, v.received_at, v.value_date::date, 'posted', v.credit, v.posted_by, v.posted_at
    -- One number a row, drawn in the rows' order (a volatile column of an ordered subquery is
    -- computed row by row after its sort).
    FROM (SELECT u.*, nextval('receipt_number_seq') AS s
      FROM unnest(${col((p) => p.id)}::text[], ${col((p) => p.contractId ?? null)}::text[],
                ${col((p) => p.customerId ?? null)}::text[], ${col((p) => p.amount)}::bigint[], ${col((p) => p.currency)}::text[],
                ${col((p) => p.method)}::text[], ${col((p) => p.provider ?? null)}::text[], ${col((p) => p.reference ?? null)}::text[],
                ${col((p) => p.idempotencyKey ?? null)}::text[], ${col((p) => p.accountReference ?? null)}::text[],
                ${col(json)}::text[], ${col((p) => p.importId ?? null)}::text[], ${col((p) => p.transferredFrom ?? null)}::text[],
                ${col((p) => new Date(p.receivedAt).toISOString())}::timestamptz[], ${col((p) => p.valueDate ?? null)}::text[],
                ${col((p) => p.credit ?? 0)}::bigint[], ${col((p) => p.postedBy ?? null)}::text[],
                ${col((p) => (p.postedAt ? new Date(p.postedAt).toISOString() : null))}::timestamptz[]) WITH ORDINALITY
        AS u(id, contract_id, customer_id, amount, currency, method, provider, reference, idempotency_key,
             account_reference, payload, import_id, transferred_from, received_at, value_date, credit, posted_by, posted_at, i)
      ORDER BY u.i) v
    RETURNING id, receipt_number)`,
    ],
    select: [sql`(SELECT json_object_agg(id, receipt_number) FROM recorded_payments) AS receipts`],
  };
}

/** The receipt numbers `paymentRowsWrites` answered, by payment id. */
export function receiptsOf(row: Record<string, unknown>): Map<string, string> {
  return new Map(Object.entries((row.receipts ?? {}) as Record<string, string>));
}

/** One allocation line of a payment, as `recordAllocationLines` writes it. */
export interface AllocationLineRow {
  paymentId: string;
  contractId: string;
  scheduleVersion: number;
  installmentNumber: number | null;
  component: string;
  amount: number;
}

/** Many payments' allocation lines in one INSERT, in the order given (a payment's lines read back in id order). */
export async function recordAllocationLines(
  executor: Executor,
  lines: readonly AllocationLineRow[],
): Promise<void> {
  if (lines.length) await runWrites(executor, [allocationLinesWrites(lines)], { prepared: true });
}

/** `recordAllocationLines` as a part of a larger statement (the CTE `recorded_lines`). */
export function allocationLinesWrites(lines: readonly AllocationLineRow[]): Writes {
  const col = <T>(pick: (l: AllocationLineRow) => T) => sql.param(lines.map(pick));
  return {
    with: [
      sql`recorded_lines AS (
    INSERT INTO ${paymentAllocations} (payment_id, contract_id, schedule_version, installment_number, component, amount)
    SELECT v.payment_id, v.contract_id, v.schedule_version, v.n, v.component, v.amount
    FROM unnest(${col((l) => l.paymentId)}::text[], ${col((l) => l.contractId)}::text[], ${col((l) => l.scheduleVersion)}::int[],
                ${col((l) => l.installmentNumber)}::int[], ${col((l) => l.component)}::text[], ${col((l) => l.amount)}::bigint[])
      WITH ORDINALITY AS v(payment_id, contract_id, schedule_version, n, component, amount, i)
    ORDER BY v.i)`,
    ],
  };
}

/** The condition of the parts that hang on `paymentWrites`' row. */
export const paymentWritten = sql`EXISTS (SELECT 1 FROM payment)`;

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
