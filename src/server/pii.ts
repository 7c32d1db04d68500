import { can, type RoleHolder } from '../contracts/roles';

/**
 * The one masking rule for personal data (issue 12 §3, PRODUCT.md §1): viewers read business data
 * with customers' phone numbers, e-mail addresses and national IDs masked; agents and above see
 * them in full. Every response that carries one of these (customer pages and lists, contract
 * pages and lists, their CSV exports, documents) masks it through here, and a list whose rows
 * carry one caches its pages per `piiVariant`.
 */
export function seesPii(user: RoleHolder | null | undefined): boolean {
  return can(user, 'customers.write');
}

/** The page-cache variant of a list whose rows carry personal data. */
export function piiVariant(user: RoleHolder | null | undefined): 'pii' | 'masked' {
  return seesPii(user) ? 'pii' : 'masked';
}

const DOTS = '••••';

/** ••••5678: the last four characters, enough to tell two IDs apart on a call. */
export function maskTail(value: string | null): string | null {
  if (value === null) return null;
  return value.length <= 4 ? DOTS : `${DOTS}${value.slice(-4)}`;
}

/** +254•••••678: the country code and the last three digits. */
export function maskPhone(phone: string): string {
  if (phone.length <= 7) return DOTS;
  return `${phone.slice(0, 4)}${'•'.repeat(phone.length - 7)}${phone.slice(-3)}`;
}

/** a•••@example.com */
export function maskEmail(email: string | null): string | null {
  if (email === null) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return DOTS;
  return `${email[0]}${DOTS}${email.slice(at)}`;
}

/** A phone as this viewer may see it. */
export function phoneFor(user: RoleHolder | null | undefined, phone: string): string {
  return seesPii(user) ? phone : maskPhone(phone);
}
