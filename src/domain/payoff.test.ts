import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocatePayment, isSettled, sumComponents, totalOutstanding } from './allocation';
import { addDays } from './dates';
import { applyWaivers, payoffQuote, settleContract } from './payoff';
import type { ScheduleInput } from './schedule';
import { contractArb, positionsOf } from './test-support';

const caseC: ScheduleInput = {
  principal: 10000,
  apr: 7,
  frequency: 'monthly',
  term: 6,
  method: 'declining',
  startDate: '2024-01-01',
  serviceFeePerPeriod: 100,
};
const caseD: ScheduleInput = {
  principal: 125000,
  apr: 15,
  frequency: 'monthly',
  term: 4,
  method: 'flat',
  startDate: '2024-01-01',
};

describe('payoff quote', () => {
  it('declining (accrued): principal + the current period interest accrued by days', () => {
    // First period 2024-01-01 .. 2024-02-01 (31 days), scheduled interest 58; 15 days -> 28.06 -> 28.
    const q = payoffQuote(positionsOf(caseC), '2024-01-16', { startDate: '2024-01-01', method: 'declining' });
    expect(q).toMatchObject({
      interestRule: 'accrued',
      principal: 10000,
      interestDue: 0,
      interestNotYetDue: 28,
      fees: 0,
      discount: 0,
      total: 10028,
    });
    expect(q.waivers).toContainEqual({ installmentNumber: 1, component: 'interest', amount: 30 });
    expect(q.waivers).toContainEqual({ installmentNumber: 1, component: 'fee', amount: 100 });
  });

  it('includes what is overdue in full', () => {
    // On 2024-02-10 instalment 1 (1701 + fee 100) is overdue; period 2 runs 2024-02-01 .. 2024-03-01 (29 days).
    const q = payoffQuote(positionsOf(caseC), '2024-02-10', { startDate: '2024-01-01', method: 'declining' });
    // Period 2 interest 49 x 9/29 = 15.2 -> 15.
    expect(q).toMatchObject({
      principal: 10000,
      interestDue: 58,
      fees: 100,
      interestNotYetDue: 15,
      total: 10173,
    });
  });

  it('flat (scheduled): all remaining interest, less the early-settlement discount on it', () => {
    const q = payoffQuote(positionsOf(caseD), '2024-01-16', {
      startDate: '2024-01-01',
      method: 'flat',
      earlySettlementDiscountPercent: 50,
    });
    expect(q).toMatchObject({
      interestRule: 'scheduled',
      principal: 125000,
      interestNotYetDue: 6250,
      discount: 3125,
    });
    expect(q.total).toBe(125000 + 3125);
    // The discount is waived from the last instalments backwards.
    expect(q.waivers).toEqual([
      { installmentNumber: 3, component: 'interest', amount: 1561 },
      { installmentNumber: 4, component: 'interest', amount: 1564 },
    ]);
  });

  it('credit reduces the payoff, never below zero', () => {
    const q = payoffQuote(positionsOf(caseC), '2024-01-16', { startDate: '2024-01-01', credit: 28 });
    expect(q.total).toBe(10000);
    expect(
      payoffQuote(positionsOf(caseC), '2024-01-16', { startDate: '2024-01-01', credit: 1e9 }).total,
    ).toBe(0);
  });

  it('settling with the quote settles everything', () => {
    const s = settleContract(positionsOf(caseC), 10028, '2024-01-16', { startDate: '2024-01-01' });
    expect(s.installments.every(isSettled)).toBe(true);
    expect(s.credit).toBe(0);
    expect(() =>
      settleContract(positionsOf(caseC), 10027, '2024-01-16', { startDate: '2024-01-01' }),
    ).toThrow(/payoff amount/);
  });

  it('property: after the waivers the unpaid dues equal total + credit; settling clears the contract', () => {
    fc.assert(
      fc.property(
        contractArb,
        fc.integer({ min: 0, max: 1500 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        (input, day, discount, paid) => {
          let positions = positionsOf(input);
          const date = addDays(input.startDate, day);
          if (paid > 0)
            positions = allocatePayment(
              positions,
              paid,
              addDays(input.startDate, Math.floor(day / 2)),
            ).installments;
          const options = {
            startDate: input.startDate,
            method: input.method,
            earlySettlementDiscountPercent: discount,
          };
          const q = payoffQuote(positions, date, options);
          expect(sumComponents(totalOutstanding(applyWaivers(positions, q.waivers)))).toBe(
            q.total + q.credit,
          );
          if (q.total > 0) {
            const s = settleContract(positions, q.total, date, options);
            expect(s.installments.every(isSettled)).toBe(true);
            expect(s.credit).toBe(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});
