/**
 * Exact rational arithmetic for rates. A rate such as an APR of 19.99 % is held as the exact
 * fraction 1999/10000 (bigints), so interest on an integer amount can be rounded HALF_EVEN with
 * integer remainder maths: exact, deterministic and fast (doubles while the product stays below
 * 2^53, bigint beyond). decimal.js parses decimal text and renders fractions for display.
 */
import Decimal from 'decimal.js';
import { invalid } from './errors';

/** decimal.js configured for rate maths: 50 significant digits, HALF_EVEN, plain notation. */
export const Dec = Decimal.clone({
  precision: 50,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -60,
  toExpPos: 60,
});

/** A decimal number given as a JS number (its shortest decimal text is used), a string or a Decimal. */
export type DecimalInput = number | string | Decimal;

/** An exact fraction num/den with den > 0 and gcd(num, den) = 1. */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_SAFE_BIG = BigInt(MAX_SAFE);

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) {
    const t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/** The normalised fraction num/den (den must not be zero). */
export function ratio(num: bigint, den: bigint): Ratio {
  if (den === 0n) throw new RangeError('ratio: zero denominator');
  let n = num;
  let d = den;
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = gcd(n, d);
  return g > 1n ? { num: n / g, den: d / g } : { num: n, den: d };
}

export const ZERO_RATIO: Ratio = { num: 0n, den: 1n };
export const ONE_RATIO: Ratio = { num: 1n, den: 1n };

/** Parses a decimal value into the exact fraction it denotes; `field` names it in errors. */
export function ratioFromDecimal(value: DecimalInput, field = 'value'): Ratio {
  let d: Decimal;
  try {
    d = new Dec(value);
  } catch {
    throw invalid(field, `${field} must be a decimal number`);
  }
  if (!d.isFinite()) throw invalid(field, `${field} must be a finite number`);
  const text = d.toFixed();
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const [intPart = '0', fracPart = ''] = body.split('.');
  const num = BigInt(intPart + fracPart) * (negative ? -1n : 1n);
  return ratio(num, 10n ** BigInt(fracPart.length));
}

export function mulRatio(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.num, a.den * b.den);
}

export function divRatio(a: Ratio, b: Ratio): Ratio {
  if (b.num === 0n) throw new RangeError('ratio: division by zero');
  return ratio(a.num * b.den, a.den * b.num);
}

export function addRatio(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function subRatio(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.den - b.num * a.den, a.den * b.den);
}

export function compareRatio(a: Ratio, b: Ratio): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

/** The fraction as a Decimal (50 significant digits). */
export function ratioToDecimal(r: Ratio): Decimal {
  return new Dec(r.num.toString()).div(r.den.toString());
}

/** The fraction as decimal text rounded HALF_EVEN to `places` decimals (trailing zeros trimmed). */
export function ratioToString(r: Ratio, places = 12): string {
  return ratioToDecimal(r).toDecimalPlaces(places).toFixed();
}

/** n/d rounded HALF_EVEN to an integer (d > 0). */
export function divHalfEvenBig(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const a = negative ? -n : n;
  let q = a / d;
  const twice = (a - q * d) * 2n;
  if (twice > d || (twice === d && q % 2n === 1n)) q += 1n;
  return negative ? -q : q;
}

/** n/d rounded toward negative infinity (d > 0). */
export function divFloorBig(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n < 0n && q * d !== n ? q - 1n : q;
}

function toSafeNumber(value: bigint, what: string): number {
  if (value > MAX_SAFE_BIG || value < -MAX_SAFE_BIG) {
    throw new RangeError(`${what} ${value} is outside the safe integer range (±${MAX_SAFE})`);
  }
  return Number(value);
}

/** Integer n/d rounded HALF_EVEN, for safe integers n and d > 0. */
export function divHalfEven(n: number, d: number): number {
  if (d <= 0 || !Number.isInteger(d)) throw new RangeError('divHalfEven: divisor must be a positive integer');
  if (!Number.isSafeInteger(n)) throw new RangeError(`amount ${n} is not a safe integer`);
  const negative = n < 0;
  const a = negative ? -n : n;
  let q = Math.floor(a / d);
  let r = a - q * d;
  if (r < 0) {
    q -= 1;
    r += d;
  } else if (r >= d) {
    q += 1;
    r -= d;
  }
  const twice = r * 2;
  if (twice > d || (twice === d && q % 2 === 1)) q += 1;
  return negative && q !== 0 ? -q : q;
}

/** A rate prepared for many multiplications: amount × rate rounded HALF_EVEN to an integer. */
export interface PreparedRatio {
  readonly ratio: Ratio;
  readonly numF: number;
  readonly denF: number;
  /** Largest |amount| for which amount × num + den stays a safe double; -1 when num/den are not safe. */
  readonly fastLimit: number;
}

export function prepareRatio(r: Ratio): PreparedRatio {
  const safe = r.num >= -MAX_SAFE_BIG && r.num <= MAX_SAFE_BIG && r.den <= MAX_SAFE_BIG;
  const numF = Number(r.num);
  const denF = Number(r.den);
  let fastLimit = -1;
  if (safe) {
    const absNum = Math.abs(numF);
    fastLimit = absNum === 0 ? MAX_SAFE : Math.floor((MAX_SAFE - denF) / absNum);
  }
  return { ratio: r, numF, denF, fastLimit };
}

/** amount × rate rounded HALF_EVEN to an integer, exactly. */
export function mulHalfEven(amount: number, rate: PreparedRatio): number {
  const negative = amount < 0;
  const a = negative ? -amount : amount;
  if (a <= rate.fastLimit) {
    const den = rate.denF;
    const p = a * (rate.numF < 0 ? -rate.numF : rate.numF);
    let q = Math.floor(p / den);
    let r = p - q * den;
    if (r < 0) {
      q -= 1;
      r += den;
    } else if (r >= den) {
      q += 1;
      r -= den;
    }
    const twice = r * 2;
    if (twice > den || (twice === den && q % 2 === 1)) q += 1;
    return negative !== rate.numF < 0 && q !== 0 ? -q : q;
  }
  return toSafeNumber(divHalfEvenBig(BigInt(amount) * rate.ratio.num, rate.ratio.den), 'amount');
}

/** amount × rate rounded toward zero for non-negative results (floor), exactly. */
export function mulFloor(amount: number, r: Ratio): number {
  return toSafeNumber(divFloorBig(BigInt(amount) * r.num, r.den), 'amount');
}

/** amount × rate rounded HALF_EVEN (one-off form of mulHalfEven). */
export function mulRatioHalfEven(amount: number, r: Ratio): number {
  return mulHalfEven(amount, prepareRatio(r));
}
