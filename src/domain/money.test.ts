import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from './errors';
import {
  assertSafeMoney,
  CURRENCIES,
  currencyInfo,
  formatMoney,
  minorUnitDigits,
  parseMoney,
  percentOf,
  sumMoney,
  toMajorString,
  toMinorUnits,
} from './money';
import { Dec } from './rational';

describe('currencies', () => {
  it('knows ISO 4217 minor-unit digits', () => {
    const expected: Record<string, number> = {
      USD: 2,
      UGX: 0,
      KWD: 3,
      KES: 2,
      NGN: 2,
      XOF: 0,
      JPY: 0,
      BHD: 3,
      TZS: 2,
      RWF: 0,
      OMR: 3,
    };
    for (const [code, digits] of Object.entries(expected)) expect(minorUnitDigits(code)).toBe(digits);
    expect(Object.keys(CURRENCIES).length).toBeGreaterThan(50);
  });

  it('refuses an unknown code with a clear message', () => {
    expect(() => currencyInfo('XYZ')).toThrow(/Unknown currency code "XYZ"/);
    expect(() => currencyInfo('usd')).toThrow(DomainError);
    expect(() => currencyInfo('toString')).toThrow(DomainError);
  });
});

describe('safe range', () => {
  it('accepts safe integers and throws a RangeError otherwise', () => {
    expect(assertSafeMoney(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => assertSafeMoney(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
    expect(() => assertSafeMoney(1.5)).toThrow(RangeError);
    expect(() => sumMoney([Number.MAX_SAFE_INTEGER, 1])).toThrow(/outside the safe integer range/);
    expect(sumMoney([1, 2, 3])).toBe(6);
  });
});

describe('parseMoney', () => {
  const ok: [string, string, number][] = [
    ['12.34', 'USD', 1234],
    ['12.3', 'USD', 1230],
    ['12', 'USD', 1200],
    ['-0.05', 'USD', -5],
    ['1.500', 'USD', 150],
    ['  7.25 ', 'KES', 725],
    ['1500', 'UGX', 1500],
    ['1.234', 'KWD', 1234],
    ['0.001', 'BHD', 1],
    ['90071992547409.91', 'USD', 9007199254740991],
  ];
  for (const [text, currency, minor] of ok) {
    it(`${text} ${currency} -> ${minor}`, () => expect(parseMoney(text, currency)).toBe(minor));
  }

  const bad: [string, string, RegExp][] = [
    ['12.345', 'USD', /at most 2 decimals/],
    ['1.5', 'UGX', /cannot have decimals/],
    ['1.2345', 'KWD', /at most 3 decimals/],
    ['1,234.00', 'USD', /decimal number/],
    ['1e3', 'USD', /decimal number/],
    ['', 'USD', /decimal number/],
    ['abc', 'USD', /decimal number/],
  ];
  for (const [text, currency, message] of bad) {
    it(`rejects "${text}" in ${currency}`, () => expect(() => parseMoney(text, currency)).toThrow(message));
  }

  it('throws a RangeError beyond the safe range', () => {
    expect(() => parseMoney('90071992547409.92', 'USD')).toThrow(RangeError);
  });

  it('round-trips with toMajorString', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom('USD', 'UGX', 'KWD'),
        (minor, currency) => {
          expect(parseMoney(toMajorString(minor, currency), currency)).toBe(minor);
        },
      ),
    );
  });
});

describe('conversions and formatting', () => {
  it('toMajorString uses the currency digits', () => {
    expect(toMajorString(32200, 'USD')).toBe('322.00');
    expect(toMajorString(5, 'USD')).toBe('0.05');
    expect(toMajorString(-5, 'KWD')).toBe('-0.005');
    expect(toMajorString(1500, 'UGX')).toBe('1500');
  });

  it('toMinorUnits rounds HALF_EVEN', () => {
    expect(toMinorUnits('0.125', 'USD')).toBe(12);
    expect(toMinorUnits('0.135', 'USD')).toBe(14);
    expect(toMinorUnits('-0.125', 'USD')).toBe(-12);
    expect(toMinorUnits(0.5, 'USD')).toBe(50);
    expect(toMinorUnits('2.5', 'UGX')).toBe(2);
    expect(toMinorUnits('3.5', 'UGX')).toBe(4);
  });

  it('formats with Intl and the ISO digits whatever the locale default', () => {
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(-5, 'USD')).toBe('-$0.05');
    expect(formatMoney(1500, 'UGX')).toMatch(/^UGX\s1,500$/);
    expect(formatMoney(1234, 'KWD')).toMatch(/^KWD\s1\.234$/);
    expect(formatMoney(123456, 'USD', { display: 'none' })).toBe('1,234.56');
    expect(formatMoney(123456, 'EUR', { locale: 'de-DE' })).toMatch(/^1\.234,56\s€$/);
    // Exact for the largest safe amount: no float rounding on the way.
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'USD', { display: 'none' })).toBe('90,071,992,547,409.91');
  });
});

describe('percentOf', () => {
  it('rounds HALF_EVEN', () => {
    expect(percentOf(10, 5)).toBe(0); // 0.5 -> 0
    expect(percentOf(30, 5)).toBe(2); // 1.5 -> 2
    expect(percentOf(32200, '2.5')).toBe(805);
    expect(percentOf(-30, 5)).toBe(-2);
  });

  it('matches decimal.js HALF_EVEN', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 0, max: 100_000 }),
        (amount, hundredths) => {
          const pct = hundredths / 100;
          const expected = new Dec(amount)
            .mul(new Dec(pct))
            .div(100)
            .toDecimalPlaces(0, Dec.ROUND_HALF_EVEN)
            .toNumber();
          expect(percentOf(amount, pct)).toBe(expected);
        },
      ),
    );
  });
});
