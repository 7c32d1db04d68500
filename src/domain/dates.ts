/**
 * Business dates are plain 'YYYY-MM-DD' strings (the organisation's calendar day; time zones are
 * resolved before they reach the engine). All arithmetic is on integer day numbers
 * (days since 1970-01-01, proleptic Gregorian), never on Date objects, so there is no
 * local-time or DST pitfall.
 */
import { invalid } from './errors';

export type BusinessDate = string;
export type Frequency = 'daily' | 'weekly' | 'monthly';
export const FREQUENCIES: readonly Frequency[] = ['daily', 'weekly', 'monthly'];

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (MONTH_DAYS[month - 1] ?? 31);
}

/** Day number (days since 1970-01-01) of a civil date; month 1-12. (H. Hinnant's algorithm.) */
export function civilToDays(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The civil date of a day number. */
export function daysToCivil(dayNumber: number): { year: number; month: number; day: number } {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const PAD2 = Array.from({ length: 32 }, (_, i) => (i < 10 ? `0${i}` : String(i)));

/** 'YYYY-MM-' of a year and month (years 0-9999). */
function monthPrefix(year: number, month: number): string {
  const y = year >= 1000 ? String(year) : String(year).padStart(4, '0');
  return `${y}-${PAD2[month]}-`;
}

/** 'YYYY-MM-DD' of a civil date (years 0-9999). */
export function formatCivil(year: number, month: number, day: number): BusinessDate {
  return monthPrefix(year, month) + PAD2[day];
}

/** Parses a business date, or returns null when the text is not a real 'YYYY-MM-DD' date. */
export function parseBusinessDate(text: string): { year: number; month: number; day: number } | null {
  if (
    typeof text !== 'string' ||
    text.length !== 10 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45
  ) {
    return null;
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** The decimal value of `length` ASCII digits at `start`, or -1 if any is not a digit. */
function digitsAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

export function isBusinessDate(value: unknown): value is BusinessDate {
  return typeof value === 'string' && parseBusinessDate(value) !== null;
}

/** Throws a validation error naming `field` unless `value` is a real 'YYYY-MM-DD' date. */
export function assertBusinessDate(value: unknown, field = 'date'): BusinessDate {
  if (!isBusinessDate(value)) throw invalid(field, `${field} must be a date in the form YYYY-MM-DD`);
  return value;
}

/** Day number of a business date (throws on malformed input). */
export function toDayNumber(date: BusinessDate): number {
  const c = parseBusinessDate(date);
  if (!c) throw invalid('date', `"${date}" is not a date in the form YYYY-MM-DD`);
  return civilToDays(c.year, c.month, c.day);
}

export function fromDayNumber(dayNumber: number): BusinessDate {
  const c = daysToCivil(dayNumber);
  if (c.year < 0 || c.year > 9999) throw new RangeError(`date out of range (day number ${dayNumber})`);
  return formatCivil(c.year, c.month, c.day);
}

export function addDays(date: BusinessDate, days: number): BusinessDate {
  return fromDayNumber(toDayNumber(date) + days);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: BusinessDate, to: BusinessDate): number {
  return toDayNumber(to) - toDayNumber(from);
}

/** -1, 0 or 1. 'YYYY-MM-DD' strings order lexicographically like the dates they denote. */
export function compareDates(a: BusinessDate, b: BusinessDate): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function minDate(a: BusinessDate, b: BusinessDate): BusinessDate {
  return a <= b ? a : b;
}

export function maxDate(a: BusinessDate, b: BusinessDate): BusinessDate {
  return a >= b ? a : b;
}

/**
 * `months` calendar months after the civil date, keeping its day of month and clamping to the
 * month end: from 31 Jan, +1 -> 28/29 Feb, +2 -> 31 Mar (always computed from the given start
 * day, so the day never drifts).
 */
export function addMonthsClamped(date: BusinessDate, months: number): BusinessDate {
  const c = parseBusinessDate(date);
  if (!c) throw invalid('date', `"${date}" is not a date in the form YYYY-MM-DD`);
  const index = c.year * 12 + (c.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  if (year < 0 || year > 9999) throw new RangeError('date out of range');
  return formatCivil(year, month, Math.min(c.day, daysInMonth(year, month)));
}

/** The date `count` periods after `start`: start + count days / weeks / calendar months. */
export function addPeriods(start: BusinessDate, frequency: Frequency, count: number): BusinessDate {
  switch (frequency) {
    case 'daily':
      return addDays(start, count);
    case 'weekly':
      return addDays(start, 7 * count);
    case 'monthly':
      return addMonthsClamped(start, count);
  }
}

/**
 * Due dates of a schedule: the k-th (k = 1..term) is start + k periods. Faster than calling
 * addPeriods per row (one parse, integer arithmetic per row).
 */
export function dueDates(
  start: BusinessDate,
  frequency: Frequency,
  term: number,
  firstPeriod = 1,
): BusinessDate[] {
  const c = parseBusinessDate(start);
  if (!c) throw invalid('startDate', `"${start}" is not a date in the form YYYY-MM-DD`);
  const out: BusinessDate[] = new Array(term);
  if (frequency === 'monthly') {
    const base = c.year * 12 + (c.month - 1);
    for (let i = 0; i < term; i++) {
      const index = base + firstPeriod + i;
      const year = Math.floor(index / 12);
      const month = index - year * 12 + 1;
      if (year > 9999) throw new RangeError('due date beyond year 9999');
      out[i] = monthPrefix(year, month) + PAD2[Math.min(c.day, daysInMonth(year, month))];
    }
    return out;
  }
  const step = frequency === 'weekly' ? 7 : 1;
  // Walk the calendar incrementally: cheaper than a full conversion per row.
  let { year, month, day } = daysToCivil(civilToDays(c.year, c.month, c.day) + step * firstPeriod);
  if (year > 9999) throw new RangeError('due date beyond year 9999');
  let prefix = monthPrefix(year, month);
  let dim = daysInMonth(year, month);
  out[0] = prefix + PAD2[day];
  for (let i = 1; i < term; i++) {
    day += step;
    if (day > dim) {
      while (day > dim) {
        day -= dim;
        month += 1;
        if (month > 12) {
          month = 1;
          year += 1;
          if (year > 9999) throw new RangeError('due date beyond year 9999');
        }
        dim = daysInMonth(year, month);
      }
      prefix = monthPrefix(year, month);
    }
    out[i] = prefix + PAD2[day];
  }
  return out;
}

/**
 * The date `periods` periods after `date` on a contract's calendar: daily and weekly add days;
 * monthly moves whole months and uses the contract's day of month (`anchorDay`, from its start
 * date) clamped to the month end, so a schedule started on the 31st stays on month ends.
 */
export function shiftOnCalendar(
  date: BusinessDate,
  anchorDay: number,
  frequency: Frequency,
  periods: number,
): BusinessDate {
  if (frequency !== 'monthly') return addDays(date, (frequency === 'weekly' ? 7 : 1) * periods);
  const c = parseBusinessDate(date);
  if (!c) throw invalid('date', `"${date}" is not a date in the form YYYY-MM-DD`);
  const index = c.year * 12 + (c.month - 1) + periods;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  if (year < 0 || year > 9999) throw new RangeError('date out of range');
  return formatCivil(year, month, Math.min(anchorDay, daysInMonth(year, month)));
}

/** The day of month of a business date. */
export function dayOfMonth(date: BusinessDate): number {
  const c = parseBusinessDate(date);
  if (!c) throw invalid('date', `"${date}" is not a date in the form YYYY-MM-DD`);
  return c.day;
}
