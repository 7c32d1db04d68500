import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonthsClamped,
  addPeriods,
  daysBetween,
  daysInMonth,
  dueDates,
  fromDayNumber,
  isBusinessDate,
  isLeapYear,
  shiftOnCalendar,
  toDayNumber,
} from './dates';

const utcIso = (dayNumber: number) => new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);

describe('business dates', () => {
  it('validates YYYY-MM-DD strictly', () => {
    expect(isBusinessDate('2024-02-29')).toBe(true);
    expect(isBusinessDate('2023-02-29')).toBe(false);
    expect(isBusinessDate('2024-13-01')).toBe(false);
    expect(isBusinessDate('2024-1-01')).toBe(false);
    expect(isBusinessDate('2024-01-01T00:00:00Z')).toBe(false);
    expect(isBusinessDate(20240101)).toBe(false);
  });

  it('leap years', () => {
    expect([1900, 2000, 2023, 2024, 2100].map(isLeapYear)).toEqual([false, true, false, true, false]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
  });

  it('day numbers agree with the UTC calendar', () => {
    fc.assert(
      fc.property(fc.integer({ min: -719_162, max: 2_932_896 }), (n) => {
        expect(fromDayNumber(n)).toBe(utcIso(n));
        expect(toDayNumber(utcIso(n))).toBe(n);
      }),
      { numRuns: 2000 },
    );
  });

  it('adds days and measures gaps', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
  });

  it('months are clamped to the month end, from the start day', () => {
    expect(addMonthsClamped('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonthsClamped('2024-01-31', 2)).toBe('2024-03-31');
    expect(addMonthsClamped('2023-01-31', 1)).toBe('2023-02-28');
    expect(addMonthsClamped('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonthsClamped('2024-11-30', 3)).toBe('2025-02-28');
  });

  it('dueDates(start, f, n)[k-1] = addPeriods(start, f, k)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60_000 }),
        fc.constantFrom('daily' as const, 'weekly' as const, 'monthly' as const),
        fc.integer({ min: 1, max: 120 }),
        (start, frequency, n) => {
          const s = fromDayNumber(start);
          const dates = dueDates(s, frequency, n);
          expect(dates).toEqual(Array.from({ length: n }, (_, i) => addPeriods(s, frequency, i + 1)));
        },
      ),
    );
  });

  it('shifts on a contract calendar, keeping the anchor day', () => {
    expect(shiftOnCalendar('2024-02-29', 31, 'monthly', 1)).toBe('2024-03-31');
    expect(shiftOnCalendar('2024-02-29', 30, 'monthly', 2)).toBe('2024-04-30');
    expect(shiftOnCalendar('2024-02-29', 31, 'weekly', 2)).toBe('2024-03-14');
  });
});
