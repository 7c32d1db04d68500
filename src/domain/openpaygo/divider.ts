/**
 * The OpenPAYGO time divider: a device whose firmware divides token values by N counts time in
 * 1/N days (24: hours, 1440: minutes), so a token's value is days × N. The official library
 * computes it as Python's `round(days * divider)` (half to even) and refuses a value above the
 * token's limit (995 standard, 999999 extended); decoding divides again.
 */
import { invalid } from '../errors';
import { OPENPAYGO } from './token';

/** A divider above the standard token's largest value would leave no whole day in a token. */
export const MAX_TIME_DIVIDER = OPENPAYGO.MAX_ACTIVATION_VALUE;

/** Python's round(): to the nearest whole number, ties to the even one. */
export function roundHalfEven(x: number): number {
  const down = Math.floor(x);
  const diff = x - down;
  if (diff < 0.5) return down;
  if (diff > 0.5) return down + 1;
  return down % 2 === 0 ? down : down + 1;
}

/** Why a divider cannot be used, or null: a whole number from 1 to 995. */
export function timeDividerIssue(divider: unknown): string | null {
  if (
    typeof divider !== 'number' ||
    !Number.isInteger(divider) ||
    divider < 1 ||
    divider > MAX_TIME_DIVIDER
  ) {
    return `The time divider must be a whole number from 1 to ${MAX_TIME_DIVIDER} (1: days, 24: hours)`;
  }
  return null;
}

/** The largest token value of the kind. */
export function maxTokenValue(extended = false): number {
  return extended ? OPENPAYGO.MAX_ACTIVATION_VALUE_EXTENDED : OPENPAYGO.MAX_ACTIVATION_VALUE;
}

/** The most whole days one token carries on a device with this divider. */
export function maxTokenDays(divider: number, extended = false): number {
  return Math.floor(maxTokenValue(extended) / divider);
}

/** A token's value for `days` (fractions allowed) on a device with this divider, as the official library computes it. */
export function tokenValueForDays(days: number, divider: number, extended = false): number {
  if (!Number.isFinite(divider) || divider <= 0)
    throw invalid('timeDivider', 'The time divider must be above 0');
  if (!Number.isFinite(days) || days < 0) throw invalid('days', 'The days must be a number, 0 or more');
  const value = roundHalfEven(days * divider);
  const max = maxTokenValue(extended);
  if (value > max) {
    throw invalid(
      'days',
      `${days} days × divider ${divider} is ${value}, above a token's largest value (${max}); at most ${maxTokenDays(divider, extended)} days per token on this unit`,
    );
  }
  return value;
}

/** The days a token value stands for on a device with this divider. */
export function daysOfTokenValue(value: number, divider: number): number {
  return value / divider;
}
