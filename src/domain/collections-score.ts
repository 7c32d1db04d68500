/**
 * The collections queue's priority score (PRODUCT.md §2 "Collections"): who to call first. Five
 * parts, each whole points with a cap, so a row can show why it ranks where it does and the same
 * arithmetic runs in SQL for the list (`server/modules/collections/score-sql.ts`; a test holds
 * the two equal). Integers only: no rounding can differ between JavaScript and PostgreSQL.
 */

export interface ScoreInput {
  /** Days past due on the date scored. */
  dpd: number;
  /** Minor units due before the date and unpaid. */
  amountOverdue: number;
  /** What the customer pays per period (minor units): the amount overdue counts in payments missed. */
  regularPayment: number;
  /** The customer's scorecard grade (A best .. E worst), null when never scored. */
  riskGrade: string | null;
  /** Promises on the contract that were broken or only partly kept. */
  brokenPromises: number;
  /** Whole days since the last contact with the customer; null when never contacted. */
  daysSinceContact: number | null;
}

export interface ScoreParts {
  dpd: number;
  amount: number;
  risk: number;
  promises: number;
  contact: number;
}

export interface Score {
  total: number;
  parts: ScoreParts;
}

/** The weights and caps, named once for the SQL twin and the page's explanation. */
export const SCORE_RULES = {
  /** 3 points per day past due, up to 120 days. */
  dpdPerDay: 3,
  dpdCapDays: 120,
  /** 50 points per regular payment overdue, at most 250 (five payments). */
  amountPerPayment: 50,
  amountCap: 250,
  /** Grade A to E; an unscored customer counts as C. */
  riskPoints: { A: 0, B: 25, C: 50, D: 75, E: 100 } as Record<string, number>,
  riskUnscored: 50,
  /** 60 points per broken promise, at most three. */
  perBrokenPromise: 60,
  brokenCap: 3,
  /** 7 points per day without contact, at most 14 days; never contacted counts 100. */
  contactPerDay: 7,
  contactCapDays: 14,
  neverContacted: 100,
} as const;

const clamp = (value: number, max: number) => Math.max(0, Math.min(value, max));

export function priorityScore(input: ScoreInput): Score {
  const r = SCORE_RULES;
  const dpd = clamp(Math.trunc(input.dpd), r.dpdCapDays) * r.dpdPerDay;
  const payment = Math.max(1, Math.trunc(input.regularPayment));
  const amount = clamp(
    Math.floor((Math.max(0, input.amountOverdue) * r.amountPerPayment) / payment),
    r.amountCap,
  );
  const risk = input.riskGrade === null ? r.riskUnscored : (r.riskPoints[input.riskGrade] ?? r.riskUnscored);
  const promises = clamp(input.brokenPromises, r.brokenCap) * r.perBrokenPromise;
  const contact =
    input.daysSinceContact === null
      ? r.neverContacted
      : clamp(input.daysSinceContact, r.contactCapDays) * r.contactPerDay;
  const parts = { dpd, amount, risk, promises, contact };
  return { total: dpd + amount + risk + promises + contact, parts };
}

/** Words for each part, as the queue row explains its rank. */
export function explainScore(input: ScoreInput, score: Score = priorityScore(input)): string[] {
  const { parts } = score;
  return [
    `${parts.dpd} for ${input.dpd} days past due`,
    `${parts.amount} for the amount overdue`,
    `${parts.risk} for risk grade ${input.riskGrade ?? 'not scored'}`,
    `${parts.promises} for ${input.brokenPromises} broken promise${input.brokenPromises === 1 ? '' : 's'}`,
    input.daysSinceContact === null
      ? `${parts.contact} as never contacted`
      : `${parts.contact} for ${input.daysSinceContact} days since the last contact`,
  ];
}
