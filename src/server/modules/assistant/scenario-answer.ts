import {
  DomainError,
  type Frequency,
  isSettled,
  runScenario,
  type ScenarioChange,
  type ScenarioResult,
} from '../../../domain';
import type { AppContext } from '../../context';
import { type PortfolioContract, portfolioBatches } from '../contracts/portfolio';
import type { Intent, ParsedQuery } from './intent';

type Unit = 'installments' | 'days' | 'weeks' | 'months';
type ScenarioIntent = Extract<
  Intent,
  { kind: 'installment' | 'apr' | 'service_discount' | 'term' | 'payment_holiday' }
>;

const DAYS_PER: Record<Frequency, number> = { daily: 1, weekly: 7, monthly: 30 };
const UNIT_DAYS: Record<Exclude<Unit, 'installments'>, number> = { days: 1, weeks: 7, months: 30 };

/** A length in the question's unit as a number of the contract's own periods (at least 1). */
function periodsOf(count: number, unit: Unit, frequency: Frequency): number {
  if (unit === 'installments') return count;
  const sign = Math.sign(count);
  return sign * Math.max(1, Math.round((Math.abs(count) * UNIT_DAYS[unit]) / DAYS_PER[frequency]));
}

type Money = (minor: number) => string;
/**
 * Why a contract is left out, in words that read after "N contracts": one line per kind of
 * reason, never per contract, so a portfolio of thousands still answers in a few lines.
 */
const REASONS = {
  frequency: (frequency: Frequency) => `not on a ${frequency} plan`,
  alreadyAbove: (amount: string) => `already paying ${amount} or more`,
  alreadyBelow: (amount: string) => `already paying ${amount} or less`,
  noFeeInWindow: (days: number) => `no service fee due in the next ${days} days`,
  noInstalmentsLeft: 'the change would leave no instalments',
};
/** The finance engine's refusals by code (their own messages carry raw minor-unit figures). */
const REFUSALS: Record<string, (intent: ScenarioIntent, money: Money) => string> = {
  INSTALLMENT_TOO_SMALL: (intent, money) =>
    intent.kind === 'installment'
      ? `${money(intent.amount)} cannot repay them: it must cover each period's interest and finish within 3,660 instalments`
      : 'the new terms cannot repay them',
  NOTHING_TO_RESTRUCTURE: () => 'no instalments left to change',
};

/** The engine change for one contract, or why it does not apply. */
function changeFor(
  intent: ScenarioIntent,
  contract: PortfolioContract,
  asOf: string,
): ScenarioChange | string {
  switch (intent.kind) {
    case 'installment':
      if (intent.frequency && intent.frequency !== contract.frequency)
        return REASONS.frequency(intent.frequency);
      return { kind: 'installment', amount: intent.amount, includesServiceFee: true };
    case 'apr':
      return { kind: 'apr', apr: intent.apr };
    case 'service_discount':
      return { kind: 'service_discount', percent: intent.percent, days: intent.days };
    case 'payment_holiday':
      return {
        kind: 'payment_holiday',
        periods: Math.abs(periodsOf(intent.count, intent.unit, contract.frequency)),
      };
    case 'term': {
      const remaining = contract.installments.filter((p) => p.dueDate > asOf && !isSettled(p)).length;
      const periods = periodsOf(intent.count, intent.unit, contract.frequency);
      const target = intent.mode === 'by' ? remaining + periods : Math.abs(periods);
      if (target < 1) return REASONS.noInstalmentsLeft;
      return { kind: 'term', remainingInstallments: target };
    }
  }
}

/** A result the question did not ask for: an "increase" that would lower a payment, a discount that changes nothing. */
function unwanted(intent: ScenarioIntent, result: ScenarioResult, money: Money): string | null {
  if (intent.kind === 'installment' && intent.direction === 'increase' && result.installmentChange <= 0)
    return REASONS.alreadyAbove(money(intent.amount));
  if (intent.kind === 'installment' && intent.direction === 'decrease' && result.installmentChange >= 0)
    return REASONS.alreadyBelow(money(intent.amount));
  if (intent.kind === 'service_discount' && result.serviceFeeSavings === 0)
    return REASONS.noFeeInWindow(intent.days);
  return null;
}

export interface ScenarioTally {
  /** Contracts in scope (the live portfolio, or the one named). */
  contracts: number;
  applied: number;
  /** Contracts left out, counted by reason. */
  excluded: Map<string, number>;
  interestBefore: number;
  interestAfter: number;
  feesBefore: number;
  feesAfter: number;
  totalBefore: number;
  totalAfter: number;
  termReductionDays: number;
  shortestChange: number;
  longestChange: number;
}

/** Runs the change on every contract in scope with the finance engine and adds up the results. */
export async function tallyScenario(
  ctx: AppContext,
  parsed: ParsedQuery & { intent: ScenarioIntent },
  asOf: string,
  money: Money,
): Promise<ScenarioTally> {
  const { intent } = parsed;
  const tally: ScenarioTally = {
    contracts: 0,
    applied: 0,
    excluded: new Map(),
    interestBefore: 0,
    interestAfter: 0,
    feesBefore: 0,
    feesAfter: 0,
    totalBefore: 0,
    totalAfter: 0,
    termReductionDays: 0,
    shortestChange: Number.POSITIVE_INFINITY,
    longestChange: Number.NEGATIVE_INFINITY,
  };
  const exclude = (reason: string) => tally.excluded.set(reason, (tally.excluded.get(reason) ?? 0) + 1);
  const scope = parsed.contractNumber ? { number: parsed.contractNumber } : {};
  for await (const batch of portfolioBatches(ctx, scope)) {
    for (const contract of batch) {
      tally.contracts += 1;
      const change = changeFor(intent, contract, asOf);
      if (typeof change === 'string') {
        exclude(change);
        continue;
      }
      let result: ScenarioResult;
      try {
        result = runScenario(contract, change, asOf);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        exclude(REFUSALS[error.code]?.(intent, money) ?? `refused by the finance engine: ${error.code}`);
        continue;
      }
      const reason = unwanted(intent, result, money);
      if (reason) {
        exclude(reason);
        continue;
      }
      tally.applied += 1;
      tally.interestBefore += result.baseline.interest;
      tally.interestAfter += result.scenario.interest;
      tally.feesBefore += result.baseline.serviceFees;
      tally.feesAfter += result.scenario.serviceFees;
      tally.totalBefore += result.baseline.total;
      tally.totalAfter += result.scenario.total;
      tally.termReductionDays += result.termReductionDays;
      tally.shortestChange = Math.min(tally.shortestChange, result.termReductionDays);
      tally.longestChange = Math.max(tally.longestChange, result.termReductionDays);
    }
  }
  return tally;
}

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function describeChange(intent: ScenarioIntent, money: Money): string {
  switch (intent.kind) {
    case 'installment':
      return `Setting the ${intent.frequency ? `${intent.frequency} ` : ''}payment to ${money(intent.amount)}`;
    case 'apr':
      return `Moving the APR to ${intent.apr}%`;
    case 'service_discount':
      return `A ${intent.percent}% service discount for ${intent.days} days`;
    case 'payment_holiday':
      return `A payment holiday of ${intent.count} ${intent.unit}`;
    case 'term':
      return intent.mode === 'by'
        ? `${intent.count < 0 ? 'Shortening' : 'Extending'} the term by ${Math.abs(intent.count)} ${intent.unit}`
        : `Changing the term to ${intent.count} ${intent.unit}`;
  }
}

function days(n: number): string {
  return n > 0 ? `${plural(n, 'day')} sooner` : n < 0 ? `${plural(-n, 'day')} later` : 'on the same day';
}

/** What changes for the customers, in words: "customers save KES 1,200.00 in interest". */
function moneyEffect(before: number, after: number, what: string, money: Money): string | null {
  if (after < before) return `customers save ${money(before - after)} in ${what}`;
  if (after > before) return `customers pay ${money(after - before)} more in ${what}`;
  return null;
}

export interface ScenarioAnswer {
  summary: string;
  details: string[];
  termReduction: number;
  interestSavings: number;
}

/** A short summary of the tally, and the figures behind it as detail lines. */
export function describeScenario(
  parsed: ParsedQuery & { intent: ScenarioIntent },
  tally: ScenarioTally,
  asOf: string,
  money: Money,
): ScenarioAnswer {
  const what = describeChange(parsed.intent, money);
  const scope = parsed.contractNumber ? `contract ${parsed.contractNumber}` : 'the active portfolio';
  const reasons = [...tally.excluded];
  const excludedCount = reasons.reduce((sum, [, n]) => sum + n, 0);
  const leftOut = excludedCount
    ? ` ${plural(excludedCount, 'contract')} ${excludedCount === 1 ? 'is' : 'are'} left out (${reasons.length === 1 ? reasons[0]?.[0] : 'see the details'}).`
    : '';
  const exclusionDetails = reasons.map(([reason, n]) => `Left out: ${plural(n, 'contract')} (${reason}).`);
  if (!tally.applied) {
    return {
      summary: `${what} changes none of the ${plural(tally.contracts, 'contract')} in ${scope} (${reasons.length === 1 ? reasons[0]?.[0] : 'the details say why'}).`,
      details: exclusionDetails,
      termReduction: 0,
      interestSavings: 0,
    };
  }
  const averageDays = Math.round(tally.termReductionDays / tally.applied);
  const many = tally.applied > 1;
  const datesMove = tally.shortestChange !== 0 || tally.longestChange !== 0;
  const effects = [
    datesMove ? `${many ? 'they end' : 'it ends'} ${days(averageDays)}${many ? ' on average' : ''}` : null,
    moneyEffect(tally.interestBefore, tally.interestAfter, 'interest', money),
    moneyEffect(tally.feesBefore, tally.feesAfter, 'service fees', money),
  ].filter((effect): effect is string => effect !== null);
  const sentence = effects.length
    ? `${effects.slice(0, -1).join(', ')}${effects.length > 1 ? ' and ' : ''}${effects.at(-1)}`
    : 'nothing changes for the customers';
  const applied = parsed.contractNumber ? scope : `${plural(tally.applied, 'contract')} of ${scope}`;
  const range =
    many && tally.shortestChange !== tally.longestChange
      ? ` (from ${days(tally.shortestChange)} to ${days(tally.longestChange)})`
      : '';
  return {
    summary: `${what} on ${applied}: ${sentence}.${leftOut}`,
    details: [
      `Changed: ${plural(tally.applied, 'contract')} of ${plural(tally.contracts, 'contract')} in ${scope}.`,
      ...exclusionDetails,
      datesMove
        ? `Last due dates: ${days(averageDays)}${many ? ' on average' : ''}${range}.`
        : 'Last due dates: unchanged.',
      `Interest still to pay: ${money(tally.interestBefore)} now, ${money(tally.interestAfter)} after the change.`,
      ...(tally.feesBefore !== tally.feesAfter
        ? [
            `Service fees still to pay: ${money(tally.feesBefore)} now, ${money(tally.feesAfter)} after the change.`,
          ]
        : []),
      `Total still to pay: ${money(tally.totalBefore)} now, ${money(tally.totalAfter)} after the change.`,
      `Figures from the finance engine on the instalments due after ${asOf}; arrears and instalments already due stay as they are.`,
    ],
    termReduction: averageDays,
    interestSavings: tally.interestBefore - tally.interestAfter,
  };
}

/** The typical current payment of live contracts at a frequency (their median), for examples. */
export async function typicalPayment(
  ctx: AppContext,
  frequency: Frequency | undefined,
  asOf: string,
): Promise<number | null> {
  const payments: number[] = [];
  for await (const batch of portfolioBatches(ctx)) {
    for (const contract of batch) {
      if (frequency && contract.frequency !== frequency) continue;
      const next = contract.installments.find((p) => p.dueDate > asOf && !isSettled(p));
      if (next) payments.push(contract.installment + next.due.fee);
    }
  }
  payments.sort((a, b) => a - b);
  return payments.length ? (payments[Math.floor(payments.length / 2)] as number) : null;
}
