import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AllocationOptions,
  allocatePayment,
  type InstallmentPosition,
  linesByComponent,
  sumComponents,
  totalOutstanding,
} from './allocation';
import { paidThroughDate } from './delinquency';
import { buildSchedule, type ScheduleInput } from './schedule';
import { contractArb, datedPayments, paymentsArb, positionsOf, simpleWeekly } from './test-support';

const withPenalty = (positions: InstallmentPosition[], n: number, amount: number) =>
  positions.map((p) => (p.n === n ? { ...p, due: { ...p.due, penalty: p.due.penalty + amount } } : p));

describe('default allocation order', () => {
  // Instalments of 2500 principal + 100 fee, due 2025-01-08, -15, -22, -29.
  it('overdue first (penalty -> fee -> interest -> principal), then today, then stops', () => {
    const positions = withPenalty(positionsOf(simpleWeekly), 1, 50);
    const r = allocatePayment(positions, 3000, '2025-01-15');
    expect(r.lines).toEqual([
      { installmentNumber: 1, component: 'penalty', amount: 50 },
      { installmentNumber: 1, component: 'fee', amount: 100 },
      { installmentNumber: 1, component: 'principal', amount: 2500 },
      { installmentNumber: 2, component: 'fee', amount: 100 },
      { installmentNumber: 2, component: 'principal', amount: 250 },
    ]);
    expect(r.credit).toBe(0);
    expect(r.installments[1]?.paid).toEqual({ penalty: 0, fee: 100, interest: 0, principal: 250 });
  });

  it('the oldest overdue instalment is paid before a newer one', () => {
    const r = allocatePayment(positionsOf(simpleWeekly), 2700, '2025-01-23');
    expect(r.lines.map((l) => l.installmentNumber)).toEqual([1, 1, 2]);
  });

  it('the rest pays future instalments in order (pay-as-you-go), beyond everything it is credit', () => {
    const ahead = allocatePayment(positionsOf(simpleWeekly), 6000, '2025-01-02');
    expect(linesByComponent(ahead.lines)).toEqual({ penalty: 0, fee: 300, interest: 0, principal: 5700 });
    expect(ahead.lines.at(-1)).toEqual({ installmentNumber: 3, component: 'principal', amount: 700 });
    const over = allocatePayment(positionsOf(simpleWeekly), 11000, '2025-01-02');
    expect(over.credit).toBe(600);
    expect(sumComponents(totalOutstanding(over.installments))).toBe(0);
  });

  it('interest is paid before principal within an instalment', () => {
    const positions = positionsOf({ ...simpleWeekly, apr: 52, serviceFeePerPeriod: 0 });
    const r = allocatePayment(positions, 150, '2025-01-08');
    expect(r.lines[0]).toMatchObject({ installmentNumber: 1, component: 'interest' });
    expect(r.lines[1]).toMatchObject({ installmentNumber: 1, component: 'principal' });
  });

  it('refuses a non-positive amount and does not touch its input', () => {
    const positions = positionsOf(simpleWeekly);
    const copy = structuredClone(positions);
    expect(() => allocatePayment(positions, 0, '2025-01-08')).toThrow(/greater than 0/);
    allocatePayment(positions, 5000, '2025-01-08');
    expect(positions).toEqual(copy);
  });
});

describe('principal reduction', () => {
  // Reference vector C: 10000 at 7 % over 6 months, instalment 1701.
  const c: ScheduleInput = {
    principal: 10000,
    apr: 7,
    frequency: 'monthly',
    term: 6,
    method: 'declining',
    startDate: '2024-01-01',
  };
  const options: AllocationOptions = {
    strategy: 'principal_reduction',
    terms: { method: 'declining', apr: 7, frequency: 'monthly', installment: 1701 },
  };

  it('pays what is due, puts the excess on principal and shortens the term', () => {
    const r = allocatePayment(positionsOf(c), 1701 + 3000, '2024-02-01', options);
    expect(r.rescheduled).toBe(true);
    expect(r.lines.at(-1)).toEqual({ installmentNumber: 2, component: 'principal', amount: 3000 });
    // Balance after #1 = 8357, less 3000 = 5357. #2 keeps its 49 of interest; then interest on the balance.
    const future = r.installments.filter((p) => p.n >= 2);
    expect(future.map((p) => [p.n, p.due.interest, p.due.principal])).toEqual([
      [2, 49, 3000 + 1652],
      [3, 22, 1679],
      [4, 12, 1689],
      [5, 2, 337],
    ]);
    expect(r.installments.reduce((s, p) => s + p.due.principal, 0)).toBe(10000);
    expect(r.credit).toBe(0);
  });

  it('beyond the whole principal pays the current period charges, then credit', () => {
    const r = allocatePayment(positionsOf(c), 20000, '2024-01-15', options);
    expect(r.installments).toHaveLength(1);
    expect(r.installments[0]?.due).toEqual({ penalty: 0, fee: 0, interest: 58, principal: 10000 });
    expect(r.credit).toBe(20000 - 10058);
  });

  it('falls back to default order when a later future instalment already carries payments', () => {
    const paidAhead = allocatePayment(positionsOf(c), 5000, '2024-01-15').installments;
    const r = allocatePayment(paidAhead, 1000, '2024-01-15', options);
    expect(r.rescheduled).toBe(false);
  });
});

const strategies: fc.Arbitrary<'default' | 'principal_reduction'> = fc.constantFrom(
  'default',
  'principal_reduction',
);

describe('allocation properties', () => {
  it('lines + credit always sum to the payment; nothing is overpaid or negative; principal is preserved', () => {
    fc.assert(
      fc.property(contractArb, paymentsArb, strategies, (input, payments, strategy) => {
        const schedule = buildSchedule(input);
        let positions = positionsOf(input);
        const options: AllocationOptions =
          strategy === 'default'
            ? {}
            : {
                strategy,
                terms: {
                  method: input.method,
                  apr: input.apr,
                  frequency: input.frequency,
                  installment: schedule.totals.installment,
                },
              };
        let through = paidThroughDate(positions, input.startDate);
        for (const p of datedPayments(input.startDate, payments)) {
          const r = allocatePayment(positions, p.amount, p.date, options);
          expect(r.lines.reduce((s, l) => s + l.amount, 0) + r.credit).toBe(p.amount);
          expect(r.lines.every((l) => l.amount > 0)).toBe(true);
          positions = r.installments;
          const bad = positions.filter((x) =>
            (['penalty', 'fee', 'interest', 'principal'] as const).some(
              (k) => x.paid[k] < 0 || x.due[k] < 0 || x.paid[k] > x.due[k],
            ),
          );
          expect(bad).toEqual([]);
          expect(positions.reduce((s, x) => s + x.due.principal, 0)).toBe(input.principal);
          const next = paidThroughDate(positions, input.startDate);
          expect(next >= through).toBe(true);
          through = next;
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
