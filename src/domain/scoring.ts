/**
 * Transparent application scorecard. Every factor turns one fact about the applicant into points
 * through a published table; the total maps to a grade (A-E) by cut-offs, the grade to a decision
 * (approve / refer / decline), and knock-out rules can override it. Every factor's points and the
 * reason are returned so a screen can show exactly why.
 *
 * Affordability = the requested regular payment expressed per month (daily x 365/12,
 * weekly x 365/(7 x 12)) / monthly income. The maximum principal is the largest amount whose
 * regular payment (instalment + service fee) stays within `maxAffordabilityPercent` of income.
 */
import { FREQUENCIES, type Frequency } from './dates';
import { invalid } from './errors';
import { assertSafeMoney } from './money';
import {
  type DecimalInput,
  divFloorBig,
  divHalfEven,
  mulHalfEven,
  type Ratio,
  ratio,
  ratioFromDecimal,
  ratioToString,
} from './rational';
import {
  annuityInstallment,
  flatInstallment,
  flatTotalInterest,
  type InterestMethod,
  rateInfo,
  scheduleInputIssues,
} from './schedule';

export type Employment =
  | 'salaried'
  | 'business_owner'
  | 'self_employed'
  | 'farmer'
  | 'casual'
  | 'student'
  | 'retired'
  | 'unemployed'
  | 'other';

export interface KycChecklist {
  idVerified: boolean;
  selfie: boolean;
  proofOfAddress: boolean;
  phoneVerified: boolean;
}

/** How each KYC item reads in a factor's reason (staff see it on the scorecard). */
const KYC_ITEM_LABELS: Record<keyof KycChecklist, string> = {
  idVerified: 'ID verified',
  selfie: 'selfie',
  proofOfAddress: 'proof of address',
  phoneVerified: 'phone verified',
};

export interface RepaymentHistory {
  /** Earlier financing contracts with the lender. */
  contracts: number;
  /** Worst days past due ever reached. */
  maxDpd: number;
  /** Any of them defaulted or written off. */
  defaulted: boolean;
}

export interface ApplicantProfile {
  /** Monthly income in minor units. */
  monthlyIncome: number;
  /** Regular payment (instalment + service fee) of the requested contract, minor units. */
  requestedPayment?: number;
  paymentFrequency?: Frequency;
  age?: number;
  employment?: Employment;
  kyc?: KycChecklist;
  history?: RepaymentHistory | null;
  phoneTenureMonths?: number;
}

/** Points for values in [min, max) (min inclusive, max exclusive; absent = unbounded). */
export interface Band {
  min?: number;
  max?: number;
  points: number;
  label: string;
}

export type Grade = 'A' | 'B' | 'C' | 'D' | 'E';
export type Decision = 'approve' | 'refer' | 'decline';

export interface ScorecardConfig {
  /** Monthly income bands, minor units. */
  income: Band[];
  /** Payment-to-income bands, percent. */
  affordability: Band[];
  age: Band[];
  employment: Record<Employment, number>;
  kyc: Record<keyof KycChecklist, number>;
  history: { none: number; clean: number; minorArrears: number; seriousArrears: number; defaulted: number };
  phoneTenure: Band[];
  /** Minimum points per grade, best first; the last grade catches the rest. */
  grades: { grade: Grade; minPoints: number }[];
  decisions: Record<Grade, Decision>;
  /** Knock-outs: above this payment-to-income percent the decision is decline. */
  maxAffordabilityPercent: number;
  minimumAge: number;
}

/**
 * The four monthly income bands from three ascending thresholds in minor units (0, 10, 20 and 30
 * points), labelled with `format` (the amount in the organisation's currency).
 */
export function incomeBands(
  thresholds: readonly [number, number, number],
  format: (minor: number) => string,
): Band[] {
  const [low, mid, high] = thresholds;
  if (!(low > 0 && mid > low && high > mid)) {
    throw invalid('incomeBands', 'Income band thresholds must be positive and increasing');
  }
  return [
    { max: low, points: 0, label: `under ${format(low)} a month` },
    { min: low, max: mid, points: 10, label: `${format(low)} to under ${format(mid)} a month` },
    { min: mid, max: high, points: 20, label: `${format(mid)} to under ${format(high)} a month` },
    { min: high, points: 30, label: `${format(high)} a month or more` },
  ];
}

/** Income thresholds of the default scorecard, in US cents (other currencies set their own). */
export const DEFAULT_USD_INCOME_THRESHOLDS = [5_000, 15_000, 40_000] as const;

/** Default bands (income in US cents). */
export const DEFAULT_SCORECARD: ScorecardConfig = {
  income: incomeBands(DEFAULT_USD_INCOME_THRESHOLDS, (minor) => `$${(minor / 100).toFixed(2)}`),
  affordability: [
    { max: 10, points: 30, label: 'payment under 10 % of income' },
    { min: 10, max: 20, points: 20, label: 'payment 10-20 % of income' },
    { min: 20, max: 30, points: 10, label: 'payment 20-30 % of income' },
    { min: 30, max: 40, points: 0, label: 'payment 30-40 % of income' },
    { min: 40, points: -20, label: 'payment 40 % of income or more' },
  ],
  age: [
    { max: 18, points: 0, label: 'under 18' },
    { min: 18, max: 25, points: 5, label: '18-24' },
    { min: 25, max: 35, points: 10, label: '25-34' },
    { min: 35, max: 55, points: 15, label: '35-54' },
    { min: 55, max: 65, points: 10, label: '55-64' },
    { min: 65, points: 5, label: '65 or older' },
  ],
  employment: {
    salaried: 20,
    business_owner: 15,
    self_employed: 12,
    farmer: 10,
    casual: 5,
    retired: 8,
    student: 2,
    unemployed: 0,
    other: 5,
  },
  kyc: { idVerified: 10, selfie: 5, proofOfAddress: 5, phoneVerified: 5 },
  history: { none: 10, clean: 25, minorArrears: 10, seriousArrears: -10, defaulted: -30 },
  phoneTenure: [
    { max: 6, points: 0, label: 'under 6 months' },
    { min: 6, max: 24, points: 5, label: '6-23 months' },
    { min: 24, points: 10, label: '2 years or more' },
  ],
  grades: [
    { grade: 'A', minPoints: 110 },
    { grade: 'B', minPoints: 90 },
    { grade: 'C', minPoints: 70 },
    { grade: 'D', minPoints: 50 },
    { grade: 'E', minPoints: Number.NEGATIVE_INFINITY },
  ],
  decisions: { A: 'approve', B: 'approve', C: 'approve', D: 'refer', E: 'decline' },
  maxAffordabilityPercent: 40,
  minimumAge: 18,
};

export type ScoreFactorName =
  | 'income'
  | 'affordability'
  | 'age'
  | 'employment'
  | 'kyc'
  | 'history'
  | 'phoneTenure';

export interface FactorScore {
  factor: ScoreFactorName;
  /** The fact scored, as shown to staff. */
  value: string;
  points: number;
  /** Best points the factor can give. */
  maxPoints: number;
  reason: string;
}

export interface ScoreResult {
  points: number;
  maxPoints: number;
  grade: Grade;
  decision: Decision;
  /** Why the decision differs from the grade's, if it does (knock-out rules). */
  overrides: string[];
  factors: FactorScore[];
  /** Requested payment per month / income, percent with 2 decimals (null without a request). */
  affordabilityPercent: string | null;
}

/** Monthly-equivalent of a per-period payment, as an exact fraction of minor units. */
export function monthlyEquivalent(payment: number, frequency: Frequency): Ratio {
  const p = BigInt(payment);
  switch (frequency) {
    case 'daily':
      return ratio(p * 365n, 12n);
    case 'weekly':
      return ratio(p * 365n, 84n);
    case 'monthly':
      return ratio(p, 1n);
  }
}

function band(bands: readonly Band[], value: number): Band | undefined {
  return bands.find((b) => (b.min === undefined || value >= b.min) && (b.max === undefined || value < b.max));
}

const maxOf = (bands: readonly Band[]) => Math.max(...bands.map((b) => b.points));

export function scoreApplicant(
  profile: ApplicantProfile,
  config: ScorecardConfig = DEFAULT_SCORECARD,
): ScoreResult {
  assertSafeMoney(profile.monthlyIncome, 'monthlyIncome');
  if (profile.monthlyIncome < 0) throw invalid('monthlyIncome', 'monthlyIncome cannot be negative');
  const factors: FactorScore[] = [];
  const overrides: string[] = [];

  const income = band(config.income, profile.monthlyIncome);
  factors.push({
    factor: 'income',
    value: String(profile.monthlyIncome),
    points: income?.points ?? 0,
    maxPoints: maxOf(config.income),
    reason: income?.label ?? 'outside the income bands',
  });

  let affordabilityPercent: string | null = null;
  if (profile.requestedPayment !== undefined) {
    assertSafeMoney(profile.requestedPayment, 'requestedPayment');
    const frequency = profile.paymentFrequency ?? 'monthly';
    if (!FREQUENCIES.includes(frequency))
      throw invalid('paymentFrequency', 'paymentFrequency must be daily, weekly or monthly');
    const monthly = monthlyEquivalent(profile.requestedPayment, frequency);
    let pct: number;
    if (profile.monthlyIncome === 0) {
      pct = Number.POSITIVE_INFINITY;
      affordabilityPercent = null;
    } else {
      const r = ratio(monthly.num * 100n, monthly.den * BigInt(profile.monthlyIncome));
      affordabilityPercent = ratioToString(r, 2);
      pct = Number(r.num) / Number(r.den);
    }
    const b = band(config.affordability, pct);
    factors.push({
      factor: 'affordability',
      value: affordabilityPercent === null ? 'no income' : `${affordabilityPercent} %`,
      points: b?.points ?? 0,
      maxPoints: maxOf(config.affordability),
      reason: b?.label ?? 'outside the affordability bands',
    });
    if (pct > config.maxAffordabilityPercent) {
      overrides.push(`payment above ${config.maxAffordabilityPercent} % of income`);
    }
  } else {
    factors.push({
      factor: 'affordability',
      value: 'not requested',
      points: 0,
      maxPoints: maxOf(config.affordability),
      reason: 'no payment requested yet',
    });
  }

  if (profile.age !== undefined) {
    const b = band(config.age, profile.age);
    factors.push({
      factor: 'age',
      value: String(profile.age),
      points: b?.points ?? 0,
      maxPoints: maxOf(config.age),
      reason: b?.label ?? 'outside the age bands',
    });
    if (profile.age < config.minimumAge) overrides.push(`younger than ${config.minimumAge}`);
  } else {
    factors.push({
      factor: 'age',
      value: 'unknown',
      points: 0,
      maxPoints: maxOf(config.age),
      reason: 'date of birth missing',
    });
  }

  const employment = profile.employment ?? 'other';
  factors.push({
    factor: 'employment',
    value: profile.employment ?? 'unknown',
    points: config.employment[employment] ?? 0,
    maxPoints: Math.max(...Object.values(config.employment)),
    reason: profile.employment ? `occupation: ${employment.replace('_', ' ')}` : 'occupation not given',
  });

  const kyc = profile.kyc;
  const kycKeys = Object.keys(config.kyc) as (keyof KycChecklist)[];
  const kycPoints = kyc ? kycKeys.reduce((s, k) => s + (kyc[k] ? config.kyc[k] : 0), 0) : 0;
  const done = kyc ? kycKeys.filter((k) => kyc[k]).map((k) => KYC_ITEM_LABELS[k]) : [];
  factors.push({
    factor: 'kyc',
    value: `${done.length}/${kycKeys.length}`,
    points: kycPoints,
    maxPoints: kycKeys.reduce((s, k) => s + config.kyc[k], 0),
    reason: done.length ? `complete: ${done.join(', ')}` : 'no KYC item complete',
  });

  const h = profile.history;
  let historyPoints: number;
  let historyReason: string;
  if (!h || h.contracts === 0) {
    historyPoints = config.history.none;
    historyReason = 'no earlier contract';
  } else if (h.defaulted) {
    historyPoints = config.history.defaulted;
    historyReason = 'an earlier contract defaulted';
    overrides.push('earlier default');
  } else if (h.maxDpd <= 7) {
    historyPoints = config.history.clean;
    historyReason = `repaid on time (worst ${h.maxDpd} days late)`;
  } else if (h.maxDpd <= 30) {
    historyPoints = config.history.minorArrears;
    historyReason = `minor arrears (worst ${h.maxDpd} days late)`;
  } else {
    historyPoints = config.history.seriousArrears;
    historyReason = `serious arrears (worst ${h.maxDpd} days late)`;
  }
  factors.push({
    factor: 'history',
    value: h ? `${h.contracts} contract(s), worst ${h.maxDpd} DPD` : 'none',
    points: historyPoints,
    maxPoints: Math.max(...Object.values(config.history)),
    reason: historyReason,
  });

  if (profile.phoneTenureMonths !== undefined) {
    const b = band(config.phoneTenure, profile.phoneTenureMonths);
    factors.push({
      factor: 'phoneTenure',
      value: `${profile.phoneTenureMonths} months`,
      points: b?.points ?? 0,
      maxPoints: maxOf(config.phoneTenure),
      reason: b?.label ?? 'outside the tenure bands',
    });
  } else {
    factors.push({
      factor: 'phoneTenure',
      value: 'unknown',
      points: 0,
      maxPoints: maxOf(config.phoneTenure),
      reason: 'not known',
    });
  }

  const points = factors.reduce((s, f) => s + f.points, 0);
  const maxPoints = factors.reduce((s, f) => s + f.maxPoints, 0);
  const grade = (config.grades.find((g) => points >= g.minPoints)?.grade ?? 'E') as Grade;
  let decision = config.decisions[grade];
  if (overrides.length) decision = 'decline';
  return { points, maxPoints, grade, decision, overrides, factors, affordabilityPercent };
}

export interface AffordabilityInput {
  monthlyIncome: number;
  /** Percent of income the regular payment may take. */
  maxAffordabilityPercent: DecimalInput;
  apr: DecimalInput;
  frequency: Frequency;
  term: number;
  method: InterestMethod;
  serviceFeePerPeriod?: number;
  installmentMultiple?: number;
}

export interface AffordabilityResult {
  /** Largest regular payment (instalment + service fee) per period. */
  maxPayment: number;
  /** Largest principal whose regular payment fits (0 when none does). */
  maxPrincipal: number;
  /** The regular payment of that principal. */
  payment: number;
}

/** The regular instalment (principal + interest) of a principal under the plan terms. */
function installmentOf(principal: number, input: AffordabilityInput): number {
  const { aprFrac, rate } = rateInfo(input.apr, input.frequency);
  const multiple = input.installmentMultiple ?? 0;
  if (input.method === 'declining') return annuityInstallment(principal, rate, input.term, multiple);
  const total = flatTotalInterest(principal, aprFrac, input.frequency, input.term);
  return flatInstallment(principal, total, input.term, multiple);
}

/** The first period's interest (what a rounded-down instalment must cover for buildSchedule). */
function firstInterestOf(principal: number, input: AffordabilityInput): number {
  const { aprFrac, prepared } = rateInfo(input.apr, input.frequency);
  if (input.method === 'declining') return mulHalfEven(principal, prepared);
  const total = flatTotalInterest(principal, aprFrac, input.frequency, input.term);
  return Math.min(divHalfEven(total, input.term), total);
}

/** Largest p in [lo, hi] with pred(p) true, for a predicate true then false along the range; lo - 1 if none. */
function lastTrue(lo: number, hi: number, pred: (p: number) => boolean): number {
  let a = lo - 1;
  let b = hi + 1;
  while (b - a > 1) {
    const mid = Math.floor((a + b) / 2);
    if (pred(mid)) a = mid;
    else b = mid;
  }
  return a;
}

/**
 * Maximum principal by affordability: the largest principal whose regular payment fits the
 * budget and for which a schedule exists. Binary search: the rounded instalment never decreases
 * as the principal grows. With an instalment multiple a small principal can round down below its
 * first period's interest (buildSchedule refuses it); then the search moves down the multiple's
 * steps to the largest principal whose instalment still covers that interest.
 */
export function maxPrincipalByAffordability(input: AffordabilityInput): AffordabilityResult {
  assertSafeMoney(input.monthlyIncome, 'monthlyIncome');
  const issues = scheduleInputIssues({
    principal: 1,
    apr: input.apr,
    frequency: input.frequency,
    term: input.term,
    method: input.method,
    startDate: '2000-01-01',
    installmentMultiple: input.installmentMultiple ?? 0,
    serviceFeePerPeriod: input.serviceFeePerPeriod ?? 0,
  });
  const first = issues[0];
  if (first) throw invalid(first.field, first.message);
  const pct = ratioFromDecimal(input.maxAffordabilityPercent, 'maxAffordabilityPercent');
  if (pct.num < 0n || pct.num > 100n * pct.den) {
    throw invalid('maxAffordabilityPercent', 'maxAffordabilityPercent must be between 0 and 100');
  }
  // Per-period share of monthly income: daily 12/365, weekly 84/365, monthly 1.
  const [pNum, pDen] =
    input.frequency === 'daily' ? [12n, 365n] : input.frequency === 'weekly' ? [84n, 365n] : [1n, 1n];
  const maxPayment = Number(divFloorBig(BigInt(input.monthlyIncome) * pct.num * pNum, pct.den * 100n * pDen));
  const fee = input.serviceFeePerPeriod ?? 0;
  const budget = maxPayment - fee;
  const none = { maxPayment, maxPrincipal: 0, payment: 0 };
  if (budget <= 0) return none;
  // The instalment is at least P / n - multiple - 1, so this principal certainly does not fit.
  const multiple = input.installmentMultiple ?? 0;
  const tooBig = Math.min(Number.MAX_SAFE_INTEGER - 1, (budget + multiple + 2) * input.term);
  let best = lastTrue(0, tooBig, (p) => installmentOf(p, input) <= budget);
  const buildable = (p: number) => {
    const a = installmentOf(p, input);
    return a > 0 && (input.term === 1 || a >= firstInterestOf(p, input));
  };
  for (let steps = 0; best > 0 && !buildable(best); steps++) {
    const a = installmentOf(best, input);
    if (a <= 0 || steps > 64) return none;
    // The principals sharing this instalment start here; within them the interest grows with P.
    const stepStart = lastTrue(0, best, (p) => installmentOf(p, input) < a) + 1;
    if (firstInterestOf(stepStart, input) <= a) {
      best = lastTrue(stepStart, best, (p) => firstInterestOf(p, input) <= a);
      break;
    }
    best = stepStart - 1;
  }
  if (best <= 0 || !buildable(best)) return none;
  return { maxPayment, maxPrincipal: best, payment: installmentOf(best, input) + fee };
}
