// Shared builders for the finance engine's tests (not exported from index.ts).
import fc from 'fast-check';
import { type InstallmentPosition, positionsFromSchedule } from './allocation';
import { addDays, type BusinessDate } from './dates';
import { buildSchedule, type ScheduleInput } from './schedule';

export function positionsOf(input: ScheduleInput): InstallmentPosition[] {
  return positionsFromSchedule(buildSchedule(input).rows);
}

/** A simple weekly contract: 10000 over 4 weeks at 0 %, service fee 100 (instalments of 2600). */
export const simpleWeekly: ScheduleInput = {
  principal: 10000,
  apr: 0,
  frequency: 'weekly',
  term: 4,
  method: 'declining',
  startDate: '2025-01-01',
  serviceFeePerPeriod: 100,
};

/** Random valid contracts whose instalment cannot round to nothing. */
export const contractArb = fc
  .record({
    principal: fc.integer({ min: 5_000, max: 5_000_000 }),
    aprTenths: fc.integer({ min: 0, max: 1200 }),
    frequency: fc.constantFrom('daily' as const, 'weekly' as const, 'monthly' as const),
    term: fc.integer({ min: 1, max: 60 }),
    method: fc.constantFrom('declining' as const, 'flat' as const),
    fee: fc.integer({ min: 0, max: 500 }),
    multiple: fc.constantFrom(0, 0, 100),
  })
  .map(
    (r): ScheduleInput => ({
      principal: r.principal,
      apr: r.aprTenths / 10,
      frequency: r.frequency,
      term: r.term,
      method: r.method,
      startDate: '2024-01-31',
      serviceFeePerPeriod: r.fee,
      installmentMultiple: r.multiple,
    }),
  )
  .filter((input) => {
    try {
      buildSchedule(input);
      return true;
    } catch {
      return false;
    }
  });

/** Random payments: day offsets from the start and amounts. */
export const paymentsArb = fc.array(
  fc.record({ day: fc.integer({ min: 0, max: 2000 }), amount: fc.integer({ min: 1, max: 3_000_000 }) }),
  { minLength: 1, maxLength: 12 },
);

export function datedPayments(
  start: BusinessDate,
  payments: readonly { day: number; amount: number }[],
): { id: string; date: BusinessDate; amount: number }[] {
  return [...payments]
    .sort((a, b) => a.day - b.day)
    .map((p, i) => ({ id: `p${i + 1}`, date: addDays(start, p.day), amount: p.amount }));
}
