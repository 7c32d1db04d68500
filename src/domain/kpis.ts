/**
 * Portfolio KPIs (GOGLA / CGAP PAYGo PERFORM style, PRODUCT.md "KPIs"). Inputs are plain
 * per-contract figures so the same definitions serve the end-of-day snapshot, reports and the
 * assistant. Every ratio returns its numerator and denominator; `ratio` is null when the
 * denominator is zero (nothing to measure), never NaN.
 *
 * - PAR(n): outstanding principal of live contracts with DPD > n / outstanding principal of live
 *   contracts. Live = status active or defaulted (paid-off, written-off, returned, repossessed
 *   excluded); the whole balance of a contract at risk counts.
 * - Collection rate (period): instalment amounts collected / instalment amounts due, for the
 *   instalments due in the period (principal + interest + service fee; penalties and deposits
 *   excluded).
 * - First payment default: contracts whose first instalment is still unpaid `days` (30) days after
 *   its due date / contracts of the cohort that have reached that point (younger contracts are
 *   reported as `pending`, in neither figure).
 * - Write-off ratio (period): principal written off in the period / average outstanding principal
 *   of live contracts in the period.
 * - Disabled (locked) rate: live contracts whose device is locked / live contracts.
 * - Active ratio: live contracts / contracts ever activated (all but draft, pending approval and
 *   cancelled).
 * - Average days of credit: mean over live contracts of max(0, paid-through date - as-of date), the
 *   days of use customers have already paid for.
 */
import type { InstallmentPosition } from './allocation';
import { addDays, assertBusinessDate, type BusinessDate, toDayNumber } from './dates';
import { requireInteger } from './errors';

export type ContractStatus =
  | 'draft'
  | 'pending_approval'
  | 'active'
  | 'paid_off'
  | 'defaulted'
  | 'written_off'
  | 'returned'
  | 'repossessed'
  | 'cancelled';

export const LIVE_STATUSES: readonly ContractStatus[] = ['active', 'defaulted'];
export const NEVER_ACTIVATED_STATUSES: readonly ContractStatus[] = ['draft', 'pending_approval', 'cancelled'];

export interface KpiContract {
  status: ContractStatus;
  outstandingPrincipal: number;
  dpd: number;
  locked?: boolean;
  paidThrough?: BusinessDate | null;
}

export interface RatioResult {
  numerator: number;
  denominator: number;
  /** numerator / denominator, or null when the denominator is 0. */
  ratio: number | null;
}

export function ratioOf(numerator: number, denominator: number): RatioResult {
  return { numerator, denominator, ratio: denominator === 0 ? null : numerator / denominator };
}

export const isLive = (c: { status: ContractStatus }): boolean => LIVE_STATUSES.includes(c.status);

/** PAR(n). */
export function portfolioAtRisk(contracts: Iterable<KpiContract>, days: number): RatioResult {
  requireInteger('days', days, 0, 36600);
  let atRisk = 0;
  let total = 0;
  for (const c of contracts) {
    if (!isLive(c)) continue;
    total += c.outstandingPrincipal;
    if (c.dpd > days) atRisk += c.outstandingPrincipal;
  }
  return ratioOf(atRisk, total);
}

/** Collection rate from amounts (minor units). */
export function collectionRate(collected: number, due: number): RatioResult {
  return ratioOf(collected, due);
}

/** Collection rate for instalments due in [from, to] (inclusive), over any number of contracts. */
export function collectionRateForPeriod(
  installments: Iterable<InstallmentPosition>,
  from: BusinessDate,
  to: BusinessDate,
): RatioResult {
  assertBusinessDate(from, 'from');
  assertBusinessDate(to, 'to');
  let due = 0;
  let collected = 0;
  for (const p of installments) {
    if (p.dueDate < from || p.dueDate > to) continue;
    due += p.due.fee + p.due.interest + p.due.principal;
    collected +=
      Math.min(p.paid.fee, p.due.fee) +
      Math.min(p.paid.interest, p.due.interest) +
      Math.min(p.paid.principal, p.due.principal);
  }
  return ratioOf(collected, due);
}

export interface FirstPaymentCase {
  firstDueDate: BusinessDate;
  /** Date the first instalment was fully paid, or null. */
  firstSettledOn: BusinessDate | null;
}

/** First payment default of a cohort, measured on `asOf`. */
export function firstPaymentDefault(
  cohort: Iterable<FirstPaymentCase>,
  asOf: BusinessDate,
  days = 30,
): RatioResult & { pending: number } {
  assertBusinessDate(asOf, 'asOf');
  requireInteger('days', days, 0, 3660);
  let defaulted = 0;
  let measured = 0;
  let pending = 0;
  for (const c of cohort) {
    const deadline = addDays(c.firstDueDate, days);
    if (deadline > asOf) {
      pending += 1;
      continue;
    }
    measured += 1;
    if (c.firstSettledOn === null || c.firstSettledOn > deadline) defaulted += 1;
  }
  return { ...ratioOf(defaulted, measured), pending };
}

export function writeOffRatio(writtenOffPrincipal: number, averageOutstandingPrincipal: number): RatioResult {
  return ratioOf(writtenOffPrincipal, averageOutstandingPrincipal);
}

export function disabledRate(contracts: Iterable<KpiContract>): RatioResult {
  let locked = 0;
  let live = 0;
  for (const c of contracts) {
    if (!isLive(c)) continue;
    live += 1;
    if (c.locked) locked += 1;
  }
  return ratioOf(locked, live);
}

export function activeRatio(contracts: Iterable<KpiContract>): RatioResult {
  let live = 0;
  let activated = 0;
  for (const c of contracts) {
    if (NEVER_ACTIVATED_STATUSES.includes(c.status)) continue;
    activated += 1;
    if (isLive(c)) live += 1;
  }
  return ratioOf(live, activated);
}

export function averageDaysOfCredit(contracts: Iterable<KpiContract>, asOf: BusinessDate): number | null {
  const today = toDayNumber(asOf);
  let total = 0;
  let count = 0;
  for (const c of contracts) {
    if (!isLive(c)) continue;
    count += 1;
    if (c.paidThrough) total += Math.max(0, toDayNumber(c.paidThrough) - today);
  }
  return count === 0 ? null : total / count;
}

export interface PortfolioKpis {
  asOf: BusinessDate;
  liveContracts: number;
  outstandingPrincipal: number;
  par: Record<number, RatioResult>;
  disabledRate: RatioResult;
  activeRatio: RatioResult;
  averageDaysOfCredit: number | null;
}

/** The point-in-time KPIs of a portfolio (PAR 1/7/30/60/90 by default). */
export function portfolioKpis(
  contracts: readonly KpiContract[],
  asOf: BusinessDate,
  parDays: readonly number[] = [1, 7, 30, 60, 90],
): PortfolioKpis {
  assertBusinessDate(asOf, 'asOf');
  const par: Record<number, RatioResult> = {};
  for (const d of parDays) par[d] = portfolioAtRisk(contracts, d);
  let live = 0;
  let outstanding = 0;
  for (const c of contracts) {
    if (!isLive(c)) continue;
    live += 1;
    outstanding += c.outstandingPrincipal;
  }
  return {
    asOf,
    liveContracts: live,
    outstandingPrincipal: outstanding,
    par,
    disabledRate: disabledRate(contracts),
    activeRatio: activeRatio(contracts),
    averageDaysOfCredit: averageDaysOfCredit(contracts, asOf),
  };
}
