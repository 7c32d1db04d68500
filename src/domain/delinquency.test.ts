import { describe, expect, it } from 'vitest';
import { allocatePayment } from './allocation';
import {
  applyLateFees,
  assessLateFees,
  bucketFor,
  DEFAULT_BUCKETS,
  daysPastDue,
  delinquencySnapshot,
  oldestUnpaidDueDate,
  paidThroughDate,
  validateBuckets,
} from './delinquency';
import { positionsOf, simpleWeekly } from './test-support';

// simpleWeekly: instalments of 2600 (2500 + fee 100) due 2025-01-08, -15, -22, -29.
const fresh = () => positionsOf(simpleWeekly);

describe('days past due', () => {
  it('is 0 when nothing is overdue, including on the due date itself', () => {
    expect(daysPastDue(fresh(), '2025-01-08')).toBe(0);
    expect(oldestUnpaidDueDate(fresh(), '2025-01-08')).toBeNull();
  });

  it('counts from the oldest unpaid due date', () => {
    expect(daysPastDue(fresh(), '2025-01-09')).toBe(1);
    expect(daysPastDue(fresh(), '2025-01-20')).toBe(12);
    const partly = allocatePayment(fresh(), 2600, '2025-01-20').installments;
    expect(daysPastDue(partly, '2025-01-20')).toBe(5);
    const tiny = allocatePayment(fresh(), 2599, '2025-01-20').installments;
    expect(daysPastDue(tiny, '2025-01-20')).toBe(12);
  });
});

describe('buckets', () => {
  it('default ranges', () => {
    const labels = [0, 1, 7, 8, 30, 31, 60, 61, 90, 91, 5000].map((d) => bucketFor(d).label);
    expect(labels).toEqual([
      'current',
      '1-7',
      '1-7',
      '8-30',
      '8-30',
      '31-60',
      '31-60',
      '61-90',
      '61-90',
      '91+',
      '91+',
    ]);
  });

  it('configurable ranges are validated', () => {
    const custom = validateBuckets([
      { label: 'ok', min: 0, max: 3 },
      { label: 'late', min: 4, max: null },
    ]);
    expect(bucketFor(3, custom).label).toBe('ok');
    expect(bucketFor(4, custom).label).toBe('late');
    expect(validateBuckets(DEFAULT_BUCKETS)).toBe(DEFAULT_BUCKETS);
    expect(() => validateBuckets([{ label: 'a', min: 1, max: null }])).toThrow(/start at 0/);
    expect(() =>
      validateBuckets([
        { label: 'a', min: 0, max: 5 },
        { label: 'b', min: 7, max: null },
      ]),
    ).toThrow(/contiguous/);
    expect(() => validateBuckets([{ label: 'a', min: 0, max: 5 }])).toThrow(/open-ended/);
    expect(() => validateBuckets([])).toThrow(/At least one/);
  });
});

describe('late fees', () => {
  it('flat fee once per instalment after the grace days', () => {
    const rule = { kind: 'flat', amount: 500 } as const;
    expect(assessLateFees(fresh(), '2025-01-11', rule, 3)).toEqual([]);
    expect(assessLateFees(fresh(), '2025-01-12', rule, 3)).toEqual([
      { installmentNumber: 1, date: '2025-01-12', amount: 500 },
    ]);
    expect(assessLateFees(fresh(), '2025-01-12', rule, 3, [1])).toEqual([]);
    const charged = applyLateFees(fresh(), [{ installmentNumber: 1, date: '2025-01-12', amount: 500 }]);
    expect(charged[0]?.due.penalty).toBe(500);
  });

  it('percent of the overdue amount, rounded HALF_EVEN; none once paid', () => {
    const rule = { kind: 'percent', percent: '2.5' } as const;
    const partly = allocatePayment(fresh(), 2000, '2025-01-08').installments;
    // Overdue 600 x 2.5 % = 15.
    expect(assessLateFees(partly, '2025-01-09', rule, 0)).toEqual([
      { installmentNumber: 1, date: '2025-01-09', amount: 15 },
    ]);
    const paid = allocatePayment(fresh(), 2600, '2025-01-08').installments;
    expect(assessLateFees(paid, '2025-01-15', rule, 0)).toEqual([]);
  });
});

describe('paid-through date', () => {
  it('is the start date with nothing paid, the due date of fully paid instalments, pro rata within a period', () => {
    expect(paidThroughDate(fresh(), '2025-01-01')).toBe('2025-01-01');
    const half = allocatePayment(fresh(), 1300, '2025-01-02').installments;
    expect(paidThroughDate(half, '2025-01-01')).toBe('2025-01-04'); // 7 x 1/2 = 3.5 -> 3 days
    const one = allocatePayment(fresh(), 2600, '2025-01-02').installments;
    expect(paidThroughDate(one, '2025-01-01')).toBe('2025-01-08');
    const oneAndHalf = allocatePayment(fresh(), 3900, '2025-01-02').installments;
    expect(paidThroughDate(oneAndHalf, '2025-01-01')).toBe('2025-01-11');
    const all = allocatePayment(fresh(), 10400, '2025-01-02').installments;
    expect(paidThroughDate(all, '2025-01-01')).toBe('2025-01-29');
  });

  it('penalties do not buy time', () => {
    const charged = applyLateFees(fresh(), [{ installmentNumber: 1, date: '2025-01-12', amount: 500 }]);
    const paid = allocatePayment(charged, 500, '2025-01-12').installments;
    expect(paidThroughDate(paid, '2025-01-01')).toBe('2025-01-01');
  });
});

describe('snapshot', () => {
  it('summarises arrears on a date', () => {
    const positions = allocatePayment(fresh(), 2000, '2025-01-08').installments;
    const s = delinquencySnapshot(positions, { date: '2025-01-15', startDate: '2025-01-01' });
    expect(s).toMatchObject({
      dpd: 7,
      bucket: { label: '1-7' },
      overdueCount: 1,
      overdue: { penalty: 0, fee: 0, interest: 0, principal: 600 },
      dueToday: { fee: 100, principal: 2500 },
      nextDue: { installmentNumber: 2, dueDate: '2025-01-15', amount: 2600 },
      totalOutstanding: 8400,
      totalPaid: 2000,
      settled: false,
      paidThrough: '2025-01-06',
    });
  });
});
