/**
 * Repayment schedules (declining balance and flat), reproducing Apache Fineract's rounding.
 *
 * Rules (PRODUCT.md "Schedule maths"):
 * - periodic rate r: monthly APR/12, weekly APR x 7/365, daily APR/365 (APR nominal, in %);
 * - declining: instalment = P r / (1 - (1 + r)^-n) (r = 0: P / n), computed as an exact fraction and
 *   rounded HALF_EVEN to the minor unit, or rounded DOWN to the instalment multiple; each period's
 *   interest = balance x r rounded HALF_EVEN; principal part = instalment - interest; the last
 *   instalment clears the balance;
 * - flat: total interest = P x APR x years (monthly n/12, weekly 7n/365, daily n/365) rounded
 *   HALF_EVEN; per-period interest = total / n rounded HALF_EVEN, the last takes the residue;
 *   instalment = (P + total interest) / n rounded (or down to the multiple); the last clears;
 * - the service fee is its own component on every instalment, never interest;
 * - due dates: first = start + one period; monthly keeps the start's day of month, clamped to the
 *   month end (computed from the start date each time, so 31 Jan -> 28/29 Feb -> 31 Mar).
 * Rounding can make the regular instalment overshoot the balance in a long schedule; a principal
 * part never exceeds the balance, so rows after the balance reaches zero carry only their fee.
 */

import { type BusinessDate, dueDates, FREQUENCIES, type Frequency, isBusinessDate } from './dates';
import { invalid, refused } from './errors';
import { assertSafeMoney } from './money';
import {
  type DecimalInput,
  divFloorBig,
  divHalfEven,
  divHalfEvenBig,
  mulHalfEven,
  type PreparedRatio,
  prepareRatio,
  type Ratio,
  ratio,
  ratioFromDecimal,
  ratioToString,
} from './rational';

export type InterestMethod = 'declining' | 'flat';
export const INTEREST_METHODS: readonly InterestMethod[] = ['declining', 'flat'];

export const SCHEDULE_LIMITS = Object.freeze({
  minTerm: 1,
  maxTerm: 3660,
  minApr: 0,
  maxApr: 1000,
});

export interface ScheduleInput {
  /** Amount financed (price - deposit), minor units, > 0. */
  principal: number;
  /** Nominal annual rate in percent (15 means 15 %), 0..1000; number, decimal string or Decimal. */
  apr: DecimalInput;
  frequency: Frequency;
  /** Number of instalments, 1..3660. */
  term: number;
  method: InterestMethod;
  /** Contract start (disbursement) date; the first instalment falls one period later. */
  startDate: BusinessDate;
  /** Round the instalment down to a multiple of this many minor units (0 or absent: none). */
  installmentMultiple?: number;
  /** Service fee added to every instalment as its own component, minor units. */
  serviceFeePerPeriod?: number;
}

export interface ScheduleRow {
  n: number;
  dueDate: BusinessDate;
  principal: number;
  interest: number;
  serviceFee: number;
  /** principal + interest + serviceFee */
  total: number;
  /** Principal still outstanding after this instalment. */
  balance: number;
}

export interface ScheduleTotals {
  /** The regular instalment (principal + interest), before its service fee. */
  installment: number;
  /** What the customer pays per period: installment + service fee. */
  regularPayment: number;
  /** The last instalment's principal + interest (it clears the balance). */
  lastInstallment: number;
  totalPrincipal: number;
  totalInterest: number;
  totalServiceFees: number;
  /** principal + interest + service fees */
  totalPayable: number;
}

export interface Schedule {
  rows: ScheduleRow[];
  totals: ScheduleTotals;
  /**
   * The periodic rate as a fraction of one, decimal text rounded to 12 places (e.g. '0.0125').
   * Plain data like the rest of the schedule, so it serialises to JSON as is; the exact fraction
   * is `periodicRate(apr, frequency)`.
   */
  periodicRate: string;
}

export interface FieldIssue {
  field: string;
  message: string;
}

const aprByNumber = new Map<number, Ratio>();
const aprByText = new Map<string, Ratio>();

function parseAprFraction(apr: DecimalInput): Ratio {
  const pct = ratioFromDecimal(apr, 'apr');
  return ratio(pct.num, pct.den * 100n);
}

/** The APR percent as an exact fraction of one (15 -> 3/20), cached per distinct value. */
export function aprFraction(apr: DecimalInput): Ratio {
  if (typeof apr === 'number') {
    let r = aprByNumber.get(apr);
    if (!r) {
      r = parseAprFraction(apr);
      if (aprByNumber.size > 4096) aprByNumber.clear();
      aprByNumber.set(apr, r);
    }
    return r;
  }
  const key = String(apr);
  let r = aprByText.get(key);
  if (!r) {
    r = parseAprFraction(apr);
    if (aprByText.size > 4096) aprByText.clear();
    aprByText.set(key, r);
  }
  return r;
}

/** Periodic rate (fraction) from an APR given as a fraction: monthly /12, weekly x7/365, daily /365. */
export function periodicRateOf(aprFrac: Ratio, frequency: Frequency): Ratio {
  switch (frequency) {
    case 'monthly':
      return ratio(aprFrac.num, aprFrac.den * 12n);
    case 'weekly':
      return ratio(aprFrac.num * 7n, aprFrac.den * 365n);
    case 'daily':
      return ratio(aprFrac.num, aprFrac.den * 365n);
  }
}

export interface RateInfo {
  /** The APR as a fraction of one (15 % -> 3/20). */
  aprFrac: Ratio;
  /** The periodic rate as a fraction of one. */
  rate: Ratio;
  /** The periodic rate as decimal text (12 places). */
  rateText: string;
  prepared: PreparedRatio;
}

const rateInfoByNumber: Record<Frequency, Map<number, RateInfo>> = {
  daily: new Map(),
  weekly: new Map(),
  monthly: new Map(),
};
const rateInfoByText: Record<Frequency, Map<string, RateInfo>> = {
  daily: new Map(),
  weekly: new Map(),
  monthly: new Map(),
};

function computeRateInfo(apr: DecimalInput, frequency: Frequency): RateInfo {
  const aprFrac = aprFraction(apr);
  const rate = periodicRateOf(aprFrac, frequency);
  return { aprFrac, rate, rateText: ratioToString(rate, 12), prepared: prepareRatio(rate) };
}

/** APR fraction, periodic rate and its prepared multiplier, cached per (APR, frequency). */
export function rateInfo(apr: DecimalInput, frequency: Frequency): RateInfo {
  if (typeof apr === 'number') {
    const cache = rateInfoByNumber[frequency];
    let info = cache.get(apr);
    if (!info) {
      info = computeRateInfo(apr, frequency);
      if (cache.size > 4096) cache.clear();
      cache.set(apr, info);
    }
    return info;
  }
  const cache = rateInfoByText[frequency];
  const key = String(apr);
  let info = cache.get(key);
  if (!info) {
    info = computeRateInfo(apr, frequency);
    if (cache.size > 4096) cache.clear();
    cache.set(key, info);
  }
  return info;
}

/** The periodic rate of an APR in percent. */
export function periodicRate(apr: DecimalInput, frequency: Frequency): Ratio {
  return periodicRateOf(aprFraction(apr), frequency);
}

/** Term in years as a fraction: monthly n/12, weekly 7n/365, daily n/365. */
export function termInYears(frequency: Frequency, periods: number): Ratio {
  const n = BigInt(periods);
  switch (frequency) {
    case 'monthly':
      return ratio(n, 12n);
    case 'weekly':
      return ratio(7n * n, 365n);
    case 'daily':
      return ratio(n, 365n);
  }
}

const powCache = new Map<string, { g: bigint; d: bigint }>();

/**
 * The exact annuity payment P r / (1 - (1 + r)^-n) as a fraction, not necessarily reduced (r = 0: P / n). With r = a/b it is
 * P a (a + b)^n / (b ((a + b)^n - b^n)); powers are cached per (r, n).
 */
export function annuityPayment(principal: number, rate: Ratio, periods: number): Ratio {
  const p = BigInt(principal);
  const n = BigInt(periods);
  if (rate.num === 0n) return ratio(p, n);
  const key = `${rate.num}/${rate.den}/${periods}`;
  let pw = powCache.get(key);
  if (!pw) {
    pw = { g: (rate.num + rate.den) ** n, d: rate.den ** n };
    if (powCache.size > 256) powCache.clear();
    powCache.set(key, pw);
  }
  // Not reduced: a gcd of numbers this size would cost more than the whole schedule.
  return { num: p * rate.num * pw.g, den: rate.den * (pw.g - pw.d) };
}

/** Rounds an exact instalment: HALF_EVEN to the minor unit, or DOWN to `multiple` when > 0. */
export function roundInstallment(exact: Ratio, multiple: number): number {
  if (multiple > 0) {
    const m = BigInt(multiple);
    return assertSafeMoney(Number(divFloorBig(exact.num, exact.den * m) * m), 'installment');
  }
  return assertSafeMoney(Number(divHalfEvenBig(exact.num, exact.den)), 'installment');
}

/** Relative error allowed for the floating-point annuity (its true error is below 1e-14). */
const FLOAT_ANNUITY_TOLERANCE = 1e-11;

/**
 * The rounded annuity instalment. The annuity is first evaluated in floating point
 * (P r / -expm1(-n log1p r), error < 1e-14 relative); when the result is clearly away from the
 * rounding boundary (x.5 for HALF_EVEN, a whole multiple for rounding down) that rounding is
 * certain. Otherwise, and for huge values, the exact fraction decides. Either way the result
 * equals rounding the exact annuity.
 */
export function annuityInstallment(principal: number, rate: Ratio, periods: number, multiple = 0): number {
  if (rate.num !== 0n && rate.num <= 0x1fffffffffffffn && rate.den <= 0x1fffffffffffffn) {
    const r = Number(rate.num) / Number(rate.den);
    const a = (principal * r) / -Math.expm1(-periods * Math.log1p(r));
    if (Number.isFinite(a) && a < 2 ** 50) {
      const x = multiple > 0 ? a / multiple : a;
      const f = Math.floor(x);
      const margin = x * FLOAT_ANNUITY_TOLERANCE + 1e-9;
      if (multiple > 0) {
        if (x - f > margin && f + 1 - x > margin) return f * multiple;
      } else if (Math.abs(x - f - 0.5) > margin) {
        return x - f < 0.5 ? f : f + 1;
      }
    }
  }
  return roundInstallment(annuityPayment(principal, rate, periods), multiple);
}

/** (a / b) rounded down for safe non-negative integers, exactly. */
function floorDiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  let r = a - q * b;
  while (r < 0) {
    q -= 1;
    r += b;
  }
  while (r >= b) {
    q += 1;
    r -= b;
  }
  return q;
}

/** (P + total interest) / n rounded HALF_EVEN, or down to the multiple. */
export function flatInstallment(
  principal: number,
  totalInterest: number,
  periods: number,
  multiple: number,
): number {
  const sum = assertSafeMoney(principal + totalInterest, 'total payable');
  return multiple > 0 ? floorDiv(sum, periods * multiple) * multiple : divHalfEven(sum, periods);
}

/** Every problem with a schedule input, for forms that show all messages at once. */
export function scheduleInputIssues(input: ScheduleInput): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const { principal, term, installmentMultiple, serviceFeePerPeriod } = input;
  if (typeof principal !== 'number' || !Number.isSafeInteger(principal) || principal <= 0) {
    issues.push({
      field: 'principal',
      message: 'principal must be a whole number of minor units greater than 0',
    });
  }
  if (typeof term !== 'number' || !Number.isInteger(term) || term < 1 || term > SCHEDULE_LIMITS.maxTerm) {
    issues.push({
      field: 'term',
      message: `term must be a whole number of instalments from 1 to ${SCHEDULE_LIMITS.maxTerm}`,
    });
  }
  try {
    const frac = aprFraction(input.apr);
    if (frac.num < 0n || frac.num * 100n > BigInt(SCHEDULE_LIMITS.maxApr) * frac.den) {
      issues.push({ field: 'apr', message: `apr must be between 0 and ${SCHEDULE_LIMITS.maxApr} (percent)` });
    }
  } catch {
    issues.push({ field: 'apr', message: 'apr must be a decimal number of percent, e.g. 15 or 19.99' });
  }
  if (!FREQUENCIES.includes(input.frequency)) {
    issues.push({ field: 'frequency', message: 'frequency must be daily, weekly or monthly' });
  }
  if (!INTEREST_METHODS.includes(input.method)) {
    issues.push({ field: 'method', message: 'method must be declining or flat' });
  }
  if (!isBusinessDate(input.startDate)) {
    issues.push({ field: 'startDate', message: 'startDate must be a date in the form YYYY-MM-DD' });
  }
  if (
    installmentMultiple !== undefined &&
    (typeof installmentMultiple !== 'number' ||
      !Number.isSafeInteger(installmentMultiple) ||
      installmentMultiple < 0)
  ) {
    issues.push({
      field: 'installmentMultiple',
      message: 'installmentMultiple must be a whole number of minor units, 0 or more',
    });
  }
  if (
    serviceFeePerPeriod !== undefined &&
    (typeof serviceFeePerPeriod !== 'number' ||
      !Number.isSafeInteger(serviceFeePerPeriod) ||
      serviceFeePerPeriod < 0)
  ) {
    issues.push({
      field: 'serviceFeePerPeriod',
      message: 'serviceFeePerPeriod must be a whole number of minor units, 0 or more',
    });
  }
  return issues;
}

/** Throws the first input problem as a validation DomainError. */
export function validateScheduleInput(input: ScheduleInput): void {
  const first = scheduleInputIssues(input)[0];
  if (first) throw invalid(first.field, first.message);
}

/** Internal amortisation core shared by schedules, restructures and prepayments. */
export interface AmortizeParams {
  method: InterestMethod;
  /** Principal to amortise. */
  principal: number;
  /** Regular instalment (principal + interest). */
  installment: number;
  dueDates: readonly BusinessDate[];
  /** Number of the first row. */
  firstNumber: number;
  /** Declining: the periodic rate. */
  rate: PreparedRatio;
  /** Flat: per-row interest (length = dueDates.length). */
  flatInterest?: readonly number[];
  /** Overrides the first row's interest (a prepayment keeps the current period's scheduled interest). */
  firstInterest?: number;
  /** Service fee of each row: one amount for all rows, or one per row. */
  serviceFee: number | readonly number[];
  /** Stop as soon as the balance is cleared (re-amortisation with a fixed instalment shortens the term). */
  stopWhenCleared?: boolean;
}

/**
 * Amortises `principal` over the due dates with the given instalment; the last row clears the
 * balance. A principal part is never negative nor above the balance.
 */
export function amortize(p: AmortizeParams): ScheduleRow[] {
  const count = p.dueDates.length;
  const rows: ScheduleRow[] = new Array(count);
  const { installment, rate, flatInterest, serviceFee } = p;
  const declining = p.method === 'declining';
  const feeIsArray = typeof serviceFee !== 'number';
  let balance = p.principal;
  let produced = count;
  for (let i = 0; i < count; i++) {
    let interest: number;
    if (i === 0 && p.firstInterest !== undefined) interest = p.firstInterest;
    else if (declining) interest = balance > 0 ? mulHalfEven(balance, rate) : 0;
    else interest = flatInterest?.[i] ?? 0;
    let principal: number;
    if (i === count - 1) principal = balance;
    else {
      principal = installment - interest;
      if (principal > balance) principal = balance;
      else if (principal < 0) principal = 0;
    }
    balance -= principal;
    const fee = feeIsArray ? (serviceFee[i] ?? 0) : serviceFee;
    rows[i] = {
      n: p.firstNumber + i,
      dueDate: p.dueDates[i] as BusinessDate,
      principal,
      interest,
      serviceFee: fee,
      total: principal + interest + fee,
      balance,
    };
    if (balance === 0 && p.stopWhenCleared) {
      produced = i + 1;
      break;
    }
  }
  if (produced < count) rows.length = produced;
  return rows;
}

/** Flat interest spread: total / n rounded HALF_EVEN per period, never beyond the total; the last takes the residue. */
export function spreadFlatInterest(totalInterest: number, periods: number): number[] {
  const per = divHalfEven(totalInterest, periods);
  const out: number[] = new Array(periods);
  let remaining = totalInterest;
  for (let i = 0; i < periods - 1; i++) {
    const v = Math.min(per, remaining);
    out[i] = v;
    remaining -= v;
  }
  out[periods - 1] = remaining;
  return out;
}

/** Flat total interest P x APR x years, rounded HALF_EVEN. */
export function flatTotalInterest(
  principal: number,
  aprFrac: Ratio,
  frequency: Frequency,
  periods: number,
): number {
  const years = termInYears(frequency, periods);
  return assertSafeMoney(
    Number(divHalfEvenBig(BigInt(principal) * aprFrac.num * years.num, aprFrac.den * years.den)),
    'total interest',
  );
}

/** Totals of a list of rows. `installment` is the regular instalment used to build them. */
export function totalsOf(rows: readonly ScheduleRow[], installment: number): ScheduleTotals {
  let totalPrincipal = 0;
  let totalInterest = 0;
  let totalServiceFees = 0;
  for (const r of rows) {
    totalPrincipal += r.principal;
    totalInterest += r.interest;
    totalServiceFees += r.serviceFee;
  }
  const last = rows[rows.length - 1];
  const first = rows[0];
  const totalPayable = assertSafeMoney(totalPrincipal + totalInterest + totalServiceFees, 'total payable');
  return {
    installment,
    regularPayment: installment + (first?.serviceFee ?? 0),
    lastInstallment: last ? last.principal + last.interest : 0,
    totalPrincipal,
    totalInterest,
    totalServiceFees,
    totalPayable,
  };
}

/**
 * Builds the repayment schedule. Throws a validation DomainError for malformed input, a rule
 * DomainError when the instalment would round to zero or (with a multiple) below the first
 * period's interest, and a RangeError when amounts leave the safe integer range.
 */
export function buildSchedule(input: ScheduleInput): Schedule {
  validateScheduleInput(input);
  const { rows, installment } = amortizeOver({
    principal: input.principal,
    apr: input.apr,
    frequency: input.frequency,
    method: input.method,
    dueDates: dueDates(input.startDate, input.frequency, input.term),
    firstNumber: 1,
    serviceFee: input.serviceFeePerPeriod ?? 0,
    installmentMultiple: input.installmentMultiple ?? 0,
  });
  return {
    rows,
    totals: totalsOf(rows, installment),
    periodicRate: rateInfo(input.apr, input.frequency).rateText,
  };
}

export interface AmortizeOverParams {
  principal: number;
  apr: DecimalInput;
  frequency: Frequency;
  method: InterestMethod;
  /** One due date per instalment; the term is their number. */
  dueDates: readonly BusinessDate[];
  firstNumber: number;
  serviceFee: number | readonly number[];
  installmentMultiple: number;
}

/**
 * The schedule maths over given due dates (used by buildSchedule and by restructures, whose due
 * dates continue the contract's calendar). Same rules and refusals as buildSchedule.
 */
export function amortizeOver(p: AmortizeOverParams): {
  rows: ScheduleRow[];
  installment: number;
  rate: Ratio;
} {
  const { principal, frequency, method } = p;
  const term = p.dueDates.length;
  const multiple = p.installmentMultiple;
  const { aprFrac, rate, prepared } = rateInfo(p.apr, frequency);
  let installment: number;
  let flatInterest: number[] | undefined;
  let firstInterest: number;
  if (method === 'declining') {
    installment = annuityInstallment(principal, rate, term, multiple);
    firstInterest = mulHalfEven(principal, prepared);
  } else {
    const total = flatTotalInterest(principal, aprFrac, frequency, term);
    flatInterest = spreadFlatInterest(total, term);
    installment = flatInstallment(principal, total, term, multiple);
    firstInterest = flatInterest[0] ?? 0;
  }
  if (installment <= 0) {
    throw refused(
      'INSTALLMENT_ROUNDS_TO_ZERO',
      multiple > 0
        ? `The instalment is below the instalment multiple (${multiple}): lower the multiple or shorten the term`
        : 'The instalment rounds to zero: increase the principal or shorten the term',
      multiple > 0 ? 'installmentMultiple' : 'term',
    );
  }
  if (term > 1 && installment < firstInterest) {
    throw refused(
      'INSTALLMENT_BELOW_INTEREST',
      `Rounded down to the multiple (${multiple}), the instalment ${installment} would not cover the first period's interest ${firstInterest}`,
      'installmentMultiple',
    );
  }
  const params: AmortizeParams = {
    method,
    principal,
    installment,
    dueDates: p.dueDates,
    firstNumber: p.firstNumber,
    rate: prepared,
    serviceFee: p.serviceFee,
  };
  if (flatInterest) params.flatInterest = flatInterest;
  return { rows: amortize(params), installment, rate };
}
