import { parseMoney, toMajorString } from '@/domain/money';

/** Minor units as the text a money input shows (major units, the currency's decimals). */
export function majorText(minor: number | null | undefined, currency: string): string {
  return minor === null || minor === undefined ? '' : toMajorString(minor, currency);
}

/**
 * A money input's text (major units: "1234.50") as minor units, or the message to show under the
 * field. Empty text is `null` (the caller decides whether the field may be empty).
 */
export function parseMajor(
  text: string,
  currency: string,
  label: string,
): { value: number | null; error?: undefined } | { value?: undefined; error: string } {
  const trimmed = text.trim().replace(/,/g, '');
  if (trimmed === '') return { value: null };
  try {
    const value = parseMoney(trimmed, currency, label);
    if (value < 0) return { error: `${label} cannot be negative` };
    return { value };
  } catch (error) {
    return { error: error instanceof Error ? error.message : `${label} is not a valid amount` };
  }
}
