import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocatePayment, type InstallmentPosition } from './allocation';
import { addDays } from './dates';
import { DomainError } from './errors';
import { runPortfolioScenario, runScenario, type ScenarioChange, type ScenarioContract } from './scenarios';
import { buildSchedule, type ScheduleInput } from './schedule';
import { contractArb, positionsOf } from './test-support';

// A pay-as-you-go phone: 100.00 over 365 days at 36.5 % (0.1 % a day), 0.05 a day of service fee.
const daily: ScheduleInput = {
  principal: 10000,
  apr: 36.5,
  frequency: 'daily',
  term: 365,
  method: 'declining',
  startDate: '2025-01-01',
  serviceFeePerPeriod: 5,
};

function contractOf(input: ScheduleInput, installments?: InstallmentPosition[]): ScenarioContract {
  const s = buildSchedule(input);
  return {
    id: `${input.method}-${input.frequency}-${input.principal}`,
    startDate: input.startDate,
    apr: input.apr,
    frequency: input.frequency,
    method: input.method,
    installmentMultiple: input.installmentMultiple ?? 0,
    installment: s.totals.installment,
    installments: installments ?? positionsOf(input),
  };
}

describe('scenarios on one contract', () => {
  const contract = contractOf(daily);

  it('"Increase daily payment to $0.50": shorter term, interest saved', () => {
    const r = runScenario(contract, { kind: 'installment', amount: 50 }, '2025-01-01');
    expect(r.baseline.installments).toBe(365);
    expect(r.scenario.regularPayment).toBe(50);
    expect(r.scenario.installments).toBeLessThan(365);
    expect(r.termReductionDays).toBe(365 - r.scenario.installments);
    expect(r.interestSavings).toBeGreaterThan(0);
    expect(r.scenario.principal).toBe(10000);
    expect(r.schedule.at(-1)?.balance).toBe(0);
    expect(r.totalCostChange).toBeLessThan(0);
    expect(r.installmentChange).toBe(50 - r.baseline.regularPayment);
  });

  it('the same payment reproduces the baseline; rows after the balance is cleared are dropped', () => {
    const r = runScenario(contract, { kind: 'installment', amount: contract.installment + 5 }, '2025-01-01');
    expect(r.interestSavings).toBe(0);
    // 33 a day instead of the exact 32.70 clears the balance on day 362; the baseline's last three
    // rows carry only their service fee.
    expect(r.scenario.installments).toBe(362);
    expect(r.termReductionDays).toBe(3);
    expect(r.serviceFeeSavings).toBe(15);
  });

  it('"20% service discount for 30 days": only the fees of the next 30 days change', () => {
    const r = runScenario(contract, { kind: 'service_discount', percent: 20, days: 30 }, '2025-01-01');
    expect(r.serviceFeeSavings).toBe(30);
    expect(r.interestSavings).toBe(0);
    expect(r.termReductionDays).toBe(0);
    expect(r.totalCostChange).toBe(-30);
    expect(r.schedule.filter((row) => row.serviceFee === 4)).toHaveLength(30);
  });

  it('"Adjust APR to 19%": same term, lower instalment, interest saved', () => {
    const r = runScenario(contract, { kind: 'apr', apr: 19 }, '2025-01-01');
    expect(r.scenario.installments).toBe(365);
    expect(r.termReductionDays).toBe(0);
    expect(r.scenario.installment).toBeLessThan(contract.installment);
    expect(r.interestSavings).toBeGreaterThan(0);
    expect(r.scenario.interest).toBe(buildSchedule({ ...daily, apr: 19 }).totals.totalInterest);
  });

  it('term change re-amortises over the new count', () => {
    const r = runScenario(contract, { kind: 'term', remainingInstallments: 200 }, '2025-01-01');
    expect(r.scenario.installments).toBe(200);
    expect(r.termReductionDays).toBe(165);
    expect(r.scenario.interest).toBe(buildSchedule({ ...daily, term: 200 }).totals.totalInterest);
  });

  it('payment holiday: declining capitalises the holiday interest; flat only moves the dates', () => {
    const r = runScenario(contract, { kind: 'payment_holiday', periods: 7 }, '2025-01-01');
    expect(r.termReductionDays).toBe(-7);
    expect(r.schedule[0]?.dueDate).toBe('2025-01-09');
    expect(r.scenario.principal).toBeGreaterThan(10000);
    expect(r.interestSavings).toBeLessThan(0);
    const flat = contractOf({ ...daily, method: 'flat' });
    const f = runScenario(flat, { kind: 'payment_holiday', periods: 7 }, '2025-01-01');
    expect(f.termReductionDays).toBe(-7);
    expect(f.interestSavings).toBe(0);
    expect(f.totalCostChange).toBe(0);
  });

  it('monthly contracts keep their day of month when extended', () => {
    const monthly: ScheduleInput = {
      ...daily,
      frequency: 'monthly',
      term: 3,
      startDate: '2025-01-31',
      apr: 24,
    };
    const r = runScenario(contractOf(monthly), { kind: 'term', remainingInstallments: 5 }, '2025-01-31');
    expect(r.schedule.map((row) => row.dueDate)).toEqual([
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
      '2025-05-31',
      '2025-06-30',
    ]);
  });

  it('only instalments after the as-of date change; arrears stay; money paid ahead is carried', () => {
    const paid = allocatePayment(positionsOf(daily), 38 * 20 + 17, '2025-01-05').installments;
    const r = runScenario(contractOf(daily, paid), { kind: 'apr', apr: 19 }, '2025-01-10');
    const kept = r.installments.filter(
      (p) => p.dueDate <= '2025-01-10' || p.paid.principal === p.due.principal,
    );
    expect(kept.length).toBeGreaterThanOrEqual(10);
    expect(r.installments.reduce((s, p) => s + p.due.principal, 0)).toBe(10000);
    expect(r.carriedPayments).toBe(17);
    const paidBefore = paid.reduce((s, p) => s + p.paid.principal + p.paid.interest + p.paid.fee, 0);
    const paidAfter = r.installments.reduce((s, p) => s + p.paid.principal + p.paid.interest + p.paid.fee, 0);
    expect(paidAfter).toBe(paidBefore);
  });

  it('refuses what cannot work, with a reason', () => {
    expect(() => runScenario(contract, { kind: 'installment', amount: 10 }, '2025-01-01')).toThrow(
      DomainError,
    );
    expect(() => runScenario(contract, { kind: 'installment', amount: 5 }, '2025-01-01')).toThrow(
      /service fee/,
    );
    expect(() => runScenario(contract, { kind: 'apr', apr: 2000 }, '2025-01-01')).toThrow(/apr/);
    expect(() => runScenario(contract, { kind: 'term', remainingInstallments: 1 }, '2026-06-01')).toThrow(
      /no instalment left/,
    );
  });
});

describe('portfolio scenarios', () => {
  it('aggregates sums, counts and averages; skips contracts it cannot change', () => {
    const a = contractOf(daily);
    const b = contractOf({ ...daily, principal: 20000 });
    const done = contractOf(daily, allocatePayment(positionsOf(daily), 100000, '2025-01-01').installments);
    const change: ScenarioChange = { kind: 'service_discount', percent: 20, days: 30 };
    const r = runPortfolioScenario([a, b, { ...done, id: 'done' }], change, '2025-01-01', {
      includeResults: true,
    });
    expect(r.contracts).toBe(3);
    expect(r.applied).toBe(2);
    expect(r.skipped).toEqual([
      { contractId: 'done', code: 'NOTHING_TO_RESTRUCTURE', reason: expect.any(String) },
    ]);
    expect(r.totals.serviceFeeSavings).toBe(60);
    expect(r.averages.serviceFeeSavings).toBe(30);
    expect(r.results).toHaveLength(2);
  });
});

const changeArb: fc.Arbitrary<ScenarioChange> = fc.oneof(
  fc.integer({ min: 1, max: 200_000 }).map((amount) => ({ kind: 'installment' as const, amount })),
  fc.integer({ min: 0, max: 5000 }).map((tenths) => ({ kind: 'apr' as const, apr: tenths / 10 })),
  fc.integer({ min: 1, max: 120 }).map((n) => ({ kind: 'term' as const, remainingInstallments: n })),
  fc
    .record({ percent: fc.integer({ min: 0, max: 100 }), days: fc.integer({ min: 1, max: 400 }) })
    .map((r) => ({
      kind: 'service_discount' as const,
      ...r,
    })),
  fc.integer({ min: 1, max: 12 }).map((periods) => ({ kind: 'payment_holiday' as const, periods })),
);

describe('scenario properties', () => {
  it('new schedules clear, never go negative, keep dates increasing and account for every unit', () => {
    fc.assert(
      fc.property(
        contractArb,
        changeArb,
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 200_000 }),
        (input, change, day, paid) => {
          let positions = positionsOf(input);
          if (paid > 0) positions = allocatePayment(positions, paid, input.startDate).installments;
          const asOf = addDays(input.startDate, day);
          let r: ReturnType<typeof runScenario>;
          try {
            r = runScenario(contractOf(input, positions), change, asOf);
          } catch (error) {
            if (error instanceof DomainError && error.kind === 'rule') return;
            throw error;
          }
          expect(r.schedule.every((row) => row.balance >= 0 && row.principal >= 0 && row.interest >= 0)).toBe(
            true,
          );
          expect(r.schedule.at(-1)?.balance).toBe(0);
          expect(
            r.schedule.every((row, i) => i === 0 || row.dueDate > (r.schedule[i - 1]?.dueDate ?? '')),
          ).toBe(true);
          expect(r.schedule.every((row) => row.dueDate > asOf)).toBe(true);
          const principalBefore = positions.reduce((s, p) => s + p.due.principal, 0);
          const principalAfter = r.installments.reduce((s, p) => s + p.due.principal, 0);
          if (change.kind === 'payment_holiday' && input.method === 'declining') {
            expect(principalAfter).toBeGreaterThanOrEqual(principalBefore);
          } else {
            expect(principalAfter).toBe(principalBefore);
          }
          const paidOf = (list: readonly InstallmentPosition[]) =>
            list.reduce((s, p) => s + p.paid.principal + p.paid.interest + p.paid.fee + p.paid.penalty, 0);
          expect(paidOf(r.installments)).toBe(paidOf(positions));
          expect(r.totalCostChange).toBe(r.scenario.total - r.baseline.total);
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});
