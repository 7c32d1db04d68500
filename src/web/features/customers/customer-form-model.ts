import {
  type CountryCode,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/min';
import {
  CONSENTS,
  type Consent,
  type Customer,
  type CustomerCreateBody,
  type CustomerUpdateBody,
  customerCreateBody,
  type DuplicateCustomer,
  duplicateCustomerSchema,
} from '@/contracts/customers';
import { ERROR_CODES } from '@/contracts/errors';
import { parseMoney, toMajorString } from '@/domain';
import { apiError } from '@/web/lib/queryClient';

/**
 * The customer form without React: its values (all text, as typed), the rules checked before
 * sending (the API's own schema and messages, plus the phone and the income the API cannot see as
 * typed), and the request bodies: every field on create, only what changed on edit.
 */

export interface CustomerFormValues {
  firstName: string;
  otherNames: string;
  lastName: string;
  phone: string;
  email: string;
  nationalId: string;
  dateOfBirth: string;
  gender: string;
  address: string;
  region: string;
  occupation: string;
  employment: string;
  /** Major units as typed ("45,000.50"). */
  monthlyIncome: string;
  assignedAgentId: string;
  /** The language of the customer's messages. */
  language: string;
  /** As typed: separated by commas or spaces. */
  tags: string;
  consents: Record<Consent, boolean>;
}

export type CustomerField = Exclude<keyof CustomerFormValues, 'consents'>;

export const CUSTOMER_FIELDS: readonly CustomerField[] = [
  'firstName',
  'otherNames',
  'lastName',
  'phone',
  'email',
  'nationalId',
  'dateOfBirth',
  'gender',
  'address',
  'region',
  'occupation',
  'employment',
  'monthlyIncome',
  'assignedAgentId',
  'language',
  'tags',
];

export interface FormContext {
  /** The organisation's country (ISO 3166 alpha-2): numbers without +code are read as its numbers. */
  country: string;
  /** The currency of the income (the organisation's; an existing customer's own). */
  currency: string;
}

const NO_CONSENTS: Record<Consent, boolean> = {
  sms: false,
  whatsapp: false,
  email: false,
  marketing: false,
  dataProcessing: false,
};

export function emptyCustomerValues(assignedAgentId = ''): CustomerFormValues {
  return {
    firstName: '',
    otherNames: '',
    lastName: '',
    phone: '',
    email: '',
    nationalId: '',
    dateOfBirth: '',
    gender: '',
    address: '',
    region: '',
    occupation: '',
    employment: '',
    monthlyIncome: '',
    assignedAgentId,
    language: 'en',
    tags: '',
    consents: { ...NO_CONSENTS },
  };
}

export function valuesFromCustomer(customer: Customer): CustomerFormValues {
  return {
    firstName: customer.firstName,
    otherNames: customer.otherNames ?? '',
    lastName: customer.lastName,
    phone: customer.phone,
    email: customer.email ?? '',
    nationalId: customer.nationalId ?? '',
    dateOfBirth: customer.dateOfBirth ?? '',
    gender: customer.gender ?? '',
    address: customer.address ?? '',
    region: customer.region ?? '',
    occupation: customer.occupation ?? '',
    employment: customer.employment ?? '',
    monthlyIncome:
      customer.monthlyIncome === null ? '' : toMajorString(customer.monthlyIncome, customer.currency),
    assignedAgentId: customer.assignedAgent?.id ?? '',
    language: customer.language,
    tags: customer.tags.join(', '),
    consents: Object.fromEntries(CONSENTS.map((name) => [name, customer.consents[name] !== null])) as Record<
      Consent,
      boolean
    >,
  };
}

const countryOf = (country: string): CountryCode | undefined =>
  isSupportedCountry(country) ? (country as CountryCode) : undefined;

/**
 * The number in E.164 as the server will store it, or null when it cannot be a phone number.
 * (The server checks against the full numbering plan; this check is by length, so it may let
 * through a number the server still refuses, never the other way round.)
 */
export function toE164(text: string, country: string): string | null {
  const defaultCountry = countryOf(country);
  const parsed = parsePhoneNumberFromString(text.trim(), defaultCountry ? { defaultCountry } : {});
  return parsed?.isValid() ? parsed.number : null;
}

/** "+254 712 345 678" for people. */
export function formatPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

/** The same words as the server's refusal. */
export function phoneMessage(country: string): string {
  return countryOf(country)
    ? `Enter a valid phone number: a ${country} number, or any number with its country code (e.g. +254 712 345 678)`
    : 'Enter a valid phone number with its country code (e.g. +254 712 345 678)';
}

export function phoneHint(country: string): string {
  const code = countryOf(country);
  return code
    ? `A ${code} number (+${getCountryCallingCode(code)}) as people write it, or any number with its country code. Saved in international format.`
    : 'The number with its country code, e.g. +254 712 345 678.';
}

/** Income typed in major units ("45,000" or "45000.50") as minor units, or the message why not. */
export function parseIncome(text: string, currency: string): { value: number | null } | { error: string } {
  const cleaned = text.replace(/[\s,_]/g, '');
  if (cleaned === '') return { value: null };
  if (cleaned.startsWith('-')) return { error: 'Monthly income cannot be negative' };
  try {
    return { value: parseMoney(cleaned, currency, 'Monthly income') };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { error: /outside the safe range/.test(message) ? 'Monthly income is too large' : message };
  }
}

const textOrNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** "Fund-A, school  fees" → ["fund-a", "school", "fees"]: each once, lower-case, as the API keeps them. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((tag) => tag.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** Every field for POST /api/customers (empty optional fields left out). */
export function toCreateBody(values: CustomerFormValues, context: FormContext): CustomerCreateBody {
  const body: CustomerCreateBody = {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    phone: values.phone.trim(),
  };
  const optional = {
    otherNames: textOrNull(values.otherNames),
    email: textOrNull(values.email),
    nationalId: textOrNull(values.nationalId),
    dateOfBirth: textOrNull(values.dateOfBirth),
    address: textOrNull(values.address),
    region: textOrNull(values.region),
    occupation: textOrNull(values.occupation),
    assignedAgentId: textOrNull(values.assignedAgentId),
  };
  for (const [name, value] of Object.entries(optional)) {
    if (value !== null) (body as Record<string, unknown>)[name] = value;
  }
  if (values.gender) body.gender = values.gender as CustomerCreateBody['gender'];
  if (values.employment) body.employment = values.employment as CustomerCreateBody['employment'];
  const income = parseIncome(values.monthlyIncome, context.currency);
  if ('value' in income && income.value !== null) body.monthlyIncome = income.value;
  if (values.language) body.language = values.language as CustomerCreateBody['language'];
  const tags = parseTags(values.tags);
  if (tags.length) body.tags = tags;
  body.consents = { ...values.consents };
  return body;
}

const sameNationalId = (a: string | null, b: string | null) =>
  (a ?? '').replace(/\s+/g, '').toUpperCase() === (b ?? '').replace(/\s+/g, '').toUpperCase();

/** PATCH /api/customers/:id: the version the form started from and only the fields that changed. */
export function toUpdateBody(
  values: CustomerFormValues,
  customer: Customer,
  context: FormContext,
): CustomerUpdateBody {
  const body: CustomerUpdateBody = { version: customer.version };
  const set = (name: string, value: unknown) => {
    (body as Record<string, unknown>)[name] = value;
  };
  if (values.firstName.trim() !== customer.firstName) set('firstName', values.firstName.trim());
  if (values.lastName.trim() !== customer.lastName) set('lastName', values.lastName.trim());
  const phone = values.phone.trim();
  if (phone !== customer.phone && toE164(phone, context.country) !== customer.phone) set('phone', phone);
  const email = textOrNull(values.email);
  if ((email?.toLowerCase() ?? null) !== customer.email) set('email', email);
  const nationalId = textOrNull(values.nationalId);
  if (!sameNationalId(nationalId, customer.nationalId)) set('nationalId', nationalId);
  for (const name of ['otherNames', 'dateOfBirth', 'address', 'region', 'occupation'] as const) {
    const value = textOrNull(values[name]);
    if (value !== customer[name]) set(name, value);
  }
  for (const name of ['gender', 'employment'] as const) {
    const value = values[name] || null;
    if (value !== customer[name]) set(name, value);
  }
  const income = parseIncome(values.monthlyIncome, context.currency);
  if ('value' in income && income.value !== customer.monthlyIncome) set('monthlyIncome', income.value);
  const agent = values.assignedAgentId || null;
  if (agent !== (customer.assignedAgent?.id ?? null)) set('assignedAgentId', agent);
  if (values.language && values.language !== customer.language) set('language', values.language);
  const tags = parseTags(values.tags);
  if (tags.join(',') !== customer.tags.join(',')) set('tags', tags);
  const consents: Partial<Record<Consent, boolean>> = {};
  for (const name of CONSENTS) {
    if (values.consents[name] !== (customer.consents[name] !== null)) consents[name] = values.consents[name];
  }
  if (Object.keys(consents).length) body.consents = consents;
  return body;
}

/** True when the edit body changes nothing (only the version). */
export function isEmptyUpdate(body: CustomerUpdateBody): boolean {
  return Object.keys(body).length === 1;
}

/**
 * The rules checked before sending, with the API's messages: its schema (names, lengths, email,
 * national ID, date of birth, choices), the phone against the organisation's country, and the
 * income as an amount of the currency. Returns a message per field; empty when all is well.
 */
export function validateCustomerForm(
  values: CustomerFormValues,
  context: FormContext,
): Partial<Record<CustomerField, string>> {
  const errors: Partial<Record<CustomerField, string>> = {};
  const result = customerCreateBody.safeParse(toCreateBody(values, context));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.path[0] as CustomerField | undefined;
      if (field && CUSTOMER_FIELDS.includes(field) && !errors[field]) errors[field] = issue.message;
    }
  }
  if (!errors.phone && values.phone.trim() && !toE164(values.phone, context.country)) {
    errors.phone = phoneMessage(context.country);
  }
  const income = parseIncome(values.monthlyIncome, context.currency);
  if ('error' in income) errors.monthlyIncome = income.error;
  return errors;
}

export interface Duplicate {
  field: 'phone' | 'nationalId';
  message: string;
  /** The customer who has the phone or ID, from the refusal's `details`. */
  customer: DuplicateCustomer;
}

/** A 409 refusal because another customer has the phone or national ID, with who has it. */
export function duplicateOf(error: unknown): Duplicate | null {
  const refusal = apiError(error);
  const code = refusal?.code;
  if (!refusal || (code !== ERROR_CODES.DUPLICATE_PHONE && code !== ERROR_CODES.DUPLICATE_NATIONAL_ID))
    return null;
  const customer = duplicateCustomerSchema.safeParse(refusal.details);
  if (!customer.success) return null;
  return {
    field: code === ERROR_CODES.DUPLICATE_PHONE ? 'phone' : 'nationalId',
    message: refusal.detail,
    customer: customer.data,
  };
}
