import { parseMoney } from '@/domain/money';

/**
 * Amounts and dates as the portal reads and shows them (money itself is `formatMoney` of the money
 * module). Imports the money module alone (not the finance engine's index), so the portal's
 * chunk stays small.
 */

/** Text typed in major units as minor units, or the reason it is not an amount. */
export function readAmount(text: string, currency: string): { value: number } | { error: string } {
  const typed = text.trim();
  // "1,500" is how people write thousands; the parser takes plain digits.
  const plain = /^\d{1,3}(,\d{3})+(\.\d*)?$/.test(typed) ? typed.replaceAll(',', '') : typed;
  try {
    const value = parseMoney(plain, currency);
    return value > 0 ? { value } : { error: 'Enter an amount above zero' };
  } catch (error) {
    return { error: error instanceof Error ? error.message : 'Enter an amount' };
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 2026-12-15 → 15 Dec 2026 (a date or the date part of an instant). */
export function portalDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/** A 9-digit unlock code in groups of three, as a customer types it on the keypad. */
export const groupedToken = (token: string): string => token.replace(/(\d{3})(?=\d)/g, '$1 ');

const STATUS_TEXT: Record<string, string> = {
  active: 'Active',
  defaulted: 'In arrears',
  paid_off: 'Paid off',
  paid: 'Paid',
  partial: 'Part paid',
  overdue: 'Overdue',
  due: 'Due',
  upcoming: 'Upcoming',
};
export const statusText = (status: string): string => STATUS_TEXT[status] ?? status.replaceAll('_', ' ');
