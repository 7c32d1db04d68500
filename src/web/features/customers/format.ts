import type { Consent, CustomerLanguage, DOCUMENT_STATUSES, KycStatus, Risk } from '@/contracts/customers';
import { formatMoney } from '@/domain';

/** What the customer pages show, free of React: labels, colours and formatting. */

export type BadgeVariant = 'default' | 'secondary' | 'destructive' | 'success' | 'warning' | 'outline';

export const KYC_STATUS_LABELS: Record<KycStatus, string> = {
  not_started: 'Not started',
  pending: 'Pending review',
  verified: 'Verified',
  rejected: 'Rejected',
};

export const KYC_STATUS_VARIANTS: Record<KycStatus, BadgeVariant> = {
  not_started: 'outline',
  pending: 'warning',
  verified: 'success',
  rejected: 'destructive',
};

export const DOCUMENT_STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: 'Awaiting review',
  verified: 'Verified',
  rejected: 'Rejected',
} satisfies Record<(typeof DOCUMENT_STATUSES)[number], string>;

export const DOCUMENT_STATUS_VARIANTS: Record<string, BadgeVariant> = {
  pending: 'warning',
  verified: 'success',
  rejected: 'destructive',
};

export const GENDER_LABELS: Record<string, string> = {
  female: 'Female',
  male: 'Male',
  other: 'Other',
  undisclosed: 'Prefers not to say',
};

export const EMPLOYMENT_LABELS: Record<string, string> = {
  salaried: 'Salaried',
  business_owner: 'Business owner',
  self_employed: 'Self-employed',
  farmer: 'Farmer',
  casual: 'Casual work',
  student: 'Student',
  retired: 'Retired',
  unemployed: 'Unemployed',
  other: 'Other',
};

/** The languages a customer's messages may be in (CUSTOMER_LANGUAGES). */
export const LANGUAGE_LABELS: Record<CustomerLanguage, string> = {
  en: 'English',
  sw: 'Swahili',
  fr: 'French',
  pt: 'Portuguese',
  ar: 'Arabic',
  am: 'Amharic',
  ha: 'Hausa',
  yo: 'Yoruba',
  lg: 'Luganda',
  rw: 'Kinyarwanda',
};

export const CONSENT_LABELS: Record<Consent, string> = {
  sms: 'SMS messages',
  whatsapp: 'WhatsApp messages',
  email: 'E-mail messages',
  marketing: 'Marketing',
  dataProcessing: 'Data processing',
};

export const CONSENT_HINTS: Record<Consent, string> = {
  sms: 'Reminders and receipts by SMS.',
  whatsapp: 'Reminders, receipts and unlock codes on WhatsApp.',
  email: 'Statements, receipts and news by e-mail.',
  marketing: 'Offers and news about products.',
  dataProcessing: 'Storing and checking the data needed for credit.',
};

export const FACTOR_LABELS: Record<string, string> = {
  income: 'Monthly income',
  affordability: 'Affordability',
  age: 'Age',
  employment: 'Employment',
  kyc: 'KYC checks',
  history: 'Repayment history',
  phoneTenure: 'Phone tenure',
};

export const DECISION_LABELS: Record<Risk['decision'], string> = {
  approve: 'Approve',
  refer: 'Refer',
  decline: 'Decline',
};

export const DECISION_VARIANTS: Record<Risk['decision'], BadgeVariant> = {
  approve: 'success',
  refer: 'warning',
  decline: 'destructive',
};

export const GRADE_VARIANTS: Record<string, BadgeVariant> = {
  A: 'success',
  B: 'success',
  C: 'secondary',
  D: 'warning',
  E: 'destructive',
};

export function labelOf(labels: Record<string, string>, value: string | null | undefined, fallback = '—') {
  if (!value) return fallback;
  return labels[value] ?? value;
}

/** A factor's value for people: minor units of income as money, kinds by their label. */
export function factorValue(factor: { factor: string; value: string }, currency: string): string {
  if (factor.factor === 'income' && /^\d+$/.test(factor.value)) {
    return formatMoney(Number(factor.value), currency);
  }
  if (factor.factor === 'employment') return labelOf(EMPLOYMENT_LABELS, factor.value);
  return factor.value;
}

/** Whole years from a date of birth to today. */
export function ageFrom(dateOfBirth: string, today = new Date()): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  let age = today.getFullYear() - year;
  if (today.getMonth() + 1 < month || (today.getMonth() + 1 === month && today.getDate() < day)) age -= 1;
  return age;
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
