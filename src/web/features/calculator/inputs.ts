import type { Frequency, InterestMethod } from '@/domain';
import { formatPercent } from '@/web/lib/format';

/**
 * The calculator's inputs as typed, their query string, and display helpers. Nothing here loads
 * the finance engine (type imports only), so the page can show its form before the engine arrives.
 */

export const FREQUENCY_OPTIONS: ReadonlyArray<{ value: Frequency; label: string }> = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
];

export const METHOD_OPTIONS: ReadonlyArray<{ value: InterestMethod; label: string }> = [
  { value: 'declining', label: 'Declining balance' },
  { value: 'flat', label: 'Flat rate' },
];

export interface CalculatorInputs {
  price: string;
  deposit: string;
  frequency: Frequency;
  term: string;
  apr: string;
  method: InterestMethod;
  multiple: string;
  fee: string;
  /** Contract start ('YYYY-MM-DD'); the first instalment is due one period later. */
  start: string;
}

export type CalculatorField = keyof CalculatorInputs;

/** The order of the query-string parameters of a shared quote link (values in major units). */
const PARAMS: readonly CalculatorField[] = [
  'price',
  'deposit',
  'frequency',
  'term',
  'apr',
  'method',
  'multiple',
  'fee',
  'start',
];

export const PERIOD_NOUN: Record<Frequency, { one: string; many: string; adjective: string }> = {
  daily: { one: 'day', many: 'days', adjective: 'daily' },
  weekly: { one: 'week', many: 'weeks', adjective: 'weekly' },
  monthly: { one: 'month', many: 'months', adjective: 'monthly' },
};

/** Today's date in the browser's calendar, as a business date. */
export function todayBusinessDate(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export function defaultInputs(today: string): CalculatorInputs {
  return {
    price: '',
    deposit: '',
    frequency: 'monthly',
    term: '12',
    apr: '',
    method: 'declining',
    multiple: '',
    fee: '',
    start: today,
  };
}

/** Inputs from a quote link's query string; anything missing or unknown takes its default. */
export function inputsFromSearch(search: string, today: string): CalculatorInputs {
  const params = new URLSearchParams(search);
  const inputs = defaultInputs(today);
  const text = (name: CalculatorField) => params.get(name)?.trim().slice(0, 40);
  for (const name of ['price', 'deposit', 'term', 'apr', 'multiple', 'fee', 'start'] as const) {
    const value = text(name);
    if (value !== undefined) inputs[name] = value;
  }
  const frequency = text('frequency');
  if (FREQUENCY_OPTIONS.some((o) => o.value === frequency)) inputs.frequency = frequency as Frequency;
  const method = text('method');
  if (METHOD_OPTIONS.some((o) => o.value === method)) inputs.method = method as InterestMethod;
  if (!inputs.start) inputs.start = today;
  return inputs;
}

/** The query string (without '?') that reproduces these inputs; empty values are left out. */
export function searchFromInputs(inputs: CalculatorInputs): string {
  const params = new URLSearchParams();
  for (const name of PARAMS) {
    const value = inputs[name].trim();
    if (value) params.set(name, value);
  }
  return params.toString();
}

/** The engine's periodic rate (decimal text of a fraction of one) as a percentage. */
export function periodicRatePercent(rateText: string): string {
  return formatPercent(Number(rateText) * 100, 4);
}

/** Deposit as a share of the price, one decimal ("16.7% of the cash price"). */
export function depositShare(deposit: number, price: number): string {
  return formatPercent((deposit / price) * 100, 1);
}

/** How long a term lasts, for the hint under the term: "About 12 months", "1 year 6 months". */
export function termDuration(frequency: Frequency, term: number): string {
  if (frequency === 'monthly') {
    const years = Math.floor(term / 12);
    const months = term % 12;
    const parts = [];
    if (years) parts.push(`${years} year${years === 1 ? '' : 's'}`);
    if (months || !years) parts.push(`${months} month${months === 1 ? '' : 's'}`);
    return parts.join(' ');
  }
  const days = frequency === 'weekly' ? term * 7 : term;
  if (days < 14) return `${days} day${days === 1 ? '' : 's'}`;
  if (days < 61) {
    const weeks = Math.round(days / 7);
    return `${frequency === 'weekly' ? '' : 'about '}${weeks} week${weeks === 1 ? '' : 's'}`;
  }
  const months = Math.round(days / (365.25 / 12));
  if (months < 24) return `about ${months} months`;
  const years = Math.round((days / 365.25) * 10) / 10;
  return `about ${years} years`;
}

/** The currency's name for people ("US Dollar (USD)"), from Intl. */
export function currencyName(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'currency' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}
