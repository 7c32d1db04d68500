import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { CONTRACT_STATUSES } from '../../../contracts/contracts';
import type { InstallmentRow } from '../../../db/schema';
import { contractFigures, contractInstallments, contracts, customers, devices } from '../../../db/schema';
import type { ContractStatus, InstallmentPosition, KpiContract, ScenarioContract } from '../../../domain';
import type { AppContext } from '../../context';
import { dpdOn, FIGURES_TABLE, pastDueMoreThan } from './figures';

/** Contracts a scenario or KPI counts as live (PRODUCT.md: paid-off, written-off, repossessed excluded). */
export const LIVE_STATUSES = ['active', 'defaulted'] as const;

/** Every other status: a contract closed one way or another, or not yet started. */
export const NOT_LIVE_STATUSES = CONTRACT_STATUSES.filter(
  (status) => !(LIVE_STATUSES as readonly string[]).includes(status),
);

/** What is left to pay of an instalment (alias `i`), every component: the arrears' and reminders' sum. */
export const REMAINING = sql`(i.principal_due - i.principal_paid + i.interest_due - i.interest_paid
  + i.fee_due - i.fee_paid + i.penalty_due - i.penalty_paid)`;

export interface PortfolioContract extends ScenarioContract {
  id: string;
  number: string;
  customerName: string;
  credit: number;
}

export function toPosition(row: InstallmentRow): InstallmentPosition {
  return {
    n: row.n,
    dueDate: row.dueDate,
    due: { penalty: row.penaltyDue, fee: row.feeDue, interest: row.interestDue, principal: row.principalDue },
    paid: {
      penalty: row.penaltyPaid,
      fee: row.feePaid,
      interest: row.interestPaid,
      principal: row.principalPaid,
    },
  };
}

/**
 * Live contracts with their current schedule, in batches (keyset on id) so that a portfolio of
 * any size is read with bounded memory. `number` limits it to one contract, whatever its status.
 */
export async function* portfolioBatches(
  ctx: AppContext,
  options: { number?: string; batchSize?: number } = {},
): AsyncGenerator<PortfolioContract[]> {
  const batchSize = options.batchSize ?? 2000;
  let after = '';
  for (;;) {
    const rows = await ctx.db
      .select({ contract: contracts, firstName: customers.firstName, lastName: customers.lastName })
      .from(contracts)
      .innerJoin(customers, eq(customers.id, contracts.customerId))
      .where(
        and(
          options.number
            ? eq(contracts.number, options.number)
            : inArray(contracts.status, [...LIVE_STATUSES]),
          gt(contracts.id, after),
        ),
      )
      .orderBy(asc(contracts.id))
      .limit(batchSize);
    if (!rows.length) return;
    const installments = await ctx.db
      .select()
      .from(contractInstallments)
      .where(
        and(
          inArray(
            contractInstallments.contractId,
            rows.map((row) => row.contract.id),
          ),
          sql`${contractInstallments.scheduleVersion} = (SELECT schedule_version FROM contracts c WHERE c.id = ${contractInstallments.contractId})`,
        ),
      )
      .orderBy(asc(contractInstallments.contractId), asc(contractInstallments.n));
    const byContract = new Map<string, InstallmentPosition[]>();
    for (const row of installments) {
      const list = byContract.get(row.contractId) ?? [];
      list.push(toPosition(row));
      byContract.set(row.contractId, list);
    }
    yield rows.map(({ contract, firstName, lastName }) => ({
      id: contract.id,
      number: contract.number,
      customerName: `${firstName} ${lastName}`,
      startDate: contract.startDate,
      apr: contract.apr,
      frequency: contract.frequency as ScenarioContract['frequency'],
      method: contract.interestMethod as ScenarioContract['method'],
      installmentMultiple: contract.installmentMultiple,
      installment: contract.installment,
      installments: byContract.get(contract.id) ?? [],
      credit: contract.creditBalance,
    }));
    if (rows.length < batchSize) return;
    after = rows.at(-1)?.contract.id ?? after;
  }
}

/** Every contract ever activated, with what the KPIs need on `date` (one row each, no schedules). */
export async function kpiContracts(ctx: AppContext, date: string): Promise<KpiContract[]> {
  const rows = await ctx.db
    .select({
      status: contracts.status,
      outstandingPrincipal: contracts.outstandingPrincipal,
      dpd: sql<number>`${dpdOn(date, FIGURES_TABLE)}`,
      paidThrough: contracts.paidThroughDate,
      lockState: devices.lockState,
    })
    .from(contracts)
    .innerJoin(contractFigures, eq(contractFigures.contractId, contracts.id))
    .innerJoin(devices, eq(devices.id, contracts.deviceId))
    .where(sql`${contracts.activatedAt} IS NOT NULL`);
  return rows.map((row) => ({
    status: row.status as ContractStatus,
    outstandingPrincipal: row.outstandingPrincipal,
    dpd: Number(row.dpd),
    locked: row.lockState === 'locked',
    paidThrough: row.paidThrough,
  }));
}

export interface RiskRow {
  number: string;
  customerName: string;
  dpd: number;
  outstandingPrincipal: number;
  outstandingTotal: number;
}

/** The live contracts longest past due on `date`, the largest balance first among equals. */
export async function topRisks(ctx: AppContext, date: string, limit = 5): Promise<RiskRow[]> {
  const rows = await ctx.db
    .select({
      number: contracts.number,
      firstName: customers.firstName,
      lastName: customers.lastName,
      dpd: sql<number>`${dpdOn(date, FIGURES_TABLE)}`,
      outstandingPrincipal: contracts.outstandingPrincipal,
      outstandingTotal: contractFigures.outstandingTotal,
    })
    .from(contracts)
    .innerJoin(contractFigures, eq(contractFigures.contractId, contracts.id))
    .innerJoin(customers, eq(customers.id, contracts.customerId))
    .where(and(inArray(contracts.status, [...LIVE_STATUSES]), pastDueMoreThan(date, 0, FIGURES_TABLE)))
    .orderBy(asc(contractFigures.arrearsSince), sql`${contractFigures.outstandingTotal} DESC`)
    .limit(limit);
  return rows.map(({ firstName, lastName, ...row }) => ({
    ...row,
    dpd: Number(row.dpd),
    customerName: `${firstName} ${lastName}`,
  }));
}

/** Instalment amounts due and collected for instalments due in [from, to] (deposits are not instalments). */
export async function collectionsForPeriod(
  ctx: AppContext,
  from: string,
  to: string,
): Promise<{ due: number; collected: number }> {
  const [row] = await ctx.db
    .select({
      due: sql<string>`COALESCE(sum(${contractInstallments.principalDue} + ${contractInstallments.interestDue} + ${contractInstallments.feeDue}), 0)`,
      collected: sql<string>`COALESCE(sum(${contractInstallments.principalPaid} + ${contractInstallments.interestPaid} + ${contractInstallments.feePaid}), 0)`,
    })
    .from(contractInstallments)
    .innerJoin(contracts, eq(contracts.id, contractInstallments.contractId))
    .where(
      and(
        sql`${contractInstallments.scheduleVersion} = ${contracts.scheduleVersion}`,
        sql`${contractInstallments.dueDate} BETWEEN ${from} AND ${to}`,
        sql`${contracts.activatedAt} IS NOT NULL`,
      ),
    );
  return { due: Number(row?.due ?? 0), collected: Number(row?.collected ?? 0) };
}
