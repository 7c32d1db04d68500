import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from './errors';
import { ratio } from './rational';
import {
  annuityInstallment,
  annuityPayment,
  buildSchedule,
  periodicRate,
  roundInstallment,
  type ScheduleInput,
  scheduleInputIssues,
  termInYears,
} from './schedule';

const monthly = (over: Partial<ScheduleInput>): ScheduleInput => ({
  principal: 125000,
  apr: 15,
  frequency: 'monthly',
  term: 4,
  method: 'declining',
  startDate: '2024-01-01',
  ...over,
});

// ../../shared/reference/schedule-vectors.md (Apache Fineract results).
describe('schedule reference vectors', () => {
  const cases = [
    {
      name: 'A declining, multiple 100',
      input: monthly({ method: 'declining', installmentMultiple: 100 }),
      totals: [32200, 32200, 32200, 32333],
      interest: [1562, 1180, 792, 399],
    },
    {
      name: 'B flat, multiple 100',
      input: monthly({ method: 'flat', installmentMultiple: 100 }),
      totals: [32800, 32800, 32800, 32850],
      interest: [1562, 1562, 1562, 1564],
      principal: [31238, 31238, 31238, 31286],
    },
    {
      name: 'C declining 7 %, 6 months, no multiple',
      input: monthly({ principal: 10000, apr: 7, term: 6 }),
      totals: [1701, 1701, 1701, 1701, 1701, 1700],
      interest: [58, 49, 39, 29, 20, 10],
    },
    {
      name: 'D flat, no multiple',
      input: monthly({ method: 'flat' }),
      totals: [32812, 32812, 32812, 32814],
      interest: [1562, 1562, 1562, 1564],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = buildSchedule(c.input);
      expect(s.rows.map((r) => r.principal + r.interest)).toEqual(c.totals);
      expect(s.rows.map((r) => r.interest)).toEqual(c.interest);
      expect(s.rows.map((r) => r.principal)).toEqual(c.totals.map((t, i) => t - (c.interest[i] ?? 0)));
      if (c.principal) expect(s.rows.map((r) => r.principal)).toEqual(c.principal);
      expect(s.rows.at(-1)?.balance).toBe(0);
      expect(s.totals.totalPrincipal).toBe(c.input.principal);
      expect(s.totals.totalInterest).toBe(c.interest.reduce((a, b) => a + b, 0));
      expect(s.totals.installment).toBe(c.totals[0]);
    });
  }

  it('the schedule is plain data (JSON-safe) and shows its periodic rate', () => {
    const s = buildSchedule(monthly({}));
    expect(s.periodicRate).toBe('0.0125');
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it('C totals 205 of interest', () => {
    expect(buildSchedule(cases[2]?.input as ScheduleInput).totals.totalInterest).toBe(205);
  });
});

describe('due dates', () => {
  it('monthly keeps the start day, clamped, computed from the start (31 Jan -> 29 Feb -> 31 Mar)', () => {
    const s = buildSchedule(monthly({ startDate: '2023-12-31', term: 4 }));
    expect(s.rows.map((r) => r.dueDate)).toEqual(['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30']);
    const t = buildSchedule(monthly({ startDate: '2023-01-31', term: 3 }));
    expect(t.rows.map((r) => r.dueDate)).toEqual(['2023-02-28', '2023-03-31', '2023-04-30']);
  });

  it('weekly and daily step by 7 and 1 days across month and year ends', () => {
    const w = buildSchedule(monthly({ frequency: 'weekly', startDate: '2024-12-20', term: 3 }));
    expect(w.rows.map((r) => r.dueDate)).toEqual(['2024-12-27', '2025-01-03', '2025-01-10']);
    const d = buildSchedule(monthly({ frequency: 'daily', startDate: '2024-02-27', term: 4 }));
    expect(d.rows.map((r) => r.dueDate)).toEqual(['2024-02-28', '2024-02-29', '2024-03-01', '2024-03-02']);
  });
});

describe('rates and components', () => {
  it('periodic rates: monthly APR/12, weekly APR x 7/365, daily APR/365', () => {
    expect(periodicRate(15, 'monthly')).toEqual(ratio(15n, 1200n));
    expect(periodicRate(36.5, 'weekly')).toEqual(ratio(7n, 1000n));
    expect(periodicRate(36.5, 'daily')).toEqual(ratio(1n, 1000n));
    expect(periodicRate('19.99', 'monthly')).toEqual(ratio(1999n, 120000n));
  });

  it('flat term in years: monthly n/12, weekly 7n/365, daily n/365', () => {
    expect(termInYears('monthly', 6)).toEqual(ratio(1n, 2n));
    expect(termInYears('weekly', 52)).toEqual(ratio(364n, 365n));
    expect(termInYears('daily', 730)).toEqual(ratio(2n, 1n));
  });

  it('flat weekly: total interest = P x APR x 7n/365, last period takes the residue', () => {
    // 100000 x 0.365 x 7 x 10 / 365 = 7000; 7000 / 10 = 700 each.
    const s = buildSchedule(
      monthly({ principal: 100000, apr: 36.5, frequency: 'weekly', term: 10, method: 'flat' }),
    );
    expect(s.totals.totalInterest).toBe(7000);
    expect(s.rows.every((r) => r.interest === 700)).toBe(true);
    expect(s.totals.installment).toBe(10700);
  });

  it('zero APR: instalment = P / n rounded HALF_EVEN, no interest', () => {
    const s = buildSchedule(monthly({ principal: 1000, apr: 0, term: 3 }));
    expect(s.rows.map((r) => r.total)).toEqual([333, 333, 334]);
    expect(s.totals.totalInterest).toBe(0);
    // 10 / 4 = 2.5 -> 2 (even); last clears.
    expect(buildSchedule(monthly({ principal: 10, apr: 0, term: 4 })).rows.map((r) => r.principal)).toEqual([
      2, 2, 2, 4,
    ]);
  });

  it('the service fee is its own component, never interest', () => {
    const s = buildSchedule(monthly({ serviceFeePerPeriod: 250, installmentMultiple: 100 }));
    expect(s.rows.map((r) => r.interest)).toEqual([1562, 1180, 792, 399]);
    expect(s.rows.every((r) => r.serviceFee === 250 && r.total === r.principal + r.interest + 250)).toBe(
      true,
    );
    expect(s.totals).toMatchObject({
      installment: 32200,
      regularPayment: 32450,
      totalServiceFees: 1000,
      totalPayable: 125000 + 3933 + 1000,
    });
  });

  it('a daily 10-year schedule has 3660 rows and clears', () => {
    const s = buildSchedule({
      principal: 5_000_000,
      apr: '19.99',
      frequency: 'daily',
      term: 3660,
      method: 'declining',
      startDate: '2025-01-15',
    });
    expect(s.rows).toHaveLength(3660);
    expect(s.rows.at(-1)).toMatchObject({ n: 3660, dueDate: '2035-01-23', balance: 0 });
    expect(s.totals.totalPrincipal).toBe(5_000_000);
  });
});

describe('validation', () => {
  const bad: [Partial<ScheduleInput>, string][] = [
    [{ principal: 0 }, 'principal'],
    [{ principal: 12.5 }, 'principal'],
    [{ term: 0 }, 'term'],
    [{ term: 3661 }, 'term'],
    [{ apr: -1 }, 'apr'],
    [{ apr: 1000.01 }, 'apr'],
    [{ apr: 'abc' }, 'apr'],
    [{ startDate: '2024-02-30' }, 'startDate'],
    [{ startDate: '24-1-1' }, 'startDate'],
    [{ installmentMultiple: -100 }, 'installmentMultiple'],
    [{ serviceFeePerPeriod: 1.5 }, 'serviceFeePerPeriod'],
    [{ frequency: 'yearly' as never }, 'frequency'],
    [{ method: 'balloon' as never }, 'method'],
  ];
  for (const [over, field] of bad) {
    it(`rejects ${JSON.stringify(over)} on ${field}`, () => {
      try {
        buildSchedule(monthly(over));
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).field).toBe(field);
        expect((error as DomainError).kind).toBe('validation');
      }
    });
  }

  it('lists every problem at once for forms', () => {
    expect(scheduleInputIssues(monthly({ principal: -1, term: 0 })).map((i) => i.field)).toEqual([
      'principal',
      'term',
    ]);
    expect(scheduleInputIssues(monthly({ apr: 1000 }))).toEqual([]);
  });

  it('refuses an instalment that rounds to zero or, with a multiple, below the interest', () => {
    expect(() => buildSchedule(monthly({ principal: 100, apr: 0, term: 300 }))).toThrow(/rounds to zero/);
    expect(() =>
      buildSchedule(monthly({ principal: 100000, apr: 0, term: 12, installmentMultiple: 1_000_000 })),
    ).toThrow(/multiple/);
    expect(() =>
      buildSchedule(monthly({ principal: 1_000_000, apr: 1000, term: 60, installmentMultiple: 500_000 })),
    ).toThrow(/interest/);
  });

  it('throws a RangeError beyond the safe integer range', () => {
    expect(() =>
      buildSchedule(
        monthly({ principal: Number.MAX_SAFE_INTEGER, apr: 1000, term: 3660, frequency: 'monthly' }),
      ),
    ).toThrow(RangeError);
  });
});

const validInput = fc
  .record({
    principal: fc.integer({ min: 1, max: 50_000_000_000 }),
    aprCents: fc.integer({ min: 0, max: 100_000 }),
    frequency: fc.constantFrom('daily' as const, 'weekly' as const, 'monthly' as const),
    term: fc.integer({ min: 1, max: 400 }),
    method: fc.constantFrom('declining' as const, 'flat' as const),
    start: fc.integer({ min: 0, max: 40_000 }),
    multiple: fc.constantFrom(0, 0, 1, 5, 50, 100),
    fee: fc.integer({ min: 0, max: 10_000 }),
  })
  .map(
    (r): ScheduleInput => ({
      principal: r.principal,
      apr: r.aprCents / 100,
      frequency: r.frequency,
      term: r.term,
      method: r.method,
      startDate: new Date(Date.UTC(1990, 0, 1) + r.start * 86_400_000).toISOString().slice(0, 10),
      installmentMultiple: r.multiple,
      serviceFeePerPeriod: r.fee,
    }),
  );

function buildOrSkip(input: ScheduleInput) {
  try {
    return buildSchedule(input);
  } catch (error) {
    // Inputs the engine refuses by rule (instalment rounding to nothing) are not "valid".
    if (error instanceof DomainError && error.kind === 'rule') return null;
    throw error;
  }
}

describe('schedule properties', () => {
  it('exactly `term` rows, strictly increasing due dates, principal parts sum to the principal', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        const s = buildOrSkip(input);
        fc.pre(s !== null);
        if (!s) return;
        expect(s.rows).toHaveLength(input.term);
        const increasing = s.rows.every((r, i) => i === 0 || r.dueDate > (s.rows[i - 1]?.dueDate ?? ''));
        expect(increasing).toBe(true);
        expect(s.rows.reduce((a, r) => a + r.principal, 0)).toBe(input.principal);
        expect(s.totals.totalPrincipal).toBe(input.principal);
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('no balance or component is ever negative; the last row clears; totalPayable = principal + interest + fees', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        const s = buildOrSkip(input);
        fc.pre(s !== null);
        if (!s) return;
        const broken = s.rows.filter(
          (r) =>
            r.balance < 0 ||
            r.principal < 0 ||
            r.interest < 0 ||
            r.total !== r.principal + r.interest + r.serviceFee,
        );
        expect(broken).toEqual([]);
        expect(s.rows.at(-1)?.balance).toBe(0);
        const { totals } = s;
        expect(totals.totalPayable).toBe(
          totals.totalPrincipal + totals.totalInterest + totals.totalServiceFees,
        );
        expect(totals.totalPayable).toBe(s.rows.reduce((a, r) => a + r.total, 0));
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('the fast floating-point annuity always equals rounding the exact fraction', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9_000_000_000_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.constantFrom(1200n, (36500n * 100n) / 7n, 3650000n),
        fc.integer({ min: 1, max: 3660 }),
        fc.constantFrom(0, 1, 7, 50, 100, 1000),
        (principal, aprHundredths, denominator, n, multiple) => {
          // Periodic rate = (APR hundredths of a percent) / denominator, as a fraction.
          const rate = ratio(BigInt(aprHundredths), denominator * 100n);
          const exact = roundInstallment(annuityPayment(principal, rate, n), multiple);
          expect(annuityInstallment(principal, rate, n, multiple)).toBe(exact);
        },
      ),
      { numRuns: 500 },
    );
  }, 60_000);

  it('the fast path agrees with the exact one exactly at HALF_EVEN ties', () => {
    // 3 at r = 1/2, n = 1: P (1 + r) = 1.5 x P; P = 1 -> 1.5 -> 2; P = 3 -> 4.5 -> 4.
    expect(annuityInstallment(1, ratio(1n, 2n), 1)).toBe(2);
    expect(annuityInstallment(3, ratio(1n, 2n), 1)).toBe(4);
    expect(annuityInstallment(5, ratio(1n, 2n), 1)).toBe(8);
  });
});
