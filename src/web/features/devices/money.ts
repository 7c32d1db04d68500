import { parseMoneyInput } from '@/web/lib/money';

/**
 * A money field that may be left empty (catalogue prices, plan fees): the one money input parser
 * (lib/format.ts), with empty text as `null` for the caller to accept or refuse.
 */
export function parseMajor(
  text: string,
  currency: string,
  label: string,
): { value: number | null; error?: undefined } | { value?: undefined; error: string } {
  const parsed = parseMoneyInput(text, currency, label);
  if ('empty' in parsed) return { value: null };
  return parsed;
}
