import { describe, expect, it } from 'vitest';
import { allocatePayment } from './allocation';
import {
  activeRatio,
  averageDaysOfCredit,
  collectionRate,
  collectionRateForPeriod,
  disabledRate,
  firstPaymentDefault,
  type KpiContract,
  portfolioAtRisk,
  portfolioKpis,
  writeOffRatio,
} from './kpis';
import { positionsOf, simpleWeekly } from './test-support';

const book: KpiContract[] = [
  { status: 'active', outstandingPrincipal: 1000, dpd: 0, locked: false, paidThrough: '2025-03-10' },
  { status: 'active', outstandingPrincipal: 2000, dpd: 5, locked: true, paidThrough: '2025-02-25' },
  { status: 'defaulted', outstandingPrincipal: 3000, dpd: 95, locked: true, paidThrough: '2024-11-01' },
  { status: 'active', outstandingPrincipal: 4000, dpd: 31, locked: false, paidThrough: null },
  { status: 'paid_off', outstandingPrincipal: 0, dpd: 0 },
  { status: 'written_off', outstandingPrincipal: 9999, dpd: 200 },
  { status: 'draft', outstandingPrincipal: 500, dpd: 0 },
  { status: 'cancelled', outstandingPrincipal: 0, dpd: 0 },
];

describe('KPIs', () => {
  it('PAR(n): live principal with DPD > n over live principal (the whole balance counts)', () => {
    expect(portfolioAtRisk(book, 0)).toEqual({ numerator: 9000, denominator: 10000, ratio: 0.9 });
    expect(portfolioAtRisk(book, 30)).toEqual({ numerator: 7000, denominator: 10000, ratio: 0.7 });
    expect(portfolioAtRisk(book, 90).ratio).toBe(0.3);
    expect(portfolioAtRisk([], 30).ratio).toBeNull();
  });

  it('collection rate: collected over due for instalments due in the period', () => {
    expect(collectionRate(750, 1000).ratio).toBe(0.75);
    // simpleWeekly instalments of 2600 due 01-08 and 01-15 in the period; 3900 paid on them.
    const positions = allocatePayment(positionsOf(simpleWeekly), 3900, '2025-01-15').installments;
    expect(collectionRateForPeriod(positions, '2025-01-01', '2025-01-15')).toEqual({
      numerator: 3900,
      denominator: 5200,
      ratio: 0.75,
    });
  });

  it('first payment default: unpaid 30 days after due, among contracts old enough', () => {
    const r = firstPaymentDefault(
      [
        { firstDueDate: '2025-01-01', firstSettledOn: '2025-01-01' },
        { firstDueDate: '2025-01-01', firstSettledOn: '2025-02-15' },
        { firstDueDate: '2025-01-01', firstSettledOn: null },
        { firstDueDate: '2025-02-01', firstSettledOn: '2025-02-20' },
        { firstDueDate: '2025-02-20', firstSettledOn: null },
      ],
      '2025-03-05',
    );
    expect(r).toEqual({ numerator: 2, denominator: 4, ratio: 0.5, pending: 1 });
  });

  it('write-off, disabled and active ratios; days of credit', () => {
    expect(writeOffRatio(500, 10000).ratio).toBe(0.05);
    expect(disabledRate(book)).toEqual({ numerator: 2, denominator: 4, ratio: 0.5 });
    expect(activeRatio(book)).toEqual({ numerator: 4, denominator: 6, ratio: 4 / 6 });
    // (7 + 0 + 0 + 0) / 4 on 2025-03-03.
    expect(averageDaysOfCredit(book, '2025-03-03')).toBe(7 / 4);
  });

  it('portfolio snapshot', () => {
    const k = portfolioKpis(book, '2025-03-03');
    expect(k.liveContracts).toBe(4);
    expect(k.outstandingPrincipal).toBe(10000);
    expect(Object.keys(k.par)).toEqual(['1', '7', '30', '60', '90']);
    expect(k.par[30]?.ratio).toBe(0.7);
  });
});
