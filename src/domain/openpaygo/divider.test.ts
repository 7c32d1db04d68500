import { describe, expect, it } from 'vitest';
import { maxTokenDays, roundHalfEven, timeDividerIssue, tokenValueForDays } from './divider';
import vectors from './fixtures/divided-tokens.json';
import { decodeToken, encodeToken, type TokenType } from './token';

interface Row {
  key: string;
  starting_code: number;
  count: number;
  token_type: TokenType;
  days: number;
  divider: number;
  extended: boolean;
  value?: number;
  new_count?: number;
  token?: string;
  error?: string;
}

// Produced by the official OpenPAYGO-python library (scripts/openpaygo/make-vectors.py).
describe('divided tokens, as the official library makes them', () => {
  for (const row of vectors as Row[]) {
    const name = `${row.token_type} ${row.days} days, divider ${row.divider}${row.extended ? ', extended' : ''}`;
    if (row.error) {
      it(`${name}: refused`, () => {
        expect(() => tokenValueForDays(row.days, row.divider, row.extended)).toThrow(/largest value/);
      });
      continue;
    }
    it(`${name} -> ${row.token}`, () => {
      const value = tokenValueForDays(row.days, row.divider, row.extended);
      expect(value).toBe(row.value);
      const encoded = encodeToken({
        secretKey: row.key,
        startingCode: row.starting_code,
        count: row.count,
        type: row.token_type,
        value,
        extended: row.extended,
      });
      expect(encoded).toEqual({ token: row.token, newCount: row.new_count });
      const decoded = decodeToken(row.token as string, {
        secretKey: row.key,
        startingCode: row.starting_code,
        lastCount: row.count,
      });
      expect(decoded).toMatchObject({ status: 'valid', value: row.value });
    });
  }
});

describe('the divider', () => {
  it('rounds ties to even, as Python does', () => {
    expect([0.5, 1.5, 2.5, 3.5, 2.4999, 2.5001, 7].map(roundHalfEven)).toEqual([0, 2, 2, 4, 2, 3, 7]);
  });
  it('is a whole number from 1 to 995', () => {
    expect(timeDividerIssue(1)).toBeNull();
    expect(timeDividerIssue(995)).toBeNull();
    for (const bad of [0, -1, 996, 1.5, Number.NaN, '24'])
      expect(timeDividerIssue(bad)).toMatch(/whole number/);
  });
  it('bounds the days of one token', () => {
    expect([maxTokenDays(1), maxTokenDays(24), maxTokenDays(995), maxTokenDays(1440, true)]).toEqual([
      995, 41, 1, 694,
    ]);
  });
});
