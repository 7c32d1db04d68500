/**
 * Money is an integer number of minor units of an ISO 4217 currency (cents for USD, shillings for
 * UGX, fils for KWD). Every amount must be a safe integer; anything beyond ±Number.MAX_SAFE_INTEGER
 * throws a RangeError instead of silently losing precision. Rounding is HALF_EVEN.
 */
import { invalid } from './errors';
import {
  Dec,
  type DecimalInput,
  divHalfEvenBig,
  mulRatioHalfEven,
  ratio,
  ratioFromDecimal,
} from './rational';

export interface CurrencyInfo {
  readonly code: string;
  /** ISO 4217 minor-unit digits (exponent). */
  readonly digits: number;
  readonly name: string;
}

/** ISO 4217 minor-unit digits of the currencies a device lender is likely to use. */
const CURRENCY_TABLE: ReadonlyArray<readonly [string, number, string]> = [
  ['AED', 2, 'UAE Dirham'],
  ['AOA', 2, 'Angolan Kwanza'],
  ['AUD', 2, 'Australian Dollar'],
  ['BDT', 2, 'Bangladeshi Taka'],
  ['BHD', 3, 'Bahraini Dinar'],
  ['BIF', 0, 'Burundi Franc'],
  ['BRL', 2, 'Brazilian Real'],
  ['BWP', 2, 'Botswana Pula'],
  ['CAD', 2, 'Canadian Dollar'],
  ['CDF', 2, 'Congolese Franc'],
  ['CHF', 2, 'Swiss Franc'],
  ['CLP', 0, 'Chilean Peso'],
  ['CNY', 2, 'Yuan Renminbi'],
  ['COP', 2, 'Colombian Peso'],
  ['DJF', 0, 'Djibouti Franc'],
  ['EGP', 2, 'Egyptian Pound'],
  ['ETB', 2, 'Ethiopian Birr'],
  ['EUR', 2, 'Euro'],
  ['GBP', 2, 'Pound Sterling'],
  ['GHS', 2, 'Ghana Cedi'],
  ['GMD', 2, 'Gambian Dalasi'],
  ['GNF', 0, 'Guinean Franc'],
  ['HKD', 2, 'Hong Kong Dollar'],
  ['IDR', 2, 'Rupiah'],
  ['INR', 2, 'Indian Rupee'],
  ['IQD', 3, 'Iraqi Dinar'],
  ['ISK', 0, 'Iceland Krona'],
  ['JOD', 3, 'Jordanian Dinar'],
  ['JPY', 0, 'Yen'],
  ['KES', 2, 'Kenyan Shilling'],
  ['KHR', 2, 'Riel'],
  ['KMF', 0, 'Comorian Franc'],
  ['KRW', 0, 'Won'],
  ['KWD', 3, 'Kuwaiti Dinar'],
  ['LKR', 2, 'Sri Lanka Rupee'],
  ['LRD', 2, 'Liberian Dollar'],
  ['LSL', 2, 'Loti'],
  ['LYD', 3, 'Libyan Dinar'],
  ['MAD', 2, 'Moroccan Dirham'],
  ['MGA', 2, 'Malagasy Ariary'],
  ['MMK', 2, 'Kyat'],
  ['MWK', 2, 'Malawi Kwacha'],
  ['MXN', 2, 'Mexican Peso'],
  ['MYR', 2, 'Malaysian Ringgit'],
  ['MZN', 2, 'Mozambique Metical'],
  ['NAD', 2, 'Namibia Dollar'],
  ['NGN', 2, 'Naira'],
  ['NPR', 2, 'Nepalese Rupee'],
  ['NZD', 2, 'New Zealand Dollar'],
  ['OMR', 3, 'Rial Omani'],
  ['PEN', 2, 'Sol'],
  ['PHP', 2, 'Philippine Peso'],
  ['PKR', 2, 'Pakistan Rupee'],
  ['PYG', 0, 'Guarani'],
  ['QAR', 2, 'Qatari Rial'],
  ['RWF', 0, 'Rwanda Franc'],
  ['SAR', 2, 'Saudi Riyal'],
  ['SGD', 2, 'Singapore Dollar'],
  ['SLE', 2, 'Leone'],
  ['SOS', 2, 'Somali Shilling'],
  ['SSP', 2, 'South Sudanese Pound'],
  ['SZL', 2, 'Lilangeni'],
  ['THB', 2, 'Baht'],
  ['TND', 3, 'Tunisian Dinar'],
  ['TRY', 2, 'Turkish Lira'],
  ['TZS', 2, 'Tanzanian Shilling'],
  ['UGX', 0, 'Uganda Shilling'],
  ['USD', 2, 'US Dollar'],
  ['UYU', 2, 'Peso Uruguayo'],
  ['VND', 0, 'Dong'],
  ['VUV', 0, 'Vatu'],
  ['XAF', 0, 'CFA Franc BEAC'],
  ['XOF', 0, 'CFA Franc BCEAO'],
  ['XPF', 0, 'CFP Franc'],
  ['ZAR', 2, 'Rand'],
  ['ZMW', 2, 'Zambian Kwacha'],
  ['ZWG', 2, 'Zimbabwe Gold'],
];

export const CURRENCIES: Readonly<Record<string, CurrencyInfo>> = Object.freeze(
  Object.fromEntries(
    CURRENCY_TABLE.map(([code, digits, name]) => [code, Object.freeze({ code, digits, name })]),
  ),
);

export function isKnownCurrency(code: string): boolean {
  return Object.hasOwn(CURRENCIES, code);
}

/** The currency's table entry; an unknown code throws a validation error naming it. */
export function currencyInfo(code: string): CurrencyInfo {
  const info = Object.hasOwn(CURRENCIES, code) ? CURRENCIES[code] : undefined;
  if (!info) {
    throw invalid(
      'currency',
      `Unknown currency code "${code}": use an ISO 4217 code such as USD, KES or UGX`,
      'UNKNOWN_CURRENCY',
    );
  }
  return info;
}

/** ISO 4217 minor-unit digits: USD 2, UGX 0, KWD 3. */
export function minorUnitDigits(code: string): number {
  return currencyInfo(code).digits;
}

/**
 * The largest amount any single money input may hold: 10^12 minor units (ten billion in the major
 * unit, far beyond any device or deposit). Chosen so that no figure derived from inputs within the
 * engine's limits can pass Number.MAX_SAFE_INTEGER: the worst case, 3,660 monthly instalments at
 * the 1,000 % APR cap with a fee of this size on each, totals about 6.7 * 10^15 < 9.007 * 10^15
 * (a property test in money-limits.test.ts keeps this true).
 */
export const MAX_MONEY_INPUT = 1_000_000_000_000;

/**
 * Returns `value` when it is an integer within ±Number.MAX_SAFE_INTEGER; otherwise throws a
 * RangeError that says which amount overflowed.
 */
export function assertSafeMoney(value: number, what = 'amount'): number {
  if (!Number.isInteger(value)) {
    throw new RangeError(`${what} must be an integer number of minor units, got ${value}`);
  }
  if (value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER) {
    throw new RangeError(`${what} ${value} is outside the safe integer range (±${Number.MAX_SAFE_INTEGER})`);
  }
  return value;
}

export function addMoney(a: number, b: number): number {
  return assertSafeMoney(a + b, 'sum');
}

export function subtractMoney(a: number, b: number): number {
  return assertSafeMoney(a - b, 'difference');
}

/** The sum of amounts, guarded against leaving the safe range. */
export function sumMoney(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) {
    total += v;
    if (total > Number.MAX_SAFE_INTEGER || total < -Number.MAX_SAFE_INTEGER) {
      throw new RangeError(`sum ${total} is outside the safe integer range (±${Number.MAX_SAFE_INTEGER})`);
    }
  }
  return total;
}

const AMOUNT_PATTERN = /^([+-]?)(\d+)(?:\.(\d*))?$/;

/**
 * Parses decimal text in major units ("1234.56", "-3", "0.5") into minor units. No thousands
 * separators, no exponent. More decimals than the currency has is an error (never rounded away),
 * except trailing zeros ("1.500" is 150 cents).
 */
export function parseMoney(text: string, currency: string, field = 'amount'): number {
  const digits = minorUnitDigits(currency);
  const match = AMOUNT_PATTERN.exec(text.trim());
  if (!match) {
    throw invalid(field, `${field} must be a decimal number such as 12.50`);
  }
  const [, sign = '', whole = '0', rawFraction = ''] = match;
  const fraction = rawFraction.replace(/0+$/, '');
  if (fraction.length > digits) {
    throw invalid(
      field,
      digits === 0
        ? `${field} cannot have decimals in ${currency}`
        : `${field} can have at most ${digits} decimal${digits === 1 ? '' : 's'} in ${currency}`,
    );
  }
  const minor = BigInt(whole + fraction.padEnd(digits, '0')) * (sign === '-' ? -1n : 1n);
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${field} ${text} is outside the safe range of minor units`);
  }
  return Number(minor);
}

/** Converts a major-unit decimal (e.g. 12.345) to minor units, rounding HALF_EVEN. */
export function toMinorUnits(major: DecimalInput, currency: string): number {
  const digits = minorUnitDigits(currency);
  const r = ratioFromDecimal(major, 'amount');
  const minor = divHalfEvenBig(r.num * 10n ** BigInt(digits), r.den);
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`amount ${String(major)} is outside the safe range of minor units`);
  }
  return Number(minor);
}

/** Minor units as plain major-unit text with exactly the currency's decimals: 32200 USD -> "322.00". */
export function toMajorString(minor: number, currency: string): string {
  assertSafeMoney(minor);
  const digits = minorUnitDigits(currency);
  const negative = minor < 0;
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const body = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return negative ? `-${body}` : body;
}

export interface FormatMoneyOptions {
  locale?: string;
  /** 'symbol' ($12.00), 'code' (USD 12.00), 'name', or 'none' (12.00, grouped). */
  display?: 'symbol' | 'narrowSymbol' | 'code' | 'name' | 'none';
}

const formatterCache = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, currency: string, display: NonNullable<FormatMoneyOptions['display']>) {
  const key = `${locale}|${currency}|${display}`;
  let f = formatterCache.get(key);
  if (!f) {
    const digits = minorUnitDigits(currency);
    f =
      display === 'none'
        ? new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })
        : new Intl.NumberFormat(locale, {
            style: 'currency',
            currency,
            currencyDisplay: display,
            minimumFractionDigits: digits,
            maximumFractionDigits: digits,
          });
    formatterCache.set(key, f);
  }
  return f;
}

/**
 * Formats minor units for people with Intl.NumberFormat, always with the ISO digits of the
 * currency (UGX 0, KWD 3), whatever the locale's default. The value is passed as exact decimal text.
 */
export function formatMoney(minor: number, currency: string, options: FormatMoneyOptions = {}): string {
  const major = toMajorString(minor, currency);
  const f = formatter(options.locale ?? 'en-US', currency, options.display ?? 'symbol');
  // Intl formats decimal strings exactly (Intl.NumberFormat v3), so no float ever touches the amount.
  return f.format(major as `${number}`);
}

/** amount × percent / 100 rounded HALF_EVEN (e.g. a 5 % late fee). */
export function percentOf(amount: number, percent: DecimalInput): number {
  const p = ratioFromDecimal(percent, 'percent');
  return assertSafeMoney(mulRatioHalfEven(amount, ratio(p.num, p.den * 100n)), 'amount');
}

/** Decimal text of a rate for display, e.g. percentText(19.99) === '19.99'. */
export function decimalText(value: DecimalInput, places = 6): string {
  return new Dec(value).toDecimalPlaces(places).toFixed();
}
