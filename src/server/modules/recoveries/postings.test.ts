import { describe, expect, it } from 'vitest';
import { applyRecovery, recoveryLines, writeOffLines } from './postings';

const book = { principal: 10_000, interest: 500, fees: 0, penalties: 300 };
const parties = { contractId: 'c', customerId: 'u' };
const sums = (lines: { debit?: number; credit?: number }[]) => ({
  debit: lines.reduce((sum, l) => sum + (l.debit ?? 0), 0),
  credit: lines.reduce((sum, l) => sum + (l.credit ?? 0), 0),
});

describe('recovery postings', () => {
  it('applies the recovery value to principal first, then interest, fees and penalties', () => {
    expect(applyRecovery(book, 10_200)).toEqual({
      applied: { principal: 10_000, interest: 200, fees: 0, penalties: 0 },
      left: { principal: 0, interest: 300, fees: 0, penalties: 300 },
      surplus: 0,
    });
  });

  it('a value beyond the receivables leaves a surplus for the customer', () => {
    const { left, surplus } = applyRecovery(book, 11_000);
    expect(left).toEqual({ principal: 0, interest: 0, fees: 0, penalties: 0 });
    expect(surplus).toBe(200);
  });

  it('every entry balances, with or without the write-off, whatever the value', () => {
    for (const value of [0, 1, 4_999, 10_000, 10_800, 50_000]) {
      for (const writeOff of [true, false]) {
        const { lines } = recoveryLines(book, value, writeOff, parties);
        const { debit, credit } = sums(lines);
        expect(debit).toBe(credit);
        expect(lines.every((l) => (l.debit ?? 0) >= 0 && (l.credit ?? 0) >= 0)).toBe(true);
      }
    }
  });

  it('a write-off credits each receivable by component against credit losses', () => {
    const lines = writeOffLines(book, parties).filter((l) => (l.debit ?? 0) + (l.credit ?? 0) > 0);
    expect(lines.map((l) => [l.account, l.debit ?? 0, l.credit ?? 0])).toEqual([
      ['5400', 10_800, 0],
      ['1100', 0, 10_000],
      ['1110', 0, 500],
      ['1130', 0, 300],
    ]);
  });
});
