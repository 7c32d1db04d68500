import type { CustomerIntent } from '../../../contracts/conversations';

/**
 * The customer-service assistant's deterministic reading of a message (issue 15 §5): which one of
 * its intents the customer asked for, tolerant of typos (one edit in a word of five letters or
 * more) and of a few Swahili words. It reads no figures and names no one: the answer is built
 * from the thread's own customer's data only (`answer.ts`).
 */
export interface CustomerQuery {
  intent: CustomerIntent;
  /** A payoff's date (YYYY-MM-DD), when the message names one. */
  date?: string;
  /** Contract numbers the message names (checked against the customer's own). */
  contractNumbers: string[];
}

/** Opt-out and opt-in keywords (the whole message, as carriers and WhatsApp use them). */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'SUBSCRIBE'] as const;

/** What the assistant offers when it did not understand, and on "help". */
export const CAN_HELP_WITH = [
  'your balance',
  'your next payment (date and amount)',
  'how to pay',
  'the amount to pay everything off on a date',
  'your latest unlock code',
  'your last payments',
  'talking to a person',
];

/** Words (or phrases) per intent, in order of precedence: a hand-off wins over a balance question. */
const KEYWORDS: ReadonlyArray<readonly [CustomerIntent, readonly string[]]> = [
  [
    'handoff',
    [
      'agent',
      'human',
      'person',
      'someone',
      'somebody',
      'staff',
      'operator',
      'representative',
      'customer care',
      'customer service',
      'call me',
      'talk to',
      'speak to',
      'speak with',
      'real people',
      'complaint',
      'complain',
      'mtu',
      'wakala',
    ],
  ],
  [
    'payoff',
    [
      'payoff',
      'pay off',
      'pay it off',
      'settle',
      'settlement',
      'pay everything',
      'pay all',
      'pay the whole',
      'pay in full',
      'full amount',
      'clear my',
      'clear the',
      'finish paying',
      'close my loan',
      'close the loan',
      'pay early',
      'maliza',
    ],
  ],
  [
    'history',
    [
      'history',
      'last payments',
      'my payments',
      'payments i made',
      'payments made',
      'receipts',
      'receipt',
      'statement',
      'have i paid',
      'did i pay',
      'paid so far',
      'previous payments',
      'past payments',
      'malipo yangu',
    ],
  ],
  [
    'how_to_pay',
    [
      'how do i pay',
      'how can i pay',
      'how to pay',
      'where do i pay',
      'where to pay',
      'paybill',
      'pay bill',
      'mpesa',
      'm-pesa',
      'till',
      'account to pay',
      'lipa',
      'kulipa',
    ],
  ],
  ['token', ['token', 'unlock', 'code', 'keycode', 'pin', 'activation', 'locked', 'fungua']],
  [
    'next_due',
    [
      'next payment',
      'next instalment',
      'next installment',
      'when is my',
      'when do i',
      'when should i',
      'due date',
      'due',
      'instalment',
      'installment',
      'lini',
    ],
  ],
  [
    'balance',
    [
      'balance',
      'bal',
      'owe',
      'outstanding',
      'remaining',
      'left to pay',
      'how much',
      'arrears',
      'overdue',
      'salio',
      'deni',
      'baki',
    ],
  ],
  ['help', ['help', 'menu', 'options', 'what can you do', 'msaada', 'saidia']],
  [
    'greeting',
    [
      'hi',
      'hello',
      'hey',
      'hallo',
      'good morning',
      'good afternoon',
      'good evening',
      'habari',
      'jambo',
      'mambo',
      'sasa',
    ],
  ],
];

/** Damerau–Levenshtein distance up to `max` (larger answers max + 1). */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...new Array<number>(b.length).fill(0),
  ]);
  for (let j = 0; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = value;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** Short words one typo away from common ones ("stuff", "pay all"): matched only as written. */
const EXACT_ONLY = new Set(['staff', 'early', 'human', 'maliza', 'lipa', 'salio', 'mambo', 'hallo', 'sasa']);

/** A single keyword matches a word exactly or, when five letters or more, with one typo. */
function wordMatches(word: string, keyword: string): boolean {
  if (word === keyword) return true;
  if (keyword.length < 5 || word.length < 4 || EXACT_ONLY.has(keyword)) return false;
  return distance(word, keyword, 1) <= 1;
}

function matches(words: readonly string[], phrase: string, joined: string): boolean {
  if (phrase.includes(' ') || phrase.includes('-')) return ` ${joined} `.includes(` ${phrase} `);
  return words.some((word) => wordMatches(word, phrase));
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const iso = (y: number, m: number, d: number): string | undefined => {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  return date.toISOString().slice(0, 10);
};

/** The date a message names, relative to `today` (YYYY-MM-DD): a day without a year is the next one. */
export function parseDate(text: string, today: string): string | undefined {
  const lower = text.toLowerCase();
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  const next = (m: number, d: number, year?: number) => {
    if (year) return iso(year < 100 ? 2000 + year : year, m, d);
    const thisYear = iso(ty, m, d);
    return thisYear && thisYear >= today ? thisYear : iso(ty + 1, m, d);
  };
  const isoMatch = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(lower);
  if (isoMatch) return iso(Number(isoMatch[1]), Number(isoMatch[2]), Number(isoMatch[3]));
  const slash = /\b(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2,4}))?\b/.exec(lower);
  if (slash) return next(Number(slash[2]), Number(slash[1]), slash[3] ? Number(slash[3]) : undefined);
  const dayMonth = /\b(\d{1,2})(?:st|nd|rd|th)?(?: of)? ([a-z]{3,9})\.?(?:,? (\d{4}))?/.exec(lower);
  if (dayMonth) {
    const m = MONTHS.indexOf((dayMonth[2] as string).slice(0, 3)) + 1;
    if (m) return next(m, Number(dayMonth[1]), dayMonth[3] ? Number(dayMonth[3]) : undefined);
  }
  const monthDay = /\b([a-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?\b(?:,? (\d{4}))?/.exec(lower);
  if (monthDay) {
    const m = MONTHS.indexOf((monthDay[1] as string).slice(0, 3)) + 1;
    if (m) return next(m, Number(monthDay[2]), monthDay[3] ? Number(monthDay[3]) : undefined);
  }
  const base = Date.UTC(ty, tm - 1, td);
  const plusDays = (n: number) => new Date(base + n * 86_400_000).toISOString().slice(0, 10);
  if (/\btoday\b|\bleo\b/.test(lower)) return today;
  if (/\btomorrow\b|\bkesho\b/.test(lower)) return plusDays(1);
  const inDays = /\bin (\d{1,3}) (day|week)s?\b/.exec(lower);
  if (inDays) return plusDays(Number(inDays[1]) * (inDays[2] === 'week' ? 7 : 1));
  if (/\bnext week\b/.test(lower)) return plusDays(7);
  if (/\bend of (the )?month\b/.test(lower)) return new Date(Date.UTC(ty, tm, 0)).toISOString().slice(0, 10);
  return undefined;
}

/** Reads a message: its intent, a date for a payoff, and the contract numbers it names. */
export function parseCustomerText(text: string, today: string): CustomerQuery {
  const contractNumbers = [...text.toUpperCase().matchAll(/\bCT-?\s?(\d{2,9})\b/g)].map(
    (m) => `CT-${(m[1] as string).padStart(6, '0')}`,
  );
  const bare = text
    .trim()
    .toUpperCase()
    .replace(/[.!]+$/, '');
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(bare)) return { intent: 'opt_out', contractNumbers };
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(bare)) return { intent: 'opt_in', contractNumbers };
  const joined = text
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const words = joined.split(' ').filter(Boolean);
  for (const [intent, phrases] of KEYWORDS) {
    if (!phrases.some((phrase) => matches(words, phrase, joined))) continue;
    if (intent === 'payoff') {
      const date = parseDate(text, today);
      return { intent, contractNumbers, ...(date ? { date } : {}) };
    }
    return { intent, contractNumbers };
  }
  return { intent: 'unknown', contractNumbers };
}
