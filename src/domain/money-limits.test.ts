import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from './errors';
import { MAX_MONEY_INPUT } from './money';
import { buildSchedule, SCHEDULE_LIMITS } from './schedule';

/**
 * Issue 12 §2: every money input is capped at MAX_MONEY_INPUT so that no figure derived from
 * inputs within the engine's limits overflows. Before the cap a price of 2^53-1 made the quote a
 * 500 ("total payable ... outside the safe integer range").
 */
describe('money inputs at their cap', () => {
  it('builds the worst schedule within the limits without leaving the safe integer range', () => {
    for (const method of ['flat', 'declining'] as const) {
      const schedule = buildSchedule({
        principal: MAX_MONEY_INPUT,
        apr: SCHEDULE_LIMITS.maxApr,
        frequency: 'monthly',
        term: SCHEDULE_LIMITS.maxTerm,
        method,
        startDate: '2026-01-01',
        serviceFeePerPeriod: MAX_MONEY_INPUT,
      });
      expect(Number.isSafeInteger(schedule.totals.totalPayable), method).toBe(true);
    }
  });

  it('never overflows for any inputs within the limits (it may refuse them by a rule, never by a RangeError)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_MONEY_INPUT }),
        fc.integer({ min: 0, max: SCHEDULE_LIMITS.maxApr }),
        fc.constantFrom('daily' as const, 'weekly' as const, 'monthly' as const),
        fc.integer({ min: 1, max: SCHEDULE_LIMITS.maxTerm }),
        fc.constantFrom('flat' as const, 'declining' as const),
        fc.integer({ min: 0, max: MAX_MONEY_INPUT }),
        (principal, apr, frequency, term, method, fee) => {
          try {
            const schedule = buildSchedule({
              principal,
              apr,
              frequency,
              term,
              method,
              startDate: '2026-01-01',
              serviceFeePerPeriod: fee,
            });
            return Number.isSafeInteger(schedule.totals.totalPayable);
          } catch (error) {
            return error instanceof DomainError;
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
