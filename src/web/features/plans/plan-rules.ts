import type { Plan, PlanCreateBody } from '@/contracts/plans';
import { parseMajor } from '@/web/features/devices/money';
import { moneyInputText } from '@/web/lib/money';

/** The plan form as typed: text for numbers and money (major units), lists as arrays. */
export interface PlanFormValues {
  code: string;
  name: string;
  description: string;
  frequency: Plan['frequency'];
  allowedTerms: string;
  apr: string;
  interestMethod: Plan['interestMethod'];
  minDepositPercent: string;
  minDepositAmount: string;
  installmentMultiple: string;
  serviceFee: string;
  lateFeeKind: Plan['lateFeeKind'];
  lateFeeValue: string;
  graceDays: string;
  lockAfterDays: string;
  defaultAfterDays: string;
  allocationStrategy: Plan['allocationStrategy'];
  earlySettlementDiscountPercent: string;
  eligibleCategories: string[];
  eligibleModelIds: string[];
}

export type PlanField = keyof PlanFormValues;
export type PlanTermsBody = Required<Omit<PlanCreateBody, 'description'>> & { description?: string };

export const PLAN_FIELDS: readonly PlanField[] = [
  'code',
  'name',
  'description',
  'frequency',
  'allowedTerms',
  'apr',
  'interestMethod',
  'minDepositPercent',
  'minDepositAmount',
  'installmentMultiple',
  'serviceFee',
  'lateFeeKind',
  'lateFeeValue',
  'graceDays',
  'lockAfterDays',
  'defaultAfterDays',
  'allocationStrategy',
  'earlySettlementDiscountPercent',
  'eligibleCategories',
  'eligibleModelIds',
];

export const EMPTY_PLAN: PlanFormValues = {
  code: '',
  name: '',
  description: '',
  frequency: 'monthly',
  allowedTerms: '',
  apr: '',
  interestMethod: 'declining',
  minDepositPercent: '0',
  minDepositAmount: '',
  installmentMultiple: '',
  serviceFee: '',
  lateFeeKind: 'none',
  lateFeeValue: '',
  graceDays: '0',
  lockAfterDays: '',
  defaultAfterDays: '',
  allocationStrategy: 'default',
  earlySettlementDiscountPercent: '0',
  eligibleCategories: [],
  eligibleModelIds: [],
};

const moneyText = (minor: number, currency: string) => (minor ? moneyInputText(minor, currency) : '');

export function planValues(plan: Plan): PlanFormValues {
  return {
    code: plan.code,
    name: plan.name,
    description: plan.description ?? '',
    frequency: plan.frequency,
    allowedTerms: plan.allowedTerms.join(', '),
    apr: String(plan.apr),
    interestMethod: plan.interestMethod,
    minDepositPercent: String(plan.minDepositPercent),
    minDepositAmount: moneyText(plan.minDepositAmount, plan.currency),
    installmentMultiple: moneyText(plan.installmentMultiple, plan.currency),
    serviceFee: moneyText(plan.serviceFee, plan.currency),
    lateFeeKind: plan.lateFeeKind,
    lateFeeValue:
      plan.lateFeeKind === 'flat'
        ? moneyInputText(plan.lateFeeValue, plan.currency)
        : plan.lateFeeKind === 'percent'
          ? String(plan.lateFeeValue)
          : '',
    graceDays: String(plan.graceDays),
    lockAfterDays: plan.lockAfterDays === null ? '' : String(plan.lockAfterDays),
    defaultAfterDays: plan.defaultAfterDays === null ? '' : String(plan.defaultAfterDays),
    allocationStrategy: plan.allocationStrategy,
    earlySettlementDiscountPercent: String(plan.earlySettlementDiscountPercent),
    eligibleCategories: [...plan.eligibleCategories],
    eligibleModelIds: [...plan.eligibleModelIds],
  };
}

const DECIMAL = /^\d+(\.\d+)?$/;
const WHOLE = /^\d+$/;

/**
 * The form's values as the API body, or a message per field: the API's own rules (shared schema
 * and the server's cross-field checks), and the organisation's APR cap when known.
 */
export function planBody(
  values: PlanFormValues,
  currency: string,
  aprCap: number | null = null,
):
  | { body: PlanTermsBody; errors?: undefined }
  | { body?: undefined; errors: Partial<Record<PlanField, string>> } {
  const errors: Partial<Record<PlanField, string>> = {};
  const fail = (field: PlanField, message: string) => {
    errors[field] ??= message;
  };

  const code = values.code.trim().toUpperCase();
  if (!code) fail('code', 'Code is required');
  else if (!/^[A-Z0-9][A-Z0-9_-]{1,29}$/.test(code))
    fail('code', 'Code: 2-30 capital letters, digits, - or _');
  const name = values.name.trim();
  if (!name) fail('name', 'Name is required');
  else if (name.length > 100) fail('name', 'Name must be at most 100 characters');
  const description = values.description.trim();
  if (description.length > 1000) fail('description', 'Description must be at most 1000 characters');

  const percent = (field: PlanField, label: string, text: string, below100 = false): number => {
    const trimmed = text.trim();
    if (!trimmed) return 0;
    if (!DECIMAL.test(trimmed)) {
      fail(field, `${label} must be a number such as 12.5`);
      return 0;
    }
    const value = Number(trimmed);
    if (value > 100) fail(field, `${label} must be at most 100`);
    else if (below100 && value >= 100) fail(field, `${label} must be below 100`);
    return value;
  };
  const money = (field: PlanField, label: string, text: string): number => {
    const parsed = parseMajor(text, currency, label);
    if (parsed.error) fail(field, parsed.error);
    return parsed.value ?? 0;
  };
  const whole = (field: PlanField, label: string, text: string, min: number, max: number): number | null => {
    const trimmed = text.trim();
    if (!trimmed) return null;
    if (!WHOLE.test(trimmed)) {
      fail(field, `${label} must be a whole number`);
      return null;
    }
    const value = Number(trimmed);
    if (value < min) fail(field, `${label} must be at least ${min}`);
    else if (value > max) fail(field, `${label} must be at most ${max}`);
    return value;
  };

  const termTexts = values.allowedTerms.split(/[\s,;]+/).filter(Boolean);
  const allowedTerms: number[] = [];
  if (!termTexts.length) fail('allowedTerms', 'Give at least one allowed term');
  for (const text of termTexts) {
    if (!WHOLE.test(text) || Number(text) < 1 || Number(text) > 3660) {
      fail('allowedTerms', `"${text}" is not a term: whole numbers of instalments, 1 to 3660`);
    } else allowedTerms.push(Number(text));
  }
  if (allowedTerms.length > 50) fail('allowedTerms', 'At most 50 allowed terms');
  if (new Set(allowedTerms).size !== allowedTerms.length) fail('allowedTerms', 'Each term only once');
  allowedTerms.sort((a, b) => a - b);

  const aprText = values.apr.trim();
  let apr = 0;
  if (!aprText) fail('apr', 'APR is required (0 for interest-free)');
  else if (!DECIMAL.test(aprText)) fail('apr', 'APR must be a number such as 36 or 29.5');
  else {
    apr = Number(aprText);
    if (apr > 1000) fail('apr', 'APR must be at most 1000');
    else if (aprCap !== null && apr > aprCap)
      fail('apr', `APR ${apr}% is above the organisation's cap of ${aprCap}%`);
  }

  const minDepositPercent = percent('minDepositPercent', 'Minimum deposit %', values.minDepositPercent, true);
  const minDepositAmount = money('minDepositAmount', 'Minimum deposit amount', values.minDepositAmount);
  const installmentMultiple = money('installmentMultiple', 'Instalment multiple', values.installmentMultiple);
  const serviceFee = money('serviceFee', 'Service fee', values.serviceFee);

  let lateFeeValue = 0;
  if (values.lateFeeKind === 'flat') {
    lateFeeValue = money('lateFeeValue', 'Late fee', values.lateFeeValue);
    if (!lateFeeValue && !errors.lateFeeValue) fail('lateFeeValue', 'Give the late fee amount');
  } else if (values.lateFeeKind === 'percent') {
    lateFeeValue = percent('lateFeeValue', 'Late fee %', values.lateFeeValue);
    if (!lateFeeValue && !errors.lateFeeValue) fail('lateFeeValue', 'Give the late fee percentage');
  }

  const graceDays = whole('graceDays', 'Grace days', values.graceDays, 0, 365) ?? 0;
  const lockAfterDays = whole('lockAfterDays', 'Lock after days', values.lockAfterDays, 0, 3650);
  const defaultAfterDays = whole('defaultAfterDays', 'Default after days', values.defaultAfterDays, 1, 3650);
  if (lockAfterDays !== null && defaultAfterDays !== null && defaultAfterDays < lockAfterDays) {
    fail('defaultAfterDays', 'Default after days must not be before lock after days');
  }
  const earlySettlementDiscountPercent = percent(
    'earlySettlementDiscountPercent',
    'Early-settlement discount %',
    values.earlySettlementDiscountPercent,
  );

  if (Object.keys(errors).length) return { errors };
  return {
    body: {
      code,
      name,
      ...(description ? { description } : {}),
      eligibleCategories: values.eligibleCategories as PlanTermsBody['eligibleCategories'],
      eligibleModelIds: values.eligibleModelIds,
      minDepositPercent,
      minDepositAmount,
      frequency: values.frequency,
      allowedTerms,
      apr,
      interestMethod: values.interestMethod,
      installmentMultiple,
      serviceFee,
      lateFeeKind: values.lateFeeKind,
      lateFeeValue,
      graceDays,
      lockAfterDays,
      defaultAfterDays,
      allocationStrategy: values.allocationStrategy,
      earlySettlementDiscountPercent,
    },
  };
}

/** The fields of `body` that differ from the plan (an edit sends only those). */
export function changedTerms(plan: Plan, body: PlanTermsBody): Partial<PlanTermsBody> {
  const change: Record<string, unknown> = {};
  const current = plan as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'code') continue;
    const before = key === 'description' ? (plan.description ?? undefined) : current[key];
    const same = Array.isArray(value)
      ? Array.isArray(before) && JSON.stringify([...value].sort()) === JSON.stringify([...before].sort())
      : value === before;
    if (!same) change[key] = value;
  }
  if (!body.description && plan.description) change.description = '';
  return change as Partial<PlanTermsBody>;
}
