import { EMPLOYMENTS, type Risk } from '../../../contracts/customers';
import {
  DEFAULT_SCORECARD,
  DEFAULT_USD_INCOME_THRESHOLDS,
  type Employment,
  formatMoney,
  incomeBands,
  type ScorecardConfig,
  scoreApplicant,
} from '../../../domain';

export interface KycEvidence {
  idVerified: boolean;
  selfie: boolean;
  proofOfAddress: boolean;
}

/** What the customers table keeps of a scorecard run (risk_details holds the whole result). */
export interface StoredRisk {
  riskScore: number;
  riskGrade: string;
  riskDecision: string;
  riskDetails: Risk;
  /** Which scorecard gave the score (scorecardOf): a score from another one is redone. */
  riskScorecard: string;
}

/** Whole years from a date of birth to a business date (both YYYY-MM-DD). */
export function ageOn(dateOfBirth: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  return today.slice(5) < dateOfBirth.slice(5) ? years - 1 : years;
}

const isEmployment = (value: string | null): value is Employment =>
  value !== null && (EMPLOYMENTS as readonly string[]).includes(value);

/** What of the organisation the scorecard depends on. */
export interface ScorecardSettings {
  currency: string;
  incomeBands: readonly [number, number, number] | null;
}

/** The scorecard in force, and the key stored with each score it gives. */
export interface Scorecard {
  config: ScorecardConfig;
  /** Revision, currency and income thresholds: a stored score with another key is redone. */
  key: string;
}

/** Raise when DEFAULT_SCORECARD or the reasons it gives change, so every stored score is redone (2: KYC items named for people). */
const SCORECARD_REVISION = 2;

/**
 * The scorecard with income bands in the organisation's currency: its own thresholds, or the
 * US-dollar defaults for USD. In another currency without thresholds income is not scored (one
 * band of 0 points that says why), rather than judged against dollar amounts. Build it once per
 * organisation read, not per customer: the band labels are formatted money.
 */
export function scorecardOf(org: ScorecardSettings): Scorecard {
  const thresholds = org.incomeBands ?? (org.currency === 'USD' ? DEFAULT_USD_INCOME_THRESHOLDS : null);
  return {
    config: {
      ...DEFAULT_SCORECARD,
      income: thresholds
        ? incomeBands(thresholds, (minor) => formatMoney(minor, org.currency))
        : [
            {
              points: 0,
              label: `not scored: income bands for ${org.currency} are not set (Settings, Organisation)`,
            },
          ],
    },
    key: `r${SCORECARD_REVISION}|${org.currency}|${thresholds ? thresholds.join(',') : 'income not scored'}`,
  };
}

/**
 * The application scorecard (src/domain/scoring.ts) over what we know of the customer today.
 * Nothing is invented: a missing income scores 0 and says so; no payment has been requested
 * before a contract exists; the phone is not verified by us; repayment history starts with the
 * first contract, so until then the factor says there is none.
 */
export function assessRisk(
  customer: { monthlyIncome: number | null; dateOfBirth: string | null; employment: string | null },
  kyc: KycEvidence,
  scorecard: Scorecard,
  today: string,
  now: Date,
): StoredRisk {
  const result = scoreApplicant(
    {
      monthlyIncome: customer.monthlyIncome ?? 0,
      ...(customer.dateOfBirth ? { age: ageOn(customer.dateOfBirth, today) } : {}),
      ...(isEmployment(customer.employment) ? { employment: customer.employment } : {}),
      kyc: { ...kyc, phoneVerified: false },
      history: null,
    },
    scorecard.config,
  );
  const factors = result.factors.map((factor) => {
    if (factor.factor === 'income' && customer.monthlyIncome === null) {
      return { ...factor, value: 'not given', points: 0, reason: 'monthly income not given' };
    }
    if (factor.factor === 'history') {
      return { ...factor, value: 'none', reason: 'no repayment history yet: the customer has no contracts' };
    }
    return factor;
  });
  return {
    riskScore: result.points,
    riskGrade: result.grade,
    riskDecision: result.decision,
    riskDetails: {
      score: result.points,
      maxScore: result.maxPoints,
      grade: result.grade,
      decision: result.decision,
      overrides: result.overrides,
      factors,
      scoredAt: now.toISOString(),
    },
    riskScorecard: scorecard.key,
  };
}
