import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explainScore, priorityScore, SCORE_RULES, type ScoreInput } from './collections-score';

const base: ScoreInput = {
  dpd: 10,
  amountOverdue: 2_000,
  regularPayment: 1_000,
  riskGrade: 'C',
  brokenPromises: 0,
  daysSinceContact: 3,
};

describe('collections priority score', () => {
  it('adds its five parts', () => {
    const score = priorityScore(base);
    expect(score.parts).toEqual({ dpd: 30, amount: 100, risk: 50, promises: 0, contact: 21 });
    expect(score.total).toBe(201);
  });

  it('caps each part', () => {
    const score = priorityScore({
      dpd: 400,
      amountOverdue: 1_000_000,
      regularPayment: 100,
      riskGrade: 'E',
      brokenPromises: 9,
      daysSinceContact: 90,
    });
    expect(score.parts).toEqual({
      dpd: SCORE_RULES.dpdCapDays * SCORE_RULES.dpdPerDay,
      amount: SCORE_RULES.amountCap,
      risk: 100,
      promises: SCORE_RULES.brokenCap * SCORE_RULES.perBrokenPromise,
      contact: SCORE_RULES.contactCapDays * SCORE_RULES.contactPerDay,
    });
  });

  it('counts a customer never contacted or never scored as the rules say', () => {
    const score = priorityScore({ ...base, riskGrade: null, daysSinceContact: null });
    expect(score.parts.risk).toBe(SCORE_RULES.riskUnscored);
    expect(score.parts.contact).toBe(SCORE_RULES.neverContacted);
  });

  it('floors a part payment overdue and survives a zero payment', () => {
    expect(priorityScore({ ...base, amountOverdue: 1_999 }).parts.amount).toBe(99);
    expect(priorityScore({ ...base, regularPayment: 0, amountOverdue: 3 }).parts.amount).toBe(150);
  });

  it('ranks more days past due, more money, worse grades and broken promises higher', () => {
    const input = fc.record({
      dpd: fc.integer({ min: 0, max: 200 }),
      amountOverdue: fc.integer({ min: 0, max: 10_000_000 }),
      regularPayment: fc.integer({ min: 1, max: 1_000_000 }),
      riskGrade: fc.constantFrom('A', 'B', 'C', 'D', 'E', null),
      brokenPromises: fc.integer({ min: 0, max: 5 }),
      daysSinceContact: fc.option(fc.integer({ min: 0, max: 60 })),
    });
    fc.assert(
      fc.property(input, (i) => {
        const score = priorityScore(i).total;
        expect(priorityScore({ ...i, dpd: i.dpd + 1 }).total).toBeGreaterThanOrEqual(score);
        expect(priorityScore({ ...i, amountOverdue: i.amountOverdue + 1 }).total).toBeGreaterThanOrEqual(
          score,
        );
        expect(priorityScore({ ...i, brokenPromises: i.brokenPromises + 1 }).total).toBeGreaterThanOrEqual(
          score,
        );
        expect(priorityScore({ ...i, riskGrade: 'E' }).total).toBeGreaterThanOrEqual(score);
        const parts = priorityScore(i).parts;
        expect(parts.dpd + parts.amount + parts.risk + parts.promises + parts.contact).toBe(score);
      }),
    );
  });

  it('explains each part in words', () => {
    expect(explainScore(base)).toEqual([
      '30 for 10 days past due',
      '100 for the amount overdue',
      '50 for risk grade C',
      '0 for 0 broken promises',
      '21 for 3 days since the last contact',
    ]);
  });
});
