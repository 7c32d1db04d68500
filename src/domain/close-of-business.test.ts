import { describe, expect, it } from 'vitest';
import { defaultsOn, interestEarnedTo, locksOn } from './close-of-business';
import { addDays, daysBetween } from './dates';
import { bucketFor, bucketsFromBounds } from './delinquency';

describe('close of business decisions', () => {
  it.each([
    // [dpd, lock-after, locks, default-after, defaults]
    [0, 7, false, 60, false],
    [7, 7, false, 60, false],
    [8, 7, true, 60, false],
    [59, 7, true, 60, false],
    [60, 7, true, 60, true],
    [400, null, false, null, false],
    [1, 0, true, 1, true],
  ] as const)(
    'dpd %i: lock after %s → %s, default after %s → %s',
    (dpd, lockAfter, locks, defaultAfter, defaults) => {
      expect(locksOn(dpd, lockAfter)).toBe(locks);
      expect(defaultsOn(dpd, defaultAfter)).toBe(defaults);
    },
  );

  it.each([
    // Days past due across month ends and leap days, and the default buckets they fall in.
    ['2024-01-31', '2024-03-01', 30, '8-30'],
    ['2024-02-29', '2024-03-01', 1, '1-7'],
    ['2023-02-28', '2023-03-01', 1, '1-7'],
    ['2023-12-31', '2024-03-01', 61, '61-90'],
    ['2024-02-28', '2024-02-29', 1, '1-7'],
    ['2023-12-01', '2024-03-01', 91, '91+'],
  ])('due %s, closed %s: %i days past due, bucket %s', (due, closed, dpd, bucket) => {
    expect(daysBetween(due, closed)).toBe(dpd);
    expect(bucketFor(dpd, bucketsFromBounds([1, 8, 31, 61, 91])).label).toBe(bucket);
  });

  it('earns each instalment’s interest evenly over its period, the days summing to it exactly', () => {
    // Monthly from 30 November 2023: due dates clamped to 29 February in a leap year.
    const schedule = [
      { dueDate: '2023-12-30', interestDue: 1_000 },
      { dueDate: '2024-01-30', interestDue: 777 },
      { dueDate: '2024-02-29', interestDue: 333 },
    ];
    const start = '2023-11-30';
    expect(interestEarnedTo(schedule, start, start)).toBe(0);
    expect(interestEarnedTo(schedule, start, '2023-12-15')).toBe(500);
    expect(interestEarnedTo(schedule, start, '2023-12-30')).toBe(1_000);
    expect(interestEarnedTo(schedule, start, '2024-02-29')).toBe(2_110);
    expect(interestEarnedTo(schedule, start, '2025-01-01')).toBe(2_110);
    let total = 0;
    let previous = 0;
    for (let day = start; day <= '2024-02-29'; day = addDays(day, 1)) {
      const earned = interestEarnedTo(schedule, start, day);
      expect(earned).toBeGreaterThanOrEqual(previous);
      total += earned - previous;
      previous = earned;
    }
    expect(total).toBe(2_110);
  });
});
