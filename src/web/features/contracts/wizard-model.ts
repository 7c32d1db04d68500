import type { ContractCreateBody } from '@/contracts/contracts';
import type { Plan } from '@/contracts/plans';
import { formatMoney, minimumDeposit, planIneligibility } from '@/domain';
import { parseMoneyInput } from '@/web/lib/money';

/**
 * The new-contract wizard's state and rules, free of React: the steps, what each step needs
 * before the next one, and where a field the server refuses is entered.
 */

export const STEPS = [
  { id: 'customer', title: 'Customer' },
  { id: 'device', title: 'Device' },
  { id: 'plan', title: 'Plan' },
  { id: 'terms', title: 'Deposit and term' },
  { id: 'preview', title: 'Schedule' },
  { id: 'submit', title: 'Submit' },
] as const;
export type StepId = (typeof STEPS)[number]['id'];

export interface PickedCustomer {
  id: string;
  name: string;
  accountNumber: string;
  phone: string;
  kycStatus: string;
}

export interface PickedDevice {
  id: string;
  serialNumber: string;
  modelId: string;
  modelName: string;
  category: string;
}

export interface WizardValues {
  customer: PickedCustomer | null;
  device: PickedDevice | null;
  plan: Plan | null;
  /** Typed in major units of the currency ("250.00"). */
  deposit: string;
  term: string;
  submitForApproval: boolean;
}

export const EMPTY_VALUES: WizardValues = {
  customer: null,
  device: null,
  plan: null,
  deposit: '',
  term: '',
  submitForApproval: true,
};

/** The API's field names, each shown at the step where it is entered. */
export type WizardField = 'customerId' | 'deviceId' | 'planId' | 'deposit' | 'term' | 'startDate';
export type WizardErrors = Partial<Record<WizardField, string>>;

const FIELD_STEP: Record<WizardField, StepId> = {
  customerId: 'customer',
  deviceId: 'device',
  planId: 'plan',
  deposit: 'terms',
  term: 'terms',
  startDate: 'terms',
};

export function stepIndex(step: StepId): number {
  return STEPS.findIndex((s) => s.id === step);
}

/** The first step that holds one of these fields (server errors send the wizard back there). */
export function firstStepWithError(errors: Record<string, string>): StepId | null {
  let first: number | null = null;
  for (const field of Object.keys(errors)) {
    const step = FIELD_STEP[field as WizardField];
    if (!step) continue;
    const index = stepIndex(step);
    if (first === null || index < first) first = index;
  }
  return first === null ? null : (STEPS[first]?.id ?? null);
}

/** Only the fields the wizard knows, so unknown server fields never hide a message. */
export function knownFieldErrors(errors: Record<string, string>): WizardErrors {
  const known: WizardErrors = {};
  for (const [field, message] of Object.entries(errors))
    if (field in FIELD_STEP) known[field as WizardField] = message;
  return known;
}

export interface StepContext {
  /** The chosen device's cash price (its model's retail price), once known. */
  cashPrice: number | null;
  currency: string;
}

/** The deposit in minor units, or the message for the field. */
export function parseDeposit(
  values: WizardValues,
  context: StepContext,
): { value: number } | { error: string } {
  const parsed = parseMoneyInput(values.deposit, context.currency, 'Deposit');
  if ('empty' in parsed) return { error: 'Enter the deposit' };
  if ('error' in parsed) return parsed;
  const { plan } = values;
  const price = context.cashPrice;
  if (price !== null) {
    if (parsed.value >= price)
      return {
        error: `The deposit must be less than the cash price (${formatMoney(price, context.currency)})`,
      };
    if (plan) {
      const least = minimumDeposit(plan, price);
      if (parsed.value < least)
        return {
          error: `Plan ${plan.code} needs a deposit of at least ${formatMoney(least, context.currency)}`,
        };
    }
  }
  return parsed;
}

/** What the step still needs before Next; empty when it can go on. */
export function stepErrors(step: StepId, values: WizardValues, context: StepContext): WizardErrors {
  const errors: WizardErrors = {};
  if (step === 'customer' && !values.customer) errors.customerId = 'Choose a customer';
  if (step === 'device' && !values.device) errors.deviceId = 'Choose a device in stock';
  if (step === 'plan') {
    if (!values.plan) errors.planId = 'Choose a service plan';
    else {
      const why = planIneligibility(values.plan, values.device);
      if (why) errors.planId = why;
    }
  }
  if (step === 'terms') {
    const deposit = parseDeposit(values, context);
    if ('error' in deposit) errors.deposit = deposit.error;
    const term = Number(values.term);
    if (!values.term) errors.term = 'Choose the number of instalments';
    else if (values.plan && !values.plan.allowedTerms.includes(term))
      errors.term = `Plan ${values.plan.code} allows ${values.plan.allowedTerms.join(', ')} instalments`;
  }
  return errors;
}

/** The first step, up to `step`, that is not complete (the wizard never skips one). */
export function firstIncompleteStep(step: StepId, values: WizardValues, context: StepContext): StepId | null {
  for (const candidate of STEPS.slice(0, stepIndex(step))) {
    if (Object.keys(stepErrors(candidate.id, values, context)).length) return candidate.id;
  }
  return null;
}

/** The request body of POST /api/contracts (and /preview) from complete values. */
export function requestBody(values: WizardValues, context: StepContext): ContractCreateBody {
  const deposit = parseDeposit(values, context);
  return {
    customerId: values.customer?.id ?? '',
    deviceId: values.device?.id ?? '',
    planId: values.plan?.id ?? '',
    deposit: 'value' in deposit ? deposit.value : 0,
    term: Number(values.term),
  };
}
