import { format } from 'date-fns';

/**
 * How the web app shows dates, percentages and amounts' input format: one place, so every page
 * writes "5 Feb 2026" the same way. Free of the finance engine, so public pages (calculator,
 * sign-in) can import it without loading the engine; money itself is in lib/money.ts.
 */

/** A percentage for people: at most `places` decimals, no trailing zeros ("15", "19.99"). */
export function formatPercent(value: number, places = 2): string {
  return `${Number(value.toFixed(places)).toLocaleString('en-US', { maximumFractionDigits: places })}%`;
}

const BUSINESS_DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A business date '2026-02-05' as '5 Feb 2026' (business dates carry no time zone). */
export function formatBusinessDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return date;
  return BUSINESS_DATE.format(new Date(Date.UTC(y, m - 1, d)));
}

/** An instant in the browser's time zone, "5 Feb 2026, 14:03"; the fallback when absent or invalid. */
export function formatDateTime(value: string | null | undefined, fallback = '—'): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : format(date, 'd MMM yyyy, HH:mm');
}

/** A calendar day (YYYY-MM-DD, or the day of a timestamp) as "17 May 1990". */
export function formatDay(value: string | null | undefined, fallback = '—'): string {
  if (!value) return fallback;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : format(date, 'd MMM yyyy');
}

/**
 * An amount in the currency's input format for placeholders: 1 -> "1.00" (USD), "1" (UGX).
 * Intl knows the ISO 4217 digits, so this needs no engine.
 */
export function amountPlaceholder(currency: string, whole: number): string {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    // Unknown code: the usual two decimals.
  }
  return digits === 0 ? String(whole) : `${whole}.${'0'.repeat(digits)}`;
}
