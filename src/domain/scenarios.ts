/**
 * What-if scenarios on a contract's current state, and over a portfolio. Used by restructure
 * previews and by the Finance AI Assistant ("Increase daily payment to $0.50", "20% service
 * discount for 30 days", "Adjust APR to 19%").
 *
 * Scope: a scenario changes the contract's remaining instalments: those due after the as-of date
 * and not yet settled. Instalments due on or before the as-of date (arrears, today's instalment)
 * and instalments already paid ahead stay exactly as they are.
 *
 * Re-amortising changes (instalment amount, APR, term, payment holiday on a declining contract)
 * rebuild the remaining instalments from their outstanding principal B:
 *   B = unpaid principal of those instalments - anything already paid on their interest, fees or
 *       penalties (money paid ahead counts as principal prepaid);
 * the new instalments fall on the contract's calendar (the remaining due dates, continued by whole
 * periods; monthly keeps the start's day of month). The amounts paid on the replaced instalments
 * are carried to the first new instalment as paid principal, so totals paid never change.
 * - instalment amount A (with or without the service fee): same rate; as many instalments as it
 *   takes to clear B with A (declining: interest on the balance each period; flat: the smallest
 *   term m with m x A >= B + flat interest(B, m)); refused if A does not exceed a period's interest
 *   or needs more than 3660 instalments;
 * - APR: same number of remaining instalments and due dates, new rate (instalment recomputed, the
 *   plan's instalment multiple applies);
 * - term: the given number of remaining instalments, same rate;
 * - payment holiday of N periods: every remaining instalment moves N periods later; on a declining
 *   contract the holiday's interest is capitalised (B grows by B x r, rounded HALF_EVEN, per holiday
 *   period) and the instalment is recomputed over the same count; a flat contract's amounts do
 *   not change (flat interest is fixed by contract).
 * - service discount X% for N days: service fees of remaining instalments due within N days after
 *   the as-of date are reduced by X% (HALF_EVEN), never below what was already paid; nothing else
 *   changes.
 * Impacts: term reduction in days = old last due date - new last due date (negative: longer);
 * interest and service-fee savings = old - new remaining amounts; total cost change = new - old
 * remaining amount to pay (negative: cheaper for the customer).
 */
import {
  type Components,
  clonePositions,
  type InstallmentPosition,
  isSettled,
  sortPositions,
  zeroComponents,
} from './allocation';
import {
  addDays,
  assertBusinessDate,
  type BusinessDate,
  dayOfMonth,
  type Frequency,
  shiftOnCalendar,
  toDayNumber,
} from './dates';
import { DomainError, invalid, refused, requireInteger } from './errors';
import { assertSafeMoney, sumMoney } from './money';
import {
  type DecimalInput,
  divHalfEven,
  mulHalfEven,
  mulRatioHalfEven,
  ratio,
  ratioFromDecimal,
} from './rational';
import {
  amortize,
  amortizeOver,
  flatTotalInterest,
  type InterestMethod,
  rateInfo,
  SCHEDULE_LIMITS,
  type ScheduleRow,
  spreadFlatInterest,
} from './schedule';

export interface ScenarioContract {
  /** Identifies the contract in portfolio results. */
  id?: string;
  startDate: BusinessDate;
  /** Nominal APR in percent. */
  apr: DecimalInput;
  frequency: Frequency;
  method: InterestMethod;
  installmentMultiple?: number;
  /** The regular instalment (principal + interest) of the current schedule. */
  installment: number;
  installments: readonly InstallmentPosition[];
}

export type ScenarioChange =
  | { kind: 'installment'; amount: number; includesServiceFee?: boolean }
  | { kind: 'apr'; apr: DecimalInput }
  | { kind: 'term'; remainingInstallments: number }
  | { kind: 'service_discount'; percent: DecimalInput; days: number }
  | { kind: 'payment_holiday'; periods: number };

export interface RemainingSummary {
  /** Number of remaining (unsettled, not yet due) instalments. */
  installments: number;
  /** Regular instalment (principal + interest). */
  installment: number;
  /** Regular instalment + the first remaining instalment's service fee. */
  regularPayment: number;
  firstDueDate: BusinessDate | null;
  lastDueDate: BusinessDate | null;
  principal: number;
  interest: number;
  serviceFees: number;
  penalties: number;
  /** Everything still to pay on the remaining instalments. */
  total: number;
}

export interface ScenarioResult {
  contractId?: string;
  change: ScenarioChange;
  asOf: BusinessDate;
  baseline: RemainingSummary;
  scenario: RemainingSummary;
  /** The remaining instalments after the change (due amounts). */
  schedule: ScheduleRow[];
  /** The contract's instalments after the change: kept ones, then the changed ones. */
  installments: InstallmentPosition[];
  /** Amounts paid on replaced instalments, carried to the first new one as paid principal. */
  carriedPayments: number;
  /** Unpaid amounts of instalments due on or before the as-of date: unchanged by the scenario. */
  arrears: Components;
  termReductionDays: number;
  interestSavings: number;
  serviceFeeSavings: number;
  totalCostChange: number;
  installmentChange: number;
}

function summarizePositions(
  positions: readonly InstallmentPosition[],
  installment: number,
): RemainingSummary {
  const s = emptySummary(installment);
  for (const p of positions) {
    s.principal += p.due.principal - p.paid.principal;
    s.interest += p.due.interest - p.paid.interest;
    s.serviceFees += p.due.fee - p.paid.fee;
    s.penalties += p.due.penalty - p.paid.penalty;
  }
  s.installments = positions.length;
  const first = positions[0];
  const last = positions[positions.length - 1];
  s.firstDueDate = first?.dueDate ?? null;
  s.lastDueDate = last?.dueDate ?? null;
  s.regularPayment = installment + (first ? first.due.fee : 0);
  s.total = assertSafeMoney(s.principal + s.interest + s.serviceFees + s.penalties, 'remaining total');
  return s;
}

function emptySummary(installment: number): RemainingSummary {
  return {
    installments: 0,
    installment,
    regularPayment: installment,
    firstDueDate: null,
    lastDueDate: null,
    principal: 0,
    interest: 0,
    serviceFees: 0,
    penalties: 0,
    total: 0,
  };
}

function rowsFromPositions(positions: readonly InstallmentPosition[]): ScheduleRow[] {
  let balance = positions.reduce((s, p) => s + p.due.principal, 0);
  return positions.map((p) => {
    balance -= p.due.principal;
    return {
      n: p.n,
      dueDate: p.dueDate,
      principal: p.due.principal,
      interest: p.due.interest,
      serviceFee: p.due.fee,
      total: p.due.principal + p.due.interest + p.due.fee,
      balance,
    };
  });
}

function validateContract(c: ScenarioContract): void {
  assertBusinessDate(c.startDate, 'startDate');
  assertSafeMoney(c.installment, 'installment');
  if (!['daily', 'weekly', 'monthly'].includes(c.frequency))
    throw invalid('frequency', 'frequency must be daily, weekly or monthly');
  if (c.method !== 'declining' && c.method !== 'flat')
    throw invalid('method', 'method must be declining or flat');
}

/** Runs one change on one contract as of a business date. */
export function runScenario(
  contract: ScenarioContract,
  change: ScenarioChange,
  asOf: BusinessDate,
): ScenarioResult {
  assertBusinessDate(asOf, 'asOf');
  validateContract(contract);
  const ordered = sortPositions(clonePositions(contract.installments));
  const remaining = ordered.filter((p) => p.dueDate > asOf && !isSettled(p));
  const kept = ordered.filter((p) => !remaining.includes(p));
  const arrears = zeroComponents();
  for (const p of ordered) {
    if (p.dueDate > asOf) continue;
    arrears.penalty += p.due.penalty - p.paid.penalty;
    arrears.fee += p.due.fee - p.paid.fee;
    arrears.interest += p.due.interest - p.paid.interest;
    arrears.principal += p.due.principal - p.paid.principal;
  }
  const first = remaining[0];
  if (!first) {
    throw refused('NOTHING_TO_RESTRUCTURE', `The contract has no instalment left to change after ${asOf}`);
  }
  const baseline = summarizePositions(remaining, contract.installment);

  let changed: InstallmentPosition[];
  let newInstallment = contract.installment;
  let carried = 0;
  if (change.kind === 'service_discount') {
    changed = discountFees(remaining, change, asOf);
  } else if (change.kind === 'payment_holiday' && contract.method === 'flat') {
    const periods = requireInteger('periods', change.periods, 1, SCHEDULE_LIMITS.maxTerm);
    const anchor = dayOfMonth(contract.startDate);
    changed = remaining.map((p) => ({
      ...p,
      dueDate: shiftOnCalendar(p.dueDate, anchor, contract.frequency, periods),
    }));
  } else {
    const r = rebuild(contract, remaining, change);
    changed = r.positions;
    newInstallment = r.installment;
    carried = r.carried;
  }
  const scenario = summarizePositions(changed, newInstallment);
  const result: ScenarioResult = {
    change,
    asOf,
    baseline,
    scenario,
    schedule: rowsFromPositions(changed),
    installments: sortPositions([...kept, ...changed]),
    carriedPayments: carried,
    arrears,
    termReductionDays:
      baseline.lastDueDate && scenario.lastDueDate
        ? toDayNumber(baseline.lastDueDate) - toDayNumber(scenario.lastDueDate)
        : 0,
    interestSavings: baseline.interest - scenario.interest,
    serviceFeeSavings: baseline.serviceFees - scenario.serviceFees,
    totalCostChange: scenario.total - baseline.total,
    installmentChange: scenario.regularPayment - baseline.regularPayment,
  };
  if (contract.id !== undefined) result.contractId = contract.id;
  return result;
}

function discountFees(
  remaining: readonly InstallmentPosition[],
  change: Extract<ScenarioChange, { kind: 'service_discount' }>,
  asOf: BusinessDate,
): InstallmentPosition[] {
  const days = requireInteger('days', change.days, 1, 36600);
  const pct = ratioFromDecimal(change.percent, 'percent');
  if (pct.num < 0n || pct.num > 100n * pct.den)
    throw invalid('percent', 'The discount must be between 0 and 100 percent');
  const factor = ratio(pct.num, pct.den * 100n);
  const until = addDays(asOf, days);
  return remaining.map((p) => {
    if (p.dueDate > until) return p;
    const discount = Math.min(mulRatioHalfEven(p.due.fee, factor), p.due.fee - p.paid.fee);
    return discount > 0 ? { ...p, due: { ...p.due, fee: p.due.fee - discount } } : p;
  });
}

/** Due dates for `count` instalments: the remaining ones, continued on the contract calendar. */
function datesFor(
  contract: ScenarioContract,
  remaining: readonly InstallmentPosition[],
  count: number,
  shift = 0,
): BusinessDate[] {
  const anchor = dayOfMonth(contract.startDate);
  const out: BusinessDate[] = [];
  const last = remaining[remaining.length - 1] as InstallmentPosition;
  for (let i = 0; i < count; i++) {
    const base = remaining[i];
    out.push(
      base
        ? shift
          ? shiftOnCalendar(base.dueDate, anchor, contract.frequency, shift)
          : base.dueDate
        : shiftOnCalendar(last.dueDate, anchor, contract.frequency, i - remaining.length + 1 + shift),
    );
  }
  return out;
}

function feesFor(remaining: readonly InstallmentPosition[], count: number): number[] {
  const regular = (remaining[remaining.length - 1] as InstallmentPosition).due.fee;
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(remaining[i]?.due.fee ?? regular);
  return out;
}

function rebuild(
  contract: ScenarioContract,
  remaining: readonly InstallmentPosition[],
  change: Exclude<ScenarioChange, { kind: 'service_discount' }>,
): { positions: InstallmentPosition[]; installment: number; carried: number } {
  let carried = 0;
  let nonPrincipalPaid = 0;
  let unpaidPrincipal = 0;
  for (const p of remaining) {
    carried += p.paid.penalty + p.paid.fee + p.paid.interest + p.paid.principal;
    nonPrincipalPaid += p.paid.penalty + p.paid.fee + p.paid.interest;
    unpaidPrincipal += p.due.principal - p.paid.principal;
  }
  const balance = unpaidPrincipal - nonPrincipalPaid;
  if (balance <= 0)
    throw refused('NOTHING_TO_RESTRUCTURE', 'The remaining instalments are already paid ahead');
  const first = remaining[0] as InstallmentPosition;
  const multiple = contract.installmentMultiple ?? 0;
  let rows: ScheduleRow[];
  let installment: number;

  switch (change.kind) {
    case 'apr': {
      validateApr(change.apr);
      const dates = datesFor(contract, remaining, remaining.length);
      const r = amortizeOver({
        principal: balance,
        apr: change.apr,
        frequency: contract.frequency,
        method: contract.method,
        dueDates: dates,
        firstNumber: first.n,
        serviceFee: feesFor(remaining, dates.length),
        installmentMultiple: multiple,
      });
      rows = r.rows;
      installment = r.installment;
      break;
    }
    case 'term': {
      const count = requireInteger(
        'remainingInstallments',
        change.remainingInstallments,
        1,
        SCHEDULE_LIMITS.maxTerm,
      );
      const dates = datesFor(contract, remaining, count);
      const r = amortizeOver({
        principal: balance,
        apr: contract.apr,
        frequency: contract.frequency,
        method: contract.method,
        dueDates: dates,
        firstNumber: first.n,
        serviceFee: feesFor(remaining, count),
        installmentMultiple: multiple,
      });
      rows = r.rows;
      installment = r.installment;
      break;
    }
    case 'payment_holiday': {
      const periods = requireInteger('periods', change.periods, 1, SCHEDULE_LIMITS.maxTerm);
      const { prepared } = rateInfo(contract.apr, contract.frequency);
      let capitalised = balance;
      for (let i = 0; i < periods; i++)
        capitalised = assertSafeMoney(capitalised + mulHalfEven(capitalised, prepared), 'balance');
      const dates = datesFor(contract, remaining, remaining.length, periods);
      const r = amortizeOver({
        principal: capitalised,
        apr: contract.apr,
        frequency: contract.frequency,
        method: contract.method,
        dueDates: dates,
        firstNumber: first.n,
        serviceFee: feesFor(remaining, dates.length),
        installmentMultiple: multiple,
      });
      rows = r.rows;
      installment = r.installment;
      break;
    }
    case 'installment': {
      assertSafeMoney(change.amount, 'amount');
      installment = change.amount - (change.includesServiceFee === false ? 0 : first.due.fee);
      if (installment <= 0) {
        throw refused(
          'INSTALLMENT_TOO_SMALL',
          'The new payment does not even cover the service fee',
          'amount',
        );
      }
      rows = amortizeWithInstallment(contract, remaining, balance, installment);
      break;
    }
  }
  const positions: InstallmentPosition[] = rows.map((row, i) => ({
    n: row.n,
    dueDate: row.dueDate,
    due: {
      penalty: 0,
      fee: row.serviceFee,
      interest: row.interest,
      principal: row.principal + (i === 0 ? carried : 0),
    },
    paid: { penalty: 0, fee: 0, interest: 0, principal: i === 0 ? carried : 0 },
  }));
  return { positions, installment, carried };
}

function validateApr(apr: DecimalInput): void {
  const r = ratioFromDecimal(apr, 'apr');
  if (r.num < 0n || r.num > BigInt(SCHEDULE_LIMITS.maxApr) * r.den) {
    throw invalid('apr', `apr must be between 0 and ${SCHEDULE_LIMITS.maxApr} (percent)`);
  }
}

/** Rows clearing `balance` with a fixed instalment (the term follows). */
function amortizeWithInstallment(
  contract: ScenarioContract,
  remaining: readonly InstallmentPosition[],
  balance: number,
  installment: number,
): ScheduleRow[] {
  const { aprFrac, prepared } = rateInfo(contract.apr, contract.frequency);
  const max = SCHEDULE_LIMITS.maxTerm;
  const first = remaining[0] as InstallmentPosition;
  const tooSmall = () =>
    refused(
      'INSTALLMENT_TOO_SMALL',
      `An instalment of ${installment} does not repay ${balance} within ${max} instalments`,
      'amount',
    );
  if (contract.method === 'declining') {
    // Count the instalments: interest on the balance each period, the last one clears it.
    let b = balance;
    let count = 0;
    while (b > 0) {
      count += 1;
      if (count > max) throw tooSmall();
      const interest = mulHalfEven(b, prepared);
      const principal = installment - interest;
      if (principal <= 0) throw tooSmall();
      b -= Math.min(principal, b);
    }
    const dates = datesFor(contract, remaining, count);
    return amortize({
      method: 'declining',
      principal: balance,
      installment,
      dueDates: dates,
      firstNumber: first.n,
      rate: prepared,
      serviceFee: feesFor(remaining, count),
    });
  }
  // Flat: the smallest term m with m x instalment >= balance + flat interest over m periods.
  const covers = (m: number) =>
    m * installment >= balance + flatTotalInterest(balance, aprFrac, contract.frequency, m);
  const perPeriod = flatTotalInterest(balance, aprFrac, contract.frequency, 1);
  if (installment <= perPeriod) throw tooSmall();
  let m = Math.max(1, Math.ceil(balance / (installment - perPeriod)));
  while (m > 1 && covers(m - 1)) m -= 1;
  while (!covers(m)) {
    m += 1;
    if (m > max) throw tooSmall();
  }
  if (m > max) throw tooSmall();
  const total = flatTotalInterest(balance, aprFrac, contract.frequency, m);
  return amortize({
    method: 'flat',
    principal: balance,
    installment,
    dueDates: datesFor(contract, remaining, m),
    firstNumber: first.n,
    rate: prepared,
    flatInterest: spreadFlatInterest(total, m),
    serviceFee: feesFor(remaining, m),
  });
}

export interface PortfolioScenarioResult {
  change: ScenarioChange;
  asOf: BusinessDate;
  contracts: number;
  applied: number;
  skipped: { contractId: string | undefined; code: string; reason: string }[];
  totals: {
    baselineRemaining: number;
    scenarioRemaining: number;
    interestSavings: number;
    serviceFeeSavings: number;
    totalCostChange: number;
    termReductionDays: number;
    installmentChange: number;
  };
  /** Per applied contract (0 when nothing applied). */
  averages: {
    interestSavings: number;
    serviceFeeSavings: number;
    totalCostChange: number;
    termReductionDays: number;
    installmentChange: number;
  };
  /** Per-contract results when asked for (`includeResults`). */
  results?: ScenarioResult[];
}

/**
 * Runs one change over many contracts. Contracts the change cannot apply to (nothing left,
 * instalment too small...) are skipped with their reason; other errors propagate. Averages are
 * per applied contract, in minor units / days, rounded HALF_EVEN to whole units.
 */
export function runPortfolioScenario(
  contracts: Iterable<ScenarioContract>,
  change: ScenarioChange,
  asOf: BusinessDate,
  options: { includeResults?: boolean } = {},
): PortfolioScenarioResult {
  const totals = {
    baselineRemaining: 0,
    scenarioRemaining: 0,
    interestSavings: 0,
    serviceFeeSavings: 0,
    totalCostChange: 0,
    termReductionDays: 0,
    installmentChange: 0,
  };
  const skipped: PortfolioScenarioResult['skipped'] = [];
  const results: ScenarioResult[] = [];
  let count = 0;
  let applied = 0;
  for (const c of contracts) {
    count += 1;
    let r: ScenarioResult;
    try {
      r = runScenario(c, change, asOf);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'rule') {
        skipped.push({ contractId: c.id, code: error.code, reason: error.message });
        continue;
      }
      throw error;
    }
    applied += 1;
    totals.baselineRemaining = sumMoney([totals.baselineRemaining, r.baseline.total]);
    totals.scenarioRemaining = sumMoney([totals.scenarioRemaining, r.scenario.total]);
    totals.interestSavings += r.interestSavings;
    totals.serviceFeeSavings += r.serviceFeeSavings;
    totals.totalCostChange += r.totalCostChange;
    totals.termReductionDays += r.termReductionDays;
    totals.installmentChange += r.installmentChange;
    if (options.includeResults) results.push(r);
  }
  const avg = (v: number) => (applied === 0 ? 0 : divHalfEven(v, applied));
  const out: PortfolioScenarioResult = {
    change,
    asOf,
    contracts: count,
    applied,
    skipped,
    totals,
    averages: {
      interestSavings: avg(totals.interestSavings),
      serviceFeeSavings: avg(totals.serviceFeeSavings),
      totalCostChange: avg(totals.totalCostChange),
      termReductionDays: avg(totals.termReductionDays),
      installmentChange: avg(totals.installmentChange),
    },
  };
  if (options.includeResults) out.results = results;
  return out;
}
