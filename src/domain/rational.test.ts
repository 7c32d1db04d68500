import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  divHalfEven,
  divHalfEvenBig,
  mulHalfEven,
  prepareRatio,
  ratio,
  ratioFromDecimal,
  ratioToString,
} from './rational';

describe('ratios', () => {
  it('parses decimals exactly', () => {
    expect(ratioFromDecimal('19.99')).toEqual({ num: 1999n, den: 100n });
    expect(ratioFromDecimal(15)).toEqual({ num: 15n, den: 1n });
    expect(ratioFromDecimal(0.1)).toEqual({ num: 1n, den: 10n });
    expect(ratioFromDecimal('-2.50')).toEqual({ num: -5n, den: 2n });
    expect(() => ratioFromDecimal('x', 'apr')).toThrow(/apr must be a decimal number/);
    expect(() => ratioFromDecimal(Number.NaN, 'apr')).toThrow(/apr/);
  });

  it('renders fractions', () => {
    expect(ratioToString(ratio(1n, 3n), 4)).toBe('0.3333');
    expect(ratioToString(ratio(15n, 1200n))).toBe('0.0125');
  });
});

describe('HALF_EVEN integer division', () => {
  const table: [number, number, number][] = [
    [5, 2, 2],
    [7, 2, 4],
    [-5, 2, -2],
    [-7, 2, -4],
    [1, 3, 0],
    [2, 3, 1],
    [0, 7, 0],
  ];
  for (const [n, d, q] of table) it(`${n}/${d} = ${q}`, () => expect(divHalfEven(n, d)).toBe(q));

  it('agrees with bigint arithmetic', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (n, d) => {
          expect(divHalfEven(n, d)).toBe(Number(divHalfEvenBig(BigInt(n), BigInt(d))));
        },
      ),
    );
  });

  it('mulHalfEven: the double fast path equals the bigint path', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        (amount, num, den) => {
          const r = ratio(num, den);
          const exact = divHalfEvenBig(BigInt(amount) * r.num, r.den);
          const safe = exact <= BigInt(Number.MAX_SAFE_INTEGER) && exact >= -BigInt(Number.MAX_SAFE_INTEGER);
          if (safe) expect(mulHalfEven(amount, prepareRatio(r))).toBe(Number(exact));
          else expect(() => mulHalfEven(amount, prepareRatio(r))).toThrow(RangeError);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
