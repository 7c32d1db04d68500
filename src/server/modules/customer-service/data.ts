import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  contractFigures,
  contractInstallments,
  contracts,
  customers,
  deviceModels,
  devices,
  payments,
} from '../../../db/schema';
import type { InstallmentPosition, InterestMethod } from '../../../domain';
import type { Executor } from '../../context';
import { toPosition } from '../contracts/portfolio';

/**
 * What the assistant may read: ONE customer's own records, always by that customer's id (never by
 * a number, name or phone in the message), so no phrasing can reach another customer's data.
 */

/** Contracts the assistant talks about: live ones, and those paid off (a payoff's or history's). */
const OWN_STATUSES = ['active', 'defaulted', 'paid_off'] as const;

export interface OwnContract {
  id: string;
  number: string;
  status: string;
  device: string | null;
  outstandingTotal: number;
  /** The day its arrears began, null when not in arrears: days past due are of the date asked. */
  arrearsSince: string | null;
  nextDueDate: string | null;
  startDate: string;
  method: InterestMethod;
  credit: number;
}

export interface OwnCustomer {
  id: string;
  firstName: string;
  accountNumber: string;
  nationalId: string | null;
  assignedAgentId: string | null;
}

export async function ownCustomer(executor: Executor, customerId: string): Promise<OwnCustomer | null> {
  const [row] = await executor
    .select({
      id: customers.id,
      firstName: customers.firstName,
      accountNumber: customers.accountNumber,
      nationalId: customers.nationalId,
      assignedAgentId: customers.assignedAgentId,
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row ?? null;
}

/** The customer's contracts, live first, oldest first. */
export async function ownContracts(executor: Executor, customerId: string): Promise<OwnContract[]> {
  const rows = await executor
    .select({
      id: contracts.id,
      number: contracts.number,
      status: contracts.status,
      device: sql<
        string | null
      >`(SELECT m.make || ' ' || m.model FROM ${devices} d JOIN ${deviceModels} m ON m.id = d.model_id WHERE d.id = ${contracts.deviceId})`,
      outstandingTotal: contractFigures.outstandingTotal,
      arrearsSince: contractFigures.arrearsSince,
      nextDueDate: contractFigures.nextDueDate,
      startDate: contracts.startDate,
      method: contracts.interestMethod,
      credit: contracts.creditBalance,
    })
    .from(contracts)
    .innerJoin(contractFigures, eq(contractFigures.contractId, contracts.id))
    .where(and(eq(contracts.customerId, customerId), inArray(contracts.status, [...OWN_STATUSES])))
    .orderBy(sql`${contracts.status} = 'paid_off'`, asc(contracts.startDate), asc(contracts.number));
  return rows.map((row) => ({ ...row, method: row.method as OwnContract['method'] }));
}

/** The contract's current schedule as the finance engine reads it. */
export async function schedule(executor: Executor, contractId: string): Promise<InstallmentPosition[]> {
  const rows = await executor
    .select()
    .from(contractInstallments)
    .where(
      and(
        eq(contractInstallments.contractId, contractId),
        sql`${contractInstallments.scheduleVersion} = (SELECT schedule_version FROM ${contracts} c WHERE c.id = ${contractId})`,
      ),
    )
    .orderBy(asc(contractInstallments.n));
  return rows.map(toPosition);
}

const unpaid = (p: InstallmentPosition) =>
  p.due.principal -
  p.paid.principal +
  p.due.interest -
  p.paid.interest +
  p.due.fee -
  p.paid.fee +
  p.due.penalty -
  p.paid.penalty;

/** What is overdue at `today`, and the next instalment not yet due with what is left of it. */
export function dueSummary(
  positions: readonly InstallmentPosition[],
  today: string,
): { overdue: number; next: { dueDate: string; amount: number } | null } {
  let overdue = 0;
  let next: { dueDate: string; amount: number } | null = null;
  for (const p of positions) {
    const left = unpaid(p);
    if (left <= 0) continue;
    if (p.dueDate <= today) overdue += left;
    else if (!next) next = { dueDate: p.dueDate, amount: left };
  }
  return { overdue, next };
}

/** The customer's last posted payments, newest first. */
export async function ownPayments(
  executor: Executor,
  customerId: string,
  limit = 5,
): Promise<
  Array<{ amount: number; receivedAt: Date; receiptNumber: string; contractNumber: string | null }>
> {
  return executor
    .select({
      amount: payments.amount,
      receivedAt: payments.receivedAt,
      receiptNumber: payments.receiptNumber,
      contractNumber: contracts.number,
    })
    .from(payments)
    .leftJoin(contracts, eq(contracts.id, payments.contractId))
    .where(and(eq(payments.customerId, customerId), eq(payments.status, 'posted')))
    .orderBy(desc(payments.receivedAt), desc(payments.id))
    .limit(limit);
}
