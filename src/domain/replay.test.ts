import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocatePayment, isSettled } from './allocation';
import { paidThroughDate } from './delinquency';
import { type PaymentEvent, reallocateFrom, replayContract } from './replay';
import { buildSchedule } from './schedule';
import { contractArb, datedPayments, paymentsArb, positionsOf, simpleWeekly } from './test-support';

// simpleWeekly: instalments of 2600 due 2025-01-08, -15, -22, -29.
const lateFee = { rule: { kind: 'flat', amount: 500 } as const, graceDays: 3 };
const base = { installments: positionsOf(simpleWeekly), startDate: '2025-01-01', lateFee };

describe('replay', () => {
  it('equals allocating the payments one after the other', () => {
    const payments: PaymentEvent[] = [
      { id: 'a', date: '2025-01-08', amount: 2000 },
      { id: 'b', date: '2025-01-10', amount: 4000 },
    ];
    const r = replayContract({ installments: positionsOf(simpleWeekly), startDate: '2025-01-01', payments });
    const first = allocatePayment(positionsOf(simpleWeekly), 2000, '2025-01-08');
    const second = allocatePayment(first.installments, 4000, '2025-01-10');
    expect(r.allocations.map((a) => a.lines)).toEqual([first.lines, second.lines]);
    expect(r.installments).toEqual(second.installments);
  });

  it('charges a late fee at the close of business after the grace days, once', () => {
    expect(replayContract({ ...base, payments: [], closedThrough: '2025-01-11' }).lateFees).toEqual([]);
    const r = replayContract({ ...base, payments: [], closedThrough: '2025-01-12' });
    expect(r.lateFees).toEqual([{ installmentNumber: 1, date: '2025-01-12', amount: 500 }]);
    const later = replayContract({ ...base, payments: [], closedThrough: '2025-02-28' });
    expect(later.lateFees.map((f) => f.installmentNumber)).toEqual([1, 2, 3, 4]);
  });

  it('a payment on the last grace day (before its close of business) avoids the fee', () => {
    const r = replayContract({
      ...base,
      payments: [{ id: 'p', date: '2025-01-12', amount: 2600 }],
      closedThrough: '2025-01-13',
    });
    expect(r.lateFees).toEqual([]);
  });

  it('a back-dated payment removes a late fee; the replay re-allocates later payments', () => {
    const late: PaymentEvent = { id: 'late', date: '2025-01-13', amount: 3100 };
    const before = replayContract({ ...base, payments: [late], closedThrough: '2025-01-14' });
    expect(before.lateFees).toHaveLength(1);
    expect(before.allocations[0]?.lines[0]).toEqual({
      installmentNumber: 1,
      component: 'penalty',
      amount: 500,
    });

    const backDated: PaymentEvent = { id: 'cash', date: '2025-01-09', amount: 2600 };
    const after = reallocateFrom(
      { ...base, payments: [late, backDated], closedThrough: '2025-01-14' },
      '2025-01-09',
    );
    expect(after.lateFees).toEqual([]);
    expect(after.changed.map((a) => a.paymentId)).toEqual(['cash', 'late']);
    expect(after.allocations.find((a) => a.paymentId === 'late')?.lines[0]).toMatchObject({
      installmentNumber: 2,
    });
  });

  it('a reversal is a replay without the reversed payment', () => {
    const payments: PaymentEvent[] = [
      { id: 'a', date: '2025-01-08', amount: 2600 },
      { id: 'b', date: '2025-01-15', amount: 2600 },
    ];
    const reversed = replayContract({
      ...base,
      payments: payments.filter((p) => p.id !== 'a'),
      closedThrough: '2025-01-20',
    });
    expect(reversed.allocations[0]?.lines[0]).toMatchObject({ installmentNumber: 1 });
    expect(reversed.lateFees).toEqual([
      { installmentNumber: 1, date: '2025-01-12', amount: 500 },
      { installmentNumber: 2, date: '2025-01-19', amount: 500 },
    ]);
  });

  it('a settlement event settles early with the payoff rule', () => {
    const schedule = buildSchedule({ ...simpleWeekly, apr: 52 });
    const r = replayContract({
      installments: positionsOf({ ...simpleWeekly, apr: 52 }),
      startDate: '2025-01-01',
      payments: [{ id: 's', date: '2025-01-04', amount: 20000, kind: 'settlement' }],
      payoff: { method: 'declining' },
    });
    expect(r.allocations[0]?.settled).toBe(true);
    expect(r.installments.every(isSettled)).toBe(true);
    // 10000 of principal + 3 of the 7 days of the first week's interest.
    const firstInterest = schedule.rows[0]?.interest ?? 0;
    const accrued = Math.round((firstInterest * 3) / 7);
    expect(r.credit).toBe(20000 - 10000 - accrued);
  });

  it('property: payments dated before the affected date keep exactly their lines', () => {
    fc.assert(
      fc.property(
        contractArb,
        paymentsArb,
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 1, max: 100000 }),
        (input, raw, day, amount) => {
          const payments = datedPayments(input.startDate, raw);
          const inserted = datedPayments(input.startDate, [{ day, amount }])[0];
          if (!inserted) return;
          const extra = { ...inserted, id: 'inserted' };
          const installments = positionsOf(input);
          const common = { installments, startDate: input.startDate, lateFee, closedThrough: '2031-01-01' };
          const before = replayContract({ ...common, payments });
          const after = reallocateFrom({ ...common, payments: [...payments, extra] }, extra.date);
          for (const a of before.allocations) {
            if (a.date < extra.date) {
              expect(after.allocations.find((b) => b.paymentId === a.paymentId)).toEqual(a);
            }
          }
          expect(after.changed.every((a) => a.date >= extra.date)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it('property: the paid-through date never moves backwards on a payment', () => {
    fc.assert(
      fc.property(contractArb, paymentsArb, (input, raw) => {
        const payments = datedPayments(input.startDate, raw);
        let last = input.startDate;
        for (let i = 1; i <= payments.length; i++) {
          const r = replayContract({
            installments: positionsOf(input),
            startDate: input.startDate,
            payments: payments.slice(0, i),
          });
          const through = paidThroughDate(r.installments, input.startDate);
          expect(through >= last).toBe(true);
          last = through;
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
