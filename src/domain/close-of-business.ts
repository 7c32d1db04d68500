import { type BusinessDate, toDayNumber } from './dates';
import { divHalfEven } from './rational';

/**
 * The close of business's decisions on one contract, as pure rules (PRODUCT.md §2 "Close of
 * business"). The server applies them set-based in SQL (modules/contracts/close-of-business.ts);
 * the tests hold the SQL to these across month ends and leap years.
 */

/** Step 3: a unit is locked when days past due exceed the plan's lock-after days (none: never). */
export function locksOn(dpd: number, lockAfterDays: number | null): boolean {
  return lockAfterDays !== null && dpd > lockAfterDays;
}

/** Step 4: a contract defaults when days past due reach the plan's default-after days (none: never). */
export function defaultsOn(dpd: number, defaultAfterDays: number | null): boolean {
  return defaultAfterDays !== null && dpd >= defaultAfterDays;
}

export interface AccrualInstallment {
  dueDate: BusinessDate;
  interestDue: number;
}

/**
 * Step 7: interest earned by the end of `date`. Each instalment's interest is earned evenly over
 * its period (from the previous due date, or the start, to its due date), a day at a time, each
 * instalment's share rounded HALF_EVEN; a period ended has earned all of its interest. The day's
 * accrual is the difference between two days' figures, so the days of a period sum exactly to its
 * interest.
 */
export function interestEarnedTo(
  installments: readonly AccrualInstallment[],
  startDate: BusinessDate,
  date: BusinessDate,
): number {
  const day = toDayNumber(date);
  let previous = toDayNumber(startDate);
  let earned = 0;
  for (const installment of [...installments].sort((a, b) => (a.dueDate < b.dueDate ? -1 : 1))) {
    const due = toDayNumber(installment.dueDate);
    const length = due - previous;
    const elapsed = Math.min(Math.max(day - previous, 0), length);
    if (length > 0) earned += divHalfEven(installment.interestDue * elapsed, length);
    previous = due;
  }
  return earned;
}
