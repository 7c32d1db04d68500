import { eq } from 'drizzle-orm';
import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { customers } from '../../../db/schema';
import type { Executor } from '../../context';
import { fieldError } from '../../errors';

/**
 * A phone number in E.164 (+254712345678), from whatever the person typed: with a +country code,
 * or in the national format of the organisation's country. Full metadata ('max') so that a
 * number is checked against the real numbering plan, not only its length.
 */
export function normalisePhone(text: string, defaultCountry: string, field = 'phone'): string {
  const country = isSupportedCountry(defaultCountry) ? (defaultCountry as CountryCode) : undefined;
  const parsed = parsePhoneNumberFromString(text.trim(), country ? { defaultCountry: country } : {});
  if (!parsed?.isValid()) {
    throw fieldError(
      field,
      country
        ? `Enter a valid phone number: a ${country} number, or any number with its country code (e.g. +254 712 345 678)`
        : 'Enter a valid phone number with its country code (e.g. +254 712 345 678)',
    );
  }
  return parsed.number;
}

/**
 * What a search box query becomes when it looks like a phone number: its digits without a leading
 * trunk 0, so "0712 345 678" finds +254712345678. Null when the query is not phone-like.
 */
export function phoneSearchDigits(q: string): string | null {
  if (!/^[+\d][\d\s().-]{4,}$/.test(q)) return null;
  const digits = q.replace(/\D/g, '');
  return digits.replace(/^0+/, '') || null;
}

/** The customer whose phone this is (E.164, unique), or null: the portal's sign-in asks it. */
export async function customerOfPhone(executor: Executor, phone: string): Promise<string | null> {
  const [row] = await executor
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.phone, phone))
    .limit(1);
  return row?.id ?? null;
}
