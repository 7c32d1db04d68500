import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ContractStanding } from '../../../contracts/devices';
import type { Organisation } from '../../../contracts/profile';
import type { InstallmentRow } from '../../../db/schema';
import { contractInstallments, contracts } from '../../../db/schema';
import {
  bucketsFromBounds,
  type DelinquencySnapshot,
  delinquencySnapshot,
  sumComponents,
} from '../../../domain';
import type { Executor } from '../../context';
import { LIVE_STATUSES, toPosition } from './portfolio';

/**
 * A contract's figures on a business date: paid-through date, days past due, overdue and
 * outstanding amounts. The one definition both the contract page and the device page show, so
 * "Paid through" is the same date on both.
 */
export function figuresOf(
  contract: { startDate: string },
  installments: readonly InstallmentRow[],
  org: Pick<Organisation, 'delinquencyBuckets'>,
  today: string,
): DelinquencySnapshot {
  return delinquencySnapshot(installments.map(toPosition), {
    date: today,
    startDate: contract.startDate,
    buckets: bucketsFromBounds(org.delinquencyBuckets),
  });
}

/**
 * The live contract (active or defaulted) a unit is with, and where it stands today, for the
 * device page and for the device control that must not give time to a unit in arrears. Null
 * when the unit is on no live contract.
 */
export async function standingOfDevice(
  executor: Executor,
  deviceId: string,
  org: Pick<Organisation, 'delinquencyBuckets'>,
  today: string,
): Promise<ContractStanding | null> {
  const [contract] = await executor
    .select({
      id: contracts.id,
      number: contracts.number,
      currency: contracts.currency,
      startDate: contracts.startDate,
      scheduleVersion: contracts.scheduleVersion,
    })
    .from(contracts)
    .where(and(eq(contracts.deviceId, deviceId), inArray(contracts.status, [...LIVE_STATUSES])))
    .limit(1);
  if (!contract) return null;
  const installments = await executor
    .select()
    .from(contractInstallments)
    .where(
      and(
        eq(contractInstallments.contractId, contract.id),
        eq(contractInstallments.scheduleVersion, contract.scheduleVersion),
      ),
    )
    .orderBy(asc(contractInstallments.n));
  const figures = figuresOf(contract, installments, org, today);
  return {
    id: contract.id,
    number: contract.number,
    currency: contract.currency,
    paidThrough: figures.paidThrough,
    dpd: figures.dpd,
    overdue: sumComponents(figures.overdue),
  };
}
