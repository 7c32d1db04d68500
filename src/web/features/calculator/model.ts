import { ERROR_CODES } from '@/contracts/errors';
import {
  buildSchedule,
  DomainError,
  type Frequency,
  formatMoney,
  isBusinessDate,
  SCHEDULE_LIMITS,
  type Schedule,
  type ScheduleInput,
  scheduleInputIssues,
} from '@/domain';
import { parseMoneyInput } from '@/web/lib/money';

import type { CalculatorField, CalculatorInputs } from './inputs';

/**
 * The calculator's maths, free of React: validation of the typed inputs (major units of the
 * organisation's currency) field by field, and the schedule computed by the finance engine in the
 * browser (the same code as GET /api/calculator/quote and the contracts). Loaded on demand.
 */

/** Periods per year, to annualise a periodic rate the way the engine de-annualises the APR. */
const PERIODS_PER_YEAR: Record<Frequency, number> = { daily: 365, weekly: 365 / 7, monthly: 12 };

const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

export type FieldErrors = Partial<Record<CalculatorField, string>>;

export interface Evaluation {
  /** One message per field that needs attention. */
  errors: FieldErrors;
  /** Required fields that are still empty (their message is in `errors` too). */
  missing: CalculatorField[];
  /** A refusal that is not about one field (amounts out of range). */
  problem?: string;
  price?: number;
  deposit?: number;
  input?: ScheduleInput;
  schedule?: Schedule;
}

const ENGINE_FIELD: Record<string, CalculatorField> = {
  principal: 'deposit',
  apr: 'apr',
  term: 'term',
  frequency: 'frequency',
  method: 'method',
  startDate: 'start',
  installmentMultiple: 'multiple',
  serviceFeePerPeriod: 'fee',
};

/**
 * Validates the inputs field by field and, when they are all usable, builds the schedule with the
 * finance engine. The engine's own checks (`scheduleInputIssues`) and refusals back up the form's.
 */
export function evaluate(inputs: CalculatorInputs, currency: string): Evaluation {
  const errors: FieldErrors = {};
  const missing: CalculatorField[] = [];
  const require = (field: CalculatorField, message: string) => {
    missing.push(field);
    errors[field] = message;
  };

  const price = parseMoneyInput(inputs.price, currency, 'Cash price');
  let priceValue: number | undefined;
  if ('empty' in price) require('price', 'Enter the cash price');
  else if ('error' in price) errors.price = price.error;
  else if (price.value === 0) errors.price = 'Cash price must be more than 0';
  else priceValue = price.value;

  const deposit = parseMoneyInput(inputs.deposit, currency, 'Deposit');
  let depositValue: number | undefined;
  if ('empty' in deposit) depositValue = 0;
  else if ('error' in deposit) errors.deposit = deposit.error;
  else depositValue = deposit.value;
  if (priceValue !== undefined && depositValue !== undefined && depositValue >= priceValue) {
    errors.deposit =
      depositValue === priceValue
        ? 'The deposit must be less than the cash price: nothing would be left to finance'
        : 'The deposit must be less than the cash price';
  }

  const termText = inputs.term.trim();
  let term: number | undefined;
  if (!termText) require('term', 'Enter the number of instalments');
  else if (!/^\d+$/.test(termText)) errors.term = 'Term must be a whole number of instalments';
  else {
    term = Number(termText);
    if (term < SCHEDULE_LIMITS.minTerm || term > SCHEDULE_LIMITS.maxTerm) {
      errors.term = `Term must be from ${SCHEDULE_LIMITS.minTerm} to ${SCHEDULE_LIMITS.maxTerm.toLocaleString('en-US')} instalments`;
      term = undefined;
    }
  }

  const aprText = inputs.apr.trim();
  let apr: string | undefined;
  if (!aprText) require('apr', 'Enter the APR');
  else if (!DECIMAL.test(aprText)) errors.apr = 'APR must be a number of percent, such as 15 or 19.99';
  else {
    apr = aprText.startsWith('.') ? `0${aprText}` : aprText.replace(/\.$/, '');
    if (Number(apr) > SCHEDULE_LIMITS.maxApr) {
      errors.apr = `APR must be from ${SCHEDULE_LIMITS.minApr} to ${SCHEDULE_LIMITS.maxApr.toLocaleString('en-US')}%`;
      apr = undefined;
    }
  }

  const multiple = parseMoneyInput(inputs.multiple, currency, 'Instalment multiple');
  const multipleValue = 'value' in multiple ? multiple.value : 'empty' in multiple ? 0 : undefined;
  if ('error' in multiple) errors.multiple = multiple.error;

  const fee = parseMoneyInput(inputs.fee, currency, 'Service fee');
  const feeValue = 'value' in fee ? fee.value : 'empty' in fee ? 0 : undefined;
  if ('error' in fee) errors.fee = fee.error;

  if (!isBusinessDate(inputs.start)) errors.start = 'Enter the start date';

  const result: Evaluation = { errors, missing };
  if (priceValue !== undefined) result.price = priceValue;
  if (depositValue !== undefined) result.deposit = depositValue;
  if (
    Object.keys(errors).length > 0 ||
    priceValue === undefined ||
    depositValue === undefined ||
    term === undefined ||
    apr === undefined ||
    multipleValue === undefined ||
    feeValue === undefined
  ) {
    return result;
  }

  const input: ScheduleInput = {
    principal: priceValue - depositValue,
    apr,
    frequency: inputs.frequency,
    term,
    method: inputs.method,
    startDate: inputs.start,
    installmentMultiple: multipleValue,
    serviceFeePerPeriod: feeValue,
  };
  for (const issue of scheduleInputIssues(input)) {
    const field = ENGINE_FIELD[issue.field] ?? 'price';
    errors[field] ??= issue.message;
  }
  if (Object.keys(errors).length > 0) return result;
  result.input = input;

  try {
    result.schedule = buildSchedule(input);
  } catch (error) {
    if (error instanceof DomainError) {
      const field = refusalField(error);
      errors[field] = refusalMessage(error, multipleValue, currency);
    } else if (error instanceof RangeError) {
      result.problem = 'These amounts are too large to calculate: lower the price or the term.';
    } else {
      throw error;
    }
  }
  return result;
}

function refusalField(error: DomainError): CalculatorField {
  if (error.code === ERROR_CODES.INSTALLMENT_BELOW_INTEREST) return 'multiple';
  return ENGINE_FIELD[error.field ?? ''] ?? 'term';
}

function refusalMessage(error: DomainError, multiple: number, currency: string): string {
  const m = multiple > 0 ? formatMoney(multiple, currency) : '';
  switch (error.code) {
    case ERROR_CODES.INSTALLMENT_ROUNDS_TO_ZERO:
      return multiple > 0
        ? `The instalment is smaller than the instalment multiple (${m}): use a smaller multiple or fewer instalments`
        : 'The instalment would round to zero: use fewer instalments or finance more';
    case ERROR_CODES.INSTALLMENT_BELOW_INTEREST:
      return `Rounded down to a multiple of ${m}, the instalment would not cover the first period's interest: use a smaller multiple`;
    default:
      return error.message;
  }
}

// ---------------------------------------------------------------------------------------------
// Figures for people

export interface QuoteFigures {
  price: number;
  deposit: number;
  principal: number;
  /** What the customer pays each period (instalment + service fee). */
  regularPayment: number;
  /** The last payment (it clears the balance), service fee included. */
  lastPayment: number;
  totalInterest: number;
  totalServiceFees: number;
  /** Sum of all instalments: principal + interest + service fees. */
  totalOfPayments: number;
  /** Deposit + all instalments. */
  totalCost: number;
  /** What credit costs over the cash price: interest + service fees. */
  costOfCredit: number;
  /** The engine's periodic rate as decimal text of a fraction of one. */
  periodicRate: string;
  /** Annual rate implied by the payments (fees included), percent; null when it cannot be found. */
  aprWithFees: number | null;
}

export function quoteFigures(evaluation: Evaluation): QuoteFigures | null {
  const { schedule, price, deposit, input } = evaluation;
  if (!schedule || price === undefined || deposit === undefined || !input) return null;
  const { totals, rows } = schedule;
  const last = rows[rows.length - 1];
  return {
    price,
    deposit,
    principal: totals.totalPrincipal,
    regularPayment: totals.regularPayment,
    lastPayment: last ? last.total : 0,
    totalInterest: totals.totalInterest,
    totalServiceFees: totals.totalServiceFees,
    totalOfPayments: totals.totalPayable,
    totalCost: deposit + totals.totalPayable,
    costOfCredit: totals.totalInterest + totals.totalServiceFees,
    periodicRate: schedule.periodicRate,
    aprWithFees: impliedApr(
      totals.totalPrincipal,
      rows.map((r) => r.total),
      input.frequency,
    ),
  };
}

/**
 * The annual rate (percent) at which the payments repay the amount financed: the periodic internal
 * rate of return times periods per year, the same convention the engine uses to turn the APR into a
 * periodic rate. Equals the nominal APR for a declining-balance loan without fees (up to rounding);
 * shows the true cost of flat-rate interest and service fees. For disclosure only (floating point).
 */
export function impliedApr(
  principal: number,
  payments: readonly number[],
  frequency: Frequency,
): number | null {
  if (principal <= 0 || payments.length === 0) return null;
  const total = payments.reduce((a, b) => a + b, 0);
  if (total <= principal) return 0;
  // Present value of the payments at periodic rate r, minus the principal: decreasing in r.
  const npv = (r: number) => {
    const d = 1 / (1 + r);
    let factor = 1;
    let sum = 0;
    for (const p of payments) {
      factor *= d;
      sum += p * factor;
    }
    return sum - principal;
  };
  let low = 0;
  let high = 1;
  while (npv(high) > 0) {
    high *= 2;
    if (high > 1e6) return null;
  }
  for (let i = 0; i < 200 && high - low > 1e-13; i++) {
    const mid = (low + high) / 2;
    if (npv(mid) > 0) low = mid;
    else high = mid;
  }
  return ((low + high) / 2) * PERIODS_PER_YEAR[frequency] * 100;
}
