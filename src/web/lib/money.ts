import { DomainError, formatMoney, minorUnitDigits, parseMoney, toMajorString } from '@/domain';
import { amountPlaceholder } from './format';

/**
 * Money for people and the one money input parser. Amounts are integer minor units; the finance
 * engine (src/domain/money.ts) does the maths, so this module loads it (pages that must stay light
 * import it lazily, as the calculator does through its live module).
 */

/** Money for people in its currency ("$1,250.00", "UGX 1,250"). */
export function money(minor: number, currency: string): string {
  return formatMoney(minor, currency);
}

/** An amount without its currency, for tables that name the currency once. */
export function figure(minor: number, currency: string): string {
  return formatMoney(minor, currency, { display: 'none' });
}

/** Minor units as the text a money input shows (major units with the currency's decimals). */
export function moneyInputText(minor: number | null | undefined, currency: string): string {
  return minor === null || minor === undefined ? '' : toMajorString(minor, currency);
}

const GROUPED = /^\d{1,3}(,\d{3})+(\.\d*)?$/;

export type MoneyInput = { value: number } | { error: string } | { empty: true };

/**
 * The money input parser: text typed in major units ("1500", "1,500.00") as minor units, or the
 * message for the field, or `empty`. Thousands separators are accepted where they group correctly;
 * too many decimals for the currency, negative amounts and amounts beyond the safe range are
 * refused with a message naming the field.
 */
export function parseMoneyInput(text: string, currency: string, label: string): MoneyInput {
  let trimmed = text.trim();
  if (!trimmed) return { empty: true };
  if (GROUPED.test(trimmed)) trimmed = trimmed.replaceAll(',', '');
  let value: number;
  try {
    value = parseMoney(trimmed, currency, label);
  } catch (error) {
    if (error instanceof DomainError && /decimal/.test(error.message) && /in [A-Z]{3}$/.test(error.message)) {
      const digits = minorUnitDigits(currency);
      return {
        error:
          digits === 0
            ? `${label} cannot have decimals in ${currency}`
            : `${label} can have at most ${digits} decimal${digits === 1 ? '' : 's'} in ${currency}`,
      };
    }
    if (error instanceof RangeError) return { error: `${label} is too large` };
    return { error: `${label} must be an amount such as ${amountPlaceholder(currency, 1500)}` };
  }
  if (value < 0) return { error: `${label} cannot be negative` };
  return { value };
}
