import { CURRENCIES, type Frequency, isKnownCurrency, toMinorUnits } from '../../../domain';

/**
 * Turns a staff member's question into one of the assistant's supported intents. Pure and
 * deterministic: the numbers of every answer come from the finance engine, never from here;
 * this only reads what was asked. `confidence` says how fully the question was understood.
 */
export type Intent =
  | {
      kind: 'installment';
      /** New instalment the customer pays per period (service fee included), minor units. */
      amount: number;
      frequency?: Frequency;
      /** "Increase" or "lower": contracts already on the far side of the amount are left out. */
      direction?: 'increase' | 'decrease';
    }
  /** A payment amount in a currency that is not the organisation's: never converted or reread. */
  | { kind: 'foreign_currency'; amount: string; currencyName: string; frequency?: Frequency }
  | { kind: 'apr'; apr: number }
  | { kind: 'service_discount'; percent: number; days: number }
  | { kind: 'term'; mode: 'to' | 'by'; count: number; unit: 'installments' | 'days' | 'weeks' | 'months' }
  | { kind: 'payment_holiday'; count: number; unit: 'installments' | 'days' | 'weeks' | 'months' }
  | { kind: 'payoff'; date?: string }
  | { kind: 'par'; days: number }
  | { kind: 'collection_rate' }
  | { kind: 'overdue_count' }
  | { kind: 'top_risks' }
  | { kind: 'unknown' };

export interface ParsedQuery {
  intent: Intent;
  /** A contract named in the question (CT-000123); the scenario then runs on it alone. */
  contractNumber?: string;
  /** 0..1: how fully the question was understood. */
  confidence: number;
  /** Assumptions made where the question was silent, to show to the user. */
  assumptions: string[];
}

/** Contract numbers are CT-000123; people type 'ct 123', 'CT123' or 'ct-000123'. */
const CONTRACT = /\bct[-\s]?(\d{1,9})\b/i;
const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?`;
const PERCENT = new RegExp(String.raw`${NUMBER}\s*(?:%|per\s*cent|percent|pct)`, 'i');

function parseNumber(match: RegExpMatchArray | null, index = 1): string | undefined {
  if (!match?.[index]) return undefined;
  const whole = match[index].replaceAll(',', '');
  const fraction = match[index + 1];
  return fraction ? `${whole}.${fraction}` : whole;
}

function frequencyIn(text: string): Frequency | undefined {
  if (/\b(daily|per day|a day|each day|every day)\b/.test(text)) return 'daily';
  if (/\b(weekly|per week|a week|each week|every week)\b/.test(text)) return 'weekly';
  if (/\b(monthly|per month|a month|each month|every month)\b/.test(text)) return 'monthly';
  return undefined;
}

function durationIn(text: string): { count: number; unit: 'days' | 'weeks' | 'months' } | undefined {
  const match = text.match(/(\d+)\s*(day|week|month)s?\b/);
  if (!match?.[1] || !match[2]) return undefined;
  return { count: Number(match[1]), unit: `${match[2]}s` as 'days' | 'weeks' | 'months' };
}

function toDays(count: number, unit: 'days' | 'weeks' | 'months'): number {
  return unit === 'days' ? count : unit === 'weeks' ? count * 7 : count * 30;
}

/** Currency symbols people type, and the word in the ISO name of the currencies they stand for. */
const SYMBOLS: Record<string, { name: string; word: string }> = {
  $: { name: 'dollars', word: 'Dollar' },
  '€': { name: 'euros', word: 'Euro' },
  '£': { name: 'pounds', word: 'Pound' },
  '₦': { name: 'naira', word: 'Naira' },
  '₹': { name: 'rupees', word: 'Rupee' },
};
/** Local abbreviations of the East African shillings. */
const ABBREVIATIONS: Record<string, string> = { ksh: 'KES', kshs: 'KES', ush: 'UGX', tsh: 'TZS' };
/** ISO codes that are also English words count only when typed in capitals ("TRY 50", not "try 50"). */
const WORDLIKE_CODES = new Set(['TRY', 'PEN', 'MAD', 'SOS', 'SOL']);

/**
 * The amount as typed and the currency it names, when that is not the organisation's: the
 * assistant then says so instead of reading "$0.50" as 0.50 of the organisation's currency.
 * A symbol matches every currency it stands for ("$" is any dollar, so an AUD book takes "$5").
 */
export function foreignCurrencyIn(
  query: string,
  currency: string,
): { amount: string; currencyName: string } | undefined {
  const symbol = query.match(new RegExp(String.raw`([$€£₦₹])\s?${NUMBER}`));
  if (symbol?.[1]) {
    const { name, word } = SYMBOLS[symbol[1]] as { name: string; word: string };
    if (CURRENCIES[currency]?.name.includes(word)) return undefined;
    return { amount: symbol[0], currencyName: `${name} (${symbol[1]})` };
  }
  const before = new RegExp(String.raw`\b([a-z]{3,4})\.?\s?${NUMBER}`, 'gi');
  const after = new RegExp(String.raw`${NUMBER}\s?([a-z]{3,4})\b`, 'gi');
  const candidates = [
    ...[...query.matchAll(before)].map((m) => ({ typed: m[0], word: m[1] ?? '' })),
    ...[...query.matchAll(after)].map((m) => ({ typed: m[0], word: m[3] ?? '' })),
  ];
  for (const { typed, word } of candidates) {
    const code = ABBREVIATIONS[word.toLowerCase()] ?? word.toUpperCase();
    if (!isKnownCurrency(code) || (WORDLIKE_CODES.has(code) && word !== code)) continue;
    return code === currency ? undefined : { amount: typed, currencyName: code };
  }
  return undefined;
}

/** A money amount: "$0.50", "KES 50", "1,500", "0.5". */
function amountIn(text: string, currency: string): number | undefined {
  const withSymbol = text.match(new RegExp(String.raw`(?:[$€£₦]|\b[a-z]{3}\s?)${NUMBER}`, 'i'));
  const bare = text.match(new RegExp(String.raw`\bto\s+${NUMBER}`, 'i')) ?? text.match(new RegExp(NUMBER));
  const value = parseNumber(withSymbol) ?? parseNumber(bare);
  if (value === undefined) return undefined;
  try {
    return toMinorUnits(value, currency);
  } catch {
    return undefined;
  }
}

export function parseQuery(query: string, currency: string): ParsedQuery {
  const text = query.toLowerCase().replace(/\s+/g, ' ').trim();
  const digits = text.match(CONTRACT)?.[1];
  const contractNumber = digits ? `CT-${digits.padStart(6, '0')}` : undefined;
  const scoped = contractNumber ? { contractNumber } : {};
  const assumptions: string[] = [];
  const result = (intent: Intent, confidence: number): ParsedQuery => ({
    intent,
    confidence,
    assumptions,
    ...scoped,
  });

  // Portfolio questions first: they contain numbers that are not amounts ("PAR 30").
  const par = text.match(/\bpar\s*-?\s*(\d+)?\b|portfolio at risk(?: (?:over |above |>)?(\d+))?/);
  if (par) {
    const days = Number(par[1] ?? par[2] ?? 30);
    if (!par[1] && !par[2]) assumptions.push('PAR over 30 days past due');
    return result({ kind: 'par', days }, par[1] || par[2] ? 0.95 : 0.85);
  }
  if (
    /collection rate|collections? (?:vs|versus|against) due|how much (?:did we|have we) collect/.test(text)
  ) {
    return result({ kind: 'collection_rate' }, 0.9);
  }
  if (
    /how many.*(overdue|late|in arrears|past due)|(overdue|late|arrears) (count|contracts|customers)|number of (overdue|late)/.test(
      text,
    )
  ) {
    return result({ kind: 'overdue_count' }, 0.9);
  }
  if (/top risk|riskiest|highest risk|most at risk|biggest risk/.test(text)) {
    return result({ kind: 'top_risks' }, 0.9);
  }
  if (/pay ?off|settle(?:ment)?|close (?:the )?contract|payout/.test(text)) {
    const date = text.match(/\b(\d{4}-\d{2}-\d{2})\b/)?.[1];
    if (!contractNumber) {
      assumptions.push('No contract number was given (for example CT-000123)');
      return result({ kind: 'payoff', ...(date ? { date } : {}) }, 0.4);
    }
    if (!date) assumptions.push('Payoff as of today');
    return result({ kind: 'payoff', ...(date ? { date } : {}) }, 0.95);
  }

  const percent = parseNumber(text.match(PERCENT));
  if (/\b(apr|interest rate|annual rate|rate)\b/.test(text) && !/discount/.test(text)) {
    const apr = percent ?? parseNumber(text.match(new RegExp(String.raw`(?:apr|rate)\D{0,12}${NUMBER}`)));
    if (apr !== undefined && Number(apr) >= 0 && Number(apr) <= 1000) {
      return result({ kind: 'apr', apr: Number(apr) }, percent !== undefined ? 0.95 : 0.8);
    }
    return result({ kind: 'unknown' }, 0.3);
  }

  if (/discount|waive|reduc\w* (?:the )?(?:service )?fee|fee (?:cut|reduction)/.test(text)) {
    const duration = durationIn(text);
    let confidence = 0.95;
    if (percent === undefined) {
      return result({ kind: 'unknown' }, 0.3);
    }
    if (!duration) {
      assumptions.push('For 30 days (no period was given)');
      confidence = 0.7;
    }
    const days = duration ? toDays(duration.count, duration.unit) : 30;
    if (duration?.unit === 'months') assumptions.push(`${duration.count} month(s) taken as ${days} days`);
    return result({ kind: 'service_discount', percent: Number(percent), days }, confidence);
  }

  if (/holiday|skip|pause|defer|grace/.test(text)) {
    const explicit = text.match(/(\d+)\s*(payments?|instal?lments?|periods?)/);
    if (explicit?.[1])
      return result({ kind: 'payment_holiday', count: Number(explicit[1]), unit: 'installments' }, 0.9);
    const duration = durationIn(text);
    if (duration) return result({ kind: 'payment_holiday', ...duration }, 0.9);
    assumptions.push('One period (no length was given)');
    return result({ kind: 'payment_holiday', count: 1, unit: 'installments' }, 0.6);
  }

  if (/\bterm\b|extend|shorten|lengthen|longer|shorter/.test(text)) {
    const by = /\bby\b|extend|add|more|longer|lengthen/.test(text) && !/\bto\b/.test(text);
    const explicit = text.match(/(\d+)\s*(payments?|instal?lments?|periods?)/);
    const duration = durationIn(text);
    const sign = /shorten|shorter|reduce|cut|less|fewer/.test(text) ? -1 : 1;
    if (explicit?.[1]) {
      return result(
        { kind: 'term', mode: by ? 'by' : 'to', count: sign * Number(explicit[1]), unit: 'installments' },
        0.9,
      );
    }
    if (duration) {
      return result(
        { kind: 'term', mode: by ? 'by' : 'to', count: sign * duration.count, unit: duration.unit },
        0.9,
      );
    }
    return result({ kind: 'unknown' }, 0.3);
  }

  if (/payment|instal?lment|repayment|\bpay\b|increase|raise|lower|decrease/.test(text)) {
    const frequency = frequencyIn(text);
    const often = frequency ? { frequency } : {};
    const foreign = foreignCurrencyIn(query, currency);
    if (foreign) return result({ kind: 'foreign_currency', ...foreign, ...often }, 0.9);
    const amount = amountIn(text, currency);
    if (amount === undefined || amount <= 0) return result({ kind: 'unknown' }, 0.3);
    if (!frequency) assumptions.push('Applies to each contract at its own payment frequency');
    const direction = /increase|raise|higher|more/.test(text)
      ? { direction: 'increase' as const }
      : /lower|decrease|reduce|less/.test(text)
        ? { direction: 'decrease' as const }
        : {};
    return result({ kind: 'installment', amount, ...often, ...direction }, frequency ? 0.95 : 0.75);
  }

  return result({ kind: 'unknown' }, text.length ? 0.1 : 0);
}

/** What the assistant can answer, listed in its reply to a question it did not understand. */
export const SUPPORTED_QUESTIONS = [
  'Increase daily payment to $0.50',
  'Adjust APR to 19%',
  '20% service discount for 30 days',
  'Extend the term by 2 months / Change term to 40 instalments',
  'Payment holiday of 2 weeks',
  'Payoff for CT-000123',
  'What is PAR30? / What is our collection rate? / How many contracts are overdue? / Top risks',
];
