/**
 * Delinquency: days past due, buckets, late fees and the paid-through date.
 *
 * - An instalment is overdue on business date D when its due date is before D and it is not
 *   settled (some component, penalties included, unpaid).
 * - DPD on D = D - the oldest overdue instalment's due date; 0 when nothing is overdue (an
 *   instalment due on D itself is not yet overdue).
 * - Late fee: assessed at the close of business of D for every instalment whose principal,
 *   interest or service fee is still unpaid and D - due date > grace days; once per instalment
 *   (the caller passes the instalments already charged). Flat amount, or a percentage of the
 *   instalment's overdue amount (unpaid principal + interest + service fee) rounded HALF_EVEN.
 * - Paid-through date: walk the instalments in due order, each covering its period
 *   (previous due date, or the contract start for the first, up to its own due date). Fully paid
 *   instalments (principal + interest + service fee; penalties do not buy time) move the date to
 *   their due date; the first instalment not fully paid adds floor(period days x paid / due) days;
 *   the walk stops there. With nothing paid it is the start date; fully paid, the last due date.
 */
import {
  type Components,
  clonePositions,
  type InstallmentPosition,
  isSettled,
  outstandingComponents,
  sortPositions,
  sumComponents,
  totalOutstanding,
  zeroComponents,
} from './allocation';
import { addDays, assertBusinessDate, type BusinessDate, toDayNumber } from './dates';
import { invalid, requireInteger } from './errors';
import { assertSafeMoney, percentOf } from './money';
import type { DecimalInput } from './rational';

export interface Bucket {
  label: string;
  /** Smallest DPD in the bucket. */
  min: number;
  /** Largest DPD in the bucket; null for the open-ended last bucket. */
  max: number | null;
}

export const DEFAULT_BUCKETS: readonly Bucket[] = Object.freeze([
  { label: 'current', min: 0, max: 0 },
  { label: '1-7', min: 1, max: 7 },
  { label: '8-30', min: 8, max: 30 },
  { label: '31-60', min: 31, max: 60 },
  { label: '61-90', min: 61, max: 90 },
  { label: '91+', min: 91, max: null },
]);

/**
 * An organisation's buckets from the lower bounds it configures after "current" (days past due,
 * ascending): [1, 8, 31, 61, 91] gives current, 1-7, 8-30, 31-60, 61-90 and 91+. The labels are the
 * values lists store and filter on.
 */
export function bucketsFromBounds(bounds: readonly number[]): Bucket[] {
  const buckets: Bucket[] = [{ label: 'current', min: 0, max: 0 }];
  bounds.forEach((min, index) => {
    const next = bounds[index + 1];
    buckets.push({
      label: next === undefined ? `${min}+` : `${min}-${next - 1}`,
      min,
      max: next === undefined ? null : next - 1,
    });
  });
  return buckets;
}

/**
 * Checks configurable bucket ranges: they must start at 0, be contiguous and end with an
 * open-ended bucket. Returns them unchanged, or throws a validation error saying what is wrong.
 */
export function validateBuckets(buckets: readonly Bucket[]): readonly Bucket[] {
  if (buckets.length === 0) throw invalid('buckets', 'At least one bucket is required');
  let expected = 0;
  const labels = new Set<string>();
  buckets.forEach((b, i) => {
    if (!b.label.trim()) throw invalid('buckets', `Bucket ${i + 1} needs a label`);
    if (labels.has(b.label)) throw invalid('buckets', `Bucket label "${b.label}" is used twice`);
    labels.add(b.label);
    if (b.min !== expected) {
      throw invalid(
        'buckets',
        `Bucket "${b.label}" must start at ${expected} days (ranges must be contiguous from 0)`,
      );
    }
    const last = i === buckets.length - 1;
    if (last && b.max !== null) throw invalid('buckets', `The last bucket "${b.label}" must be open-ended`);
    if (!last) {
      if (b.max === null || !Number.isInteger(b.max) || b.max < b.min) {
        throw invalid('buckets', `Bucket "${b.label}" needs a maximum of at least ${b.min} days`);
      }
      expected = b.max + 1;
    }
  });
  return buckets;
}

/** The bucket a DPD falls into. */
export function bucketFor(dpd: number, buckets: readonly Bucket[] = DEFAULT_BUCKETS): Bucket {
  for (const b of buckets) {
    if (dpd >= b.min && (b.max === null || dpd <= b.max)) return b;
  }
  const last = buckets[buckets.length - 1];
  if (!last) throw invalid('buckets', 'At least one bucket is required');
  return last;
}

/** Due date of the oldest instalment overdue on `date`, or null. */
export function oldestUnpaidDueDate(
  positions: readonly InstallmentPosition[],
  date: BusinessDate,
): BusinessDate | null {
  let oldest: BusinessDate | null = null;
  for (const p of positions) {
    if (p.dueDate < date && !isSettled(p) && (oldest === null || p.dueDate < oldest)) oldest = p.dueDate;
  }
  return oldest;
}

/** Days past due on `date`: date - oldest overdue due date, 0 when nothing is overdue. */
export function daysPastDue(positions: readonly InstallmentPosition[], date: BusinessDate): number {
  const oldest = oldestUnpaidDueDate(positions, date);
  return oldest === null ? 0 : toDayNumber(date) - toDayNumber(oldest);
}

export type LateFeeRule = { kind: 'flat'; amount: number } | { kind: 'percent'; percent: DecimalInput };

export interface LateFeeCharge {
  installmentNumber: number;
  /** Business date whose close of business charged it. */
  date: BusinessDate;
  amount: number;
}

/** Unpaid principal + interest + service fee of an instalment (what a late fee is a percentage of). */
export function overdueBase(p: InstallmentPosition): number {
  const o = outstandingComponents(p);
  return o.fee + o.interest + o.principal;
}

/** The late fee for one overdue instalment under a rule. */
export function lateFeeAmount(rule: LateFeeRule, p: InstallmentPosition): number {
  if (rule.kind === 'flat') {
    assertSafeMoney(rule.amount, 'late fee');
    if (rule.amount < 0) throw invalid('lateFee.amount', 'The late fee cannot be negative');
    return rule.amount;
  }
  const fee = percentOf(overdueBase(p), rule.percent);
  if (fee < 0) throw invalid('lateFee.percent', 'The late fee percentage cannot be negative');
  return fee;
}

/**
 * Late fees charged at the close of business of `date`: every instalment not yet charged whose
 * principal, interest or service fee is unpaid and that is more than `graceDays` days overdue.
 */
export function assessLateFees(
  positions: readonly InstallmentPosition[],
  date: BusinessDate,
  rule: LateFeeRule,
  graceDays: number,
  alreadyCharged: Iterable<number> = [],
): LateFeeCharge[] {
  assertBusinessDate(date, 'date');
  requireInteger('graceDays', graceDays, 0, 3660);
  const charged = new Set(alreadyCharged);
  const today = toDayNumber(date);
  const out: LateFeeCharge[] = [];
  for (const p of positions) {
    if (charged.has(p.n) || overdueBase(p) <= 0) continue;
    if (today - toDayNumber(p.dueDate) <= graceDays) continue;
    const amount = lateFeeAmount(rule, p);
    if (amount > 0) out.push({ installmentNumber: p.n, date, amount });
  }
  return out;
}

/** New positions with the charges added to their penalty component. */
export function applyLateFees(
  positions: readonly InstallmentPosition[],
  charges: readonly LateFeeCharge[],
): InstallmentPosition[] {
  const out = clonePositions(positions);
  for (const c of charges) {
    const p = out.find((x) => x.n === c.installmentNumber);
    if (!p) throw invalid('installmentNumber', `No instalment number ${c.installmentNumber}`);
    p.due.penalty += c.amount;
  }
  return out;
}

/** See the module comment for the exact definition. */
export function paidThroughDate(
  positions: readonly InstallmentPosition[],
  startDate: BusinessDate,
): BusinessDate {
  assertBusinessDate(startDate, 'startDate');
  const ordered = sortPositions([...positions]);
  let through = startDate;
  for (const p of ordered) {
    const due = p.due.fee + p.due.interest + p.due.principal;
    const paid =
      Math.min(p.paid.fee, p.due.fee) +
      Math.min(p.paid.interest, p.due.interest) +
      Math.min(p.paid.principal, p.due.principal);
    if (paid >= due) {
      if (p.dueDate > through) through = p.dueDate;
      continue;
    }
    const days = toDayNumber(p.dueDate) - toDayNumber(through);
    if (days > 0 && paid > 0) through = addDays(through, Number((BigInt(days) * BigInt(paid)) / BigInt(due)));
    return through;
  }
  return through;
}

export interface NextDue {
  installmentNumber: number;
  dueDate: BusinessDate;
  /** Unpaid amount of that instalment. */
  amount: number;
}

export interface DelinquencySnapshot {
  date: BusinessDate;
  dpd: number;
  bucket: Bucket;
  oldestUnpaidDueDate: BusinessDate | null;
  overdueCount: number;
  /** Unpaid amounts of instalments due before the date. */
  overdue: Components;
  /** Unpaid amounts of instalments due on the date. */
  dueToday: Components;
  /** The first unsettled instalment due on or after the date. */
  nextDue: NextDue | null;
  paidThrough: BusinessDate;
  outstanding: Components;
  totalOutstanding: number;
  totalPaid: number;
  /** Every instalment settled. */
  settled: boolean;
}

/** Everything the contract page and the end of day need about arrears on one date. */
export function delinquencySnapshot(
  positions: readonly InstallmentPosition[],
  options: { date: BusinessDate; startDate: BusinessDate; buckets?: readonly Bucket[] },
): DelinquencySnapshot {
  const { date, startDate } = options;
  assertBusinessDate(date, 'date');
  const ordered = sortPositions([...positions]);
  const overdue = zeroComponents();
  const dueToday = zeroComponents();
  let overdueCount = 0;
  let oldest: BusinessDate | null = null;
  let nextDue: NextDue | null = null;
  let totalPaid = 0;
  for (const p of ordered) {
    totalPaid += sumComponents(p.paid);
    if (isSettled(p)) continue;
    const o = outstandingComponents(p);
    if (p.dueDate < date) {
      overdueCount += 1;
      if (oldest === null) oldest = p.dueDate;
      addInto(overdue, o);
    } else {
      if (p.dueDate === date) addInto(dueToday, o);
      if (!nextDue) nextDue = { installmentNumber: p.n, dueDate: p.dueDate, amount: sumComponents(o) };
    }
  }
  const dpd = oldest === null ? 0 : toDayNumber(date) - toDayNumber(oldest);
  const outstanding = totalOutstanding(ordered);
  const total = sumComponents(outstanding);
  return {
    date,
    dpd,
    bucket: bucketFor(dpd, options.buckets ?? DEFAULT_BUCKETS),
    oldestUnpaidDueDate: oldest,
    overdueCount,
    overdue,
    dueToday,
    nextDue,
    paidThrough: paidThroughDate(ordered, startDate),
    outstanding,
    totalOutstanding: total,
    totalPaid,
    settled: total <= 0,
  };
}

function addInto(target: Components, add: Components): void {
  target.penalty += add.penalty;
  target.fee += add.fee;
  target.interest += add.interest;
  target.principal += add.principal;
}
