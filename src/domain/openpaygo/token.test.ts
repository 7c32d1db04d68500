import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import official from './fixtures/official-tokens.json';
import { siphash24 } from './siphash';
import {
  decodeToken,
  deriveStartingCode,
  encodeToken,
  nextCount,
  type TokenType,
  updateUsedCounts,
} from './token';

interface OfficialRow {
  serial_number: string;
  starting_code: number;
  key: string;
  count: number;
  token_type: string;
  value_raw: number | null;
  restricted_digit_set: boolean;
  extended_token: boolean;
  new_count: number;
  token: string;
}
const rows = official as OfficialRow[];

describe('SipHash-2-4', () => {
  // Reference vectors of the SipHash paper (key 00..0f, message 00..n-1).
  const key = Uint8Array.from({ length: 16 }, (_, i) => i);
  const message = Uint8Array.from({ length: 64 }, (_, i) => i);
  const vectors: [number, bigint][] = [
    [0, 0x726fdb47dd0e0e31n],
    [1, 0x74f839c593dc67fdn],
    [2, 0x0d6c8009d9a94f5an],
    [3, 0x85676696d7fb7e2dn],
    [4, 0xcf2794e0277187b7n],
    [8, 0x93f5f5799a932462n],
    [15, 0xa129ca6149be45e5n],
    [16, 0x3f2acc7f57c29bdbn],
    [32, 0x7127512f72f27ccen],
  ];
  for (const [n, hash] of vectors) {
    it(`${n} bytes`, () => expect(siphash24(key, message.subarray(0, n))).toBe(hash));
  }
});

describe('official OpenPAYGO test set (80 rows)', () => {
  it('has 80 rows', () => expect(rows).toHaveLength(80));
  for (const row of rows) {
    const mode = `${row.extended_token ? 'extended' : 'standard'}${row.restricted_digit_set ? ' restricted' : ''}`;
    it(`${row.serial_number} ${row.token_type} ${row.value_raw ?? '-'} ${mode}`, () => {
      const encoded = encodeToken({
        secretKey: row.key,
        startingCode: row.starting_code,
        count: row.count,
        type: row.token_type as TokenType,
        ...(row.value_raw === null ? {} : { value: row.value_raw }),
        extended: row.extended_token,
        restrictedDigitSet: row.restricted_digit_set,
      });
      expect(encoded).toEqual({ token: row.token, newCount: row.new_count });
      const decoded = decodeToken(row.token, {
        secretKey: row.key,
        startingCode: row.starting_code,
        lastCount: row.count,
        restrictedDigitSet: row.restricted_digit_set,
      });
      expect(decoded).toMatchObject({
        status: 'valid',
        type: row.token_type,
        value: row.value_raw,
        count: row.new_count,
        extended: row.extended_token,
      });
    });
  }
});

describe('reference vectors (openpaygo-vectors.md)', () => {
  const device = { secretKey: 'bc41ec9530f6dac86b1a29ab82edc5fb', startingCode: 516959010 };
  const table: [TokenType, number | undefined, number, string][] = [
    ['ADD_TIME', 1, 2, '588224011'],
    ['ADD_TIME', 2, 2, '639704012'],
    ['ADD_TIME', 5, 2, '177073015'],
    ['ADD_TIME', 995, 2, '944829005'],
    ['SET_TIME', 1, 3, '380589011'],
    ['SET_TIME', 995, 3, '586420005'],
    ['DISABLE_PAYG', undefined, 3, '190942008'],
    ['COUNTER_SYNC', undefined, 3, '160440009'],
  ];
  for (const [type, value, newCount, token] of table) {
    it(`${type} ${value ?? '-'} -> ${token}`, () => {
      expect(encodeToken({ ...device, count: 1, type, ...(value === undefined ? {} : { value }) })).toEqual({
        token,
        newCount,
      });
    });
  }
});

describe('counts and the decoding window', () => {
  const device = { secretKey: 'bc41ec9530f6dac86b1a29ab82edc5fb', startingCode: 516959010 };

  it('a new device starts at 0; ADD_TIME takes the next even count, the others the next odd one', () => {
    expect([nextCount(0, 'ADD_TIME'), nextCount(1, 'ADD_TIME'), nextCount(10, 'ADD_TIME')]).toEqual([
      2, 2, 12,
    ]);
    expect([nextCount(0, 'SET_TIME'), nextCount(1, 'DISABLE_PAYG'), nextCount(10, 'COUNTER_SYNC')]).toEqual([
      1, 3, 11,
    ]);
  });

  it('a token is accepted once; an older unused ADD_TIME in the window is still accepted', () => {
    const t2 = encodeToken({ ...device, count: 0, type: 'ADD_TIME', value: 7 });
    const t4 = encodeToken({ ...device, count: t2.newCount, type: 'ADD_TIME', value: 3 });
    // The device receives the newer token first.
    const first = decodeToken(t4.token, { ...device, lastCount: 0, usedCounts: [] });
    expect(first).toMatchObject({ status: 'valid', count: 4, value: 3, lastCount: 4, usedCounts: [4] });
    if (first.status !== 'valid') return;
    const older = decodeToken(t2.token, {
      ...device,
      lastCount: first.lastCount,
      usedCounts: first.usedCounts,
    });
    expect(older).toMatchObject({ status: 'valid', count: 2, value: 7, usedCounts: [2, 4] });
    if (older.status !== 'valid') return;
    expect(
      decodeToken(t2.token, { ...device, lastCount: older.lastCount, usedCounts: older.usedCounts }).status,
    ).toBe('already_used');
    expect(
      decodeToken(t4.token, { ...device, lastCount: older.lastCount, usedCounts: older.usedCounts }).status,
    ).toBe('already_used');
  });

  it('SET_TIME marks the whole window used', () => {
    expect(updateUsedCounts([2, 4], 5, 'SET_TIME')).toEqual([0, 1, 2, 3, 4, 5]);
    expect(updateUsedCounts([2, 4], 30, 'ADD_TIME')).toEqual([30]);
  });

  it('rejects tokens beyond the jump window and malformed input', () => {
    const far = encodeToken({ ...device, count: 100, type: 'ADD_TIME', value: 1 });
    expect(decodeToken(far.token, { ...device, lastCount: 0 }).status).toBe('invalid');
    expect(decodeToken(far.token, { ...device, lastCount: 40 }).status).toBe('valid');
    expect(decodeToken('12345678x', { ...device, lastCount: 0 }).status).toBe('invalid');
    expect(decodeToken('1234567890123', { ...device, lastCount: 0 })).toMatchObject({
      status: 'invalid',
      reason: /too long/,
    });
    expect(decodeToken('123456789', { ...device, lastCount: 0, restrictedDigitSet: true }).status).toBe(
      'invalid',
    );
    expect(decodeToken('000000000', { ...device, lastCount: 0 }).status).toBe('invalid');
  });

  it('validates encode input', () => {
    expect(() => encodeToken({ ...device, count: 0, type: 'ADD_TIME', value: 996 })).toThrow(/0 to 995/);
    expect(() => encodeToken({ ...device, count: 0, type: 'ADD_TIME' })).toThrow(/needs a whole value/);
    expect(() => encodeToken({ ...device, count: 0, type: 'DISABLE_PAYG', value: 1 })).toThrow(/not allowed/);
    expect(() => encodeToken({ ...device, secretKey: 'abc', count: 0, type: 'COUNTER_SYNC' })).toThrow(
      /32 hexadecimal/,
    );
    expect(
      encodeToken({ ...device, count: 0, type: 'ADD_TIME', value: 999_999, extended: true }).token,
    ).toHaveLength(12);
  });

  it('derives the starting code from the key when none is given', () => {
    const code = deriveStartingCode(device.secretKey);
    expect(code).toBeGreaterThanOrEqual(0);
    expect(code).toBeLessThanOrEqual(999_999_999);
    expect(deriveStartingCode(device.secretKey)).toBe(code);
    const t = encodeToken({ secretKey: device.secretKey, count: 0, type: 'ADD_TIME', value: 30 });
    expect(encodeToken({ ...device, startingCode: code, count: 0, type: 'ADD_TIME', value: 30 })).toEqual(t);
    expect(decodeToken(t.token, { secretKey: device.secretKey, lastCount: 0 })).toMatchObject({
      status: 'valid',
      value: 30,
    });
  });
});

const keyArb = fc
  .uint8Array({ minLength: 16, maxLength: 16 })
  .map((b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(''));

describe('token properties', () => {
  it('decode(encode(x)) = x for every type, mode, key and count', () => {
    fc.assert(
      fc.property(
        keyArb,
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 0, max: 300 }),
        fc.constantFrom<TokenType>('ADD_TIME', 'SET_TIME', 'DISABLE_PAYG', 'COUNTER_SYNC'),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 999_999 }),
        (secretKey, startingCode, count, type, extended, restrictedDigitSet, raw) => {
          const max = extended ? 999_999 : 995;
          let value: number | undefined;
          if (type === 'ADD_TIME' || type === 'SET_TIME') {
            value = raw % (max + 1);
            if (type === 'SET_TIME' && extended && (value === 998 || value === 999)) value = 997;
          }
          const e = encodeToken({
            secretKey,
            startingCode,
            count,
            type,
            extended,
            restrictedDigitSet,
            ...(value === undefined ? {} : { value }),
          });
          const d = decodeToken(e.token, { secretKey, startingCode, lastCount: count, restrictedDigitSet });
          expect(d).toMatchObject({
            status: 'valid',
            type,
            value: value ?? null,
            count: e.newCount,
            extended,
          });
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});
