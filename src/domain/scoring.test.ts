import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSchedule } from './schedule';
import {
  DEFAULT_SCORECARD,
  incomeBands,
  maxPrincipalByAffordability,
  monthlyEquivalent,
  scoreApplicant,
} from './scoring';

describe('scorecard', () => {
  it('returns every factor with its points and reason, a grade and a decision', () => {
    const r = scoreApplicant({
      monthlyIncome: 30_000,
      requestedPayment: 100,
      paymentFrequency: 'daily',
      age: 36,
      employment: 'salaried',
      kyc: { idVerified: true, selfie: true, proofOfAddress: false, phoneVerified: true },
      history: { contracts: 1, maxDpd: 3, defaulted: false },
      phoneTenureMonths: 30,
    });
    expect(r.factors.map((f) => [f.factor, f.points])).toEqual([
      ['income', 20],
      ['affordability', 20],
      ['age', 15],
      ['employment', 20],
      ['kyc', 20],
      ['history', 25],
      ['phoneTenure', 10],
    ]);
    expect(r.factors.find((f) => f.factor === 'kyc')?.reason).toBe(
      'complete: ID verified, selfie, phone verified',
    );
    // 100 a day = 3041.67 a month = 10.14 % of 300.00.
    expect(r.affordabilityPercent).toBe('10.14');
    expect(r.points).toBe(130);
    expect(r.maxPoints).toBe(30 + 30 + 15 + 20 + 25 + 25 + 10);
    expect(r.grade).toBe('A');
    expect(r.decision).toBe('approve');
    expect(r.overrides).toEqual([]);
  });

  it('grades down and knocks out', () => {
    const thin = scoreApplicant({ monthlyIncome: 4_000, employment: 'casual' });
    expect(thin.grade).toBe('E');
    expect(thin.decision).toBe('decline');
    const minor = scoreApplicant({ monthlyIncome: 50_000, age: 17, employment: 'salaried' });
    expect(minor.decision).toBe('decline');
    expect(minor.overrides).toContain('younger than 18');
    const stretched = scoreApplicant({
      monthlyIncome: 10_000,
      requestedPayment: 5_000,
      employment: 'salaried',
    });
    expect(stretched.overrides).toEqual(['payment above 40 % of income']);
    const defaulted = scoreApplicant({
      monthlyIncome: 50_000,
      history: { contracts: 2, maxDpd: 120, defaulted: true },
    });
    expect(defaulted.decision).toBe('decline');
  });

  it('monthly equivalents', () => {
    expect(monthlyEquivalent(12, 'daily')).toEqual({ num: 365n, den: 1n });
    expect(monthlyEquivalent(84, 'weekly')).toEqual({ num: 365n, den: 1n });
  });
});

describe('maximum principal by affordability', () => {
  it('is the largest principal whose payment fits', () => {
    const r = maxPrincipalByAffordability({
      monthlyIncome: 30_000,
      maxAffordabilityPercent: 30,
      apr: 36,
      frequency: 'monthly',
      term: 12,
      method: 'declining',
      serviceFeePerPeriod: 500,
    });
    expect(r.maxPayment).toBe(9000);
    const at = buildSchedule({
      principal: r.maxPrincipal,
      apr: 36,
      frequency: 'monthly',
      term: 12,
      method: 'declining',
      startDate: '2025-01-01',
      serviceFeePerPeriod: 500,
    });
    const above = buildSchedule({
      principal: r.maxPrincipal + 1,
      apr: 36,
      frequency: 'monthly',
      term: 12,
      method: 'declining',
      startDate: '2025-01-01',
      serviceFeePerPeriod: 500,
    });
    expect(at.totals.regularPayment).toBeLessThanOrEqual(9000);
    expect(above.totals.regularPayment).toBeGreaterThan(9000);
    expect(r.payment).toBe(at.totals.regularPayment);
  });

  it('property: fits, and one more unit does not', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 10_000_000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom('daily' as const, 'weekly' as const, 'monthly' as const),
        fc.integer({ min: 1, max: 120 }),
        fc.constantFrom('declining' as const, 'flat' as const),
        fc.constantFrom(0, 100),
        (income, pct, aprTenths, frequency, term, method, multiple) => {
          const input = {
            monthlyIncome: income,
            maxAffordabilityPercent: pct,
            apr: aprTenths / 10,
            frequency,
            term,
            method,
            installmentMultiple: multiple,
          };
          const r = maxPrincipalByAffordability(input);
          const regular = (p: number) => {
            try {
              return buildSchedule({
                principal: p,
                apr: input.apr,
                frequency,
                term,
                method,
                startDate: '2025-01-01',
                installmentMultiple: multiple,
              }).totals.installment;
            } catch {
              return Number.POSITIVE_INFINITY; // refused (the instalment rounds to nothing): no schedule
            }
          };
          if (r.maxPrincipal > 0) expect(regular(r.maxPrincipal)).toBeLessThanOrEqual(r.maxPayment);
          // One unit more does not fit (or has no schedule), unless the multiple's steps skipped it.
          if (multiple === 0) expect(regular(r.maxPrincipal + 1)).toBeGreaterThan(r.maxPayment);
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);
});

describe('income bands in the organisation’s currency', () => {
  const kes = (minor: number) => `KES ${(minor / 100).toLocaleString('en-US')}`;
  const bands = incomeBands([500_000, 1_500_000, 4_000_000], kes);

  it('scores each band from its threshold, edges included in the higher band', () => {
    const points = (income: number) =>
      scoreApplicant({ monthlyIncome: income }, { ...DEFAULT_SCORECARD, income: bands }).factors[0];
    expect(points(499_999)).toMatchObject({ points: 0, reason: 'under KES 5,000 a month' });
    expect(points(500_000)).toMatchObject({ points: 10, reason: 'KES 5,000 to under KES 15,000 a month' });
    expect(points(1_500_000)?.points).toBe(20);
    expect(points(4_000_000)).toMatchObject({ points: 30, reason: 'KES 40,000 a month or more' });
  });

  it('refuses thresholds that are not positive and increasing', () => {
    expect(() => incomeBands([0, 1, 2], kes)).toThrow(/positive and increasing/);
    expect(() => incomeBands([5, 5, 9], kes)).toThrow(/positive and increasing/);
  });

  it('gives every income exactly one band', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (income) => {
        const matching = bands.filter(
          (b) => (b.min === undefined || income >= b.min) && (b.max === undefined || income < b.max),
        );
        expect(matching).toHaveLength(1);
      }),
    );
  });
});
