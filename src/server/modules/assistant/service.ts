import type { Analysis } from '../../../contracts/assistant';
import {
  addDays,
  DomainError,
  daysBetween,
  type Frequency,
  formatMoney,
  isSettled,
  payoffQuote,
  portfolioKpis,
  runScenario,
  type ScenarioChange,
} from '../../../domain';
import type { AppContext } from '../../context';
import { businessDate } from '../../dates';
import { organisation } from '../../organisation';
import {
  collectionsForPeriod,
  kpiContracts,
  type PortfolioContract,
  portfolioBatches,
  topRisks,
} from '../contracts/portfolio';
import { type Intent, type ParsedQuery, parseQuery, SUPPORTED_QUESTIONS } from './intent';
import { mapWithModel } from './model';

type Unit = 'installments' | 'days' | 'weeks' | 'months';

const DAYS_PER: Record<Frequency, number> = { daily: 1, weekly: 7, monthly: 30 };
const UNIT_DAYS: Record<Exclude<Unit, 'installments'>, number> = { days: 1, weeks: 7, months: 30 };

/** A length in the question's unit as a number of the contract's own periods (at least 1). */
function periodsOf(count: number, unit: Unit, frequency: Frequency): number {
  if (unit === 'installments') return count;
  const sign = Math.sign(count);
  return sign * Math.max(1, Math.round((Math.abs(count) * UNIT_DAYS[unit]) / DAYS_PER[frequency]));
}

/** The engine change for one contract, or a reason it does not apply. */
function changeFor(intent: Intent, contract: PortfolioContract, asOf: string): ScenarioChange | string {
  switch (intent.kind) {
    case 'installment':
      if (intent.frequency && intent.frequency !== contract.frequency)
        return `not a ${intent.frequency} contract`;
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
      if (target < 1) return 'the change would leave no instalments';
      return { kind: 'term', remainingInstallments: target };
    }
    default:
      return 'not a scenario';
  }
}

interface Aggregate {
  contracts: number;
  applied: number;
  skipped: Map<string, number>;
  interestSavings: number;
  serviceFeeSavings: number;
  termReductionDays: number;
  totalCostChange: number;
}

async function runOverPortfolio(ctx: AppContext, parsed: ParsedQuery, asOf: string): Promise<Aggregate> {
  const total: Aggregate = {
    contracts: 0,
    applied: 0,
    skipped: new Map(),
    interestSavings: 0,
    serviceFeeSavings: 0,
    termReductionDays: 0,
    totalCostChange: 0,
  };
  const skip = (reason: string) => total.skipped.set(reason, (total.skipped.get(reason) ?? 0) + 1);
  for await (const batch of portfolioBatches(
    ctx,
    parsed.contractNumber ? { number: parsed.contractNumber } : {},
  )) {
    for (const contract of batch) {
      total.contracts += 1;
      const change = changeFor(parsed.intent, contract, asOf);
      if (typeof change === 'string') {
        skip(change);
        continue;
      }
      try {
        const result = runScenario(contract, change, asOf);
        total.applied += 1;
        total.interestSavings += result.interestSavings;
        total.serviceFeeSavings += result.serviceFeeSavings;
        total.termReductionDays += result.termReductionDays;
        total.totalCostChange += result.totalCostChange;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        skip(error.message);
      }
    }
  }
  return total;
}

const percent = (ratio: number | null) =>
  ratio === null ? 'not measurable yet' : `${(ratio * 100).toFixed(1)}%`;
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function describeChange(intent: Intent, money: (minor: number) => string): string {
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
    default:
      return 'The change';
  }
}

/**
 * Answers a staff question. The parser (or, when configured, a language model) only says what
 * was asked; every figure comes from the finance engine over the database.
 */
export async function analyze(ctx: AppContext, query: string): Promise<Analysis> {
  const org = await organisation(ctx, ctx.db);
  const money = (minor: number) => formatMoney(minor, org.currency);
  const asOf = businessDate(ctx.clock.now(), org.timeZone);
  let parsed = parseQuery(query, org.currency);
  if (parsed.confidence < 0.5) parsed = (await mapWithModel(ctx, query, org.currency)) ?? parsed;
  const answer = (summary: string, termReduction = 0, interestSavings = 0): Analysis => ({
    summary,
    impacts: { termReduction, interestSavings },
    confidence: parsed.confidence,
    currency: org.currency,
    assumptions: parsed.assumptions,
    suggestions: parsed.confidence < 0.5 ? SUPPORTED_QUESTIONS : [],
  });
  const { intent } = parsed;

  switch (intent.kind) {
    case 'unknown':
      return answer(
        `I could not match that to a question I can answer from your data. I can model payment, APR, service-discount, term and payment-holiday changes over the active portfolio or one contract, quote a payoff, and report PAR, collection rate, overdue contracts and top risks.`,
      );

    case 'par': {
      const kpis = portfolioKpis(await kpiContracts(ctx), asOf, [intent.days]);
      const par = kpis.par[intent.days];
      if (!kpis.liveContracts || !par)
        return answer('There are no active contracts yet, so there is no portfolio at risk to measure.');
      return answer(
        `PAR${intent.days} is ${percent(par.ratio)}: ${money(par.numerator)} of ${money(par.denominator)} outstanding principal is in contracts more than ${intent.days} days past due (${plural(kpis.liveContracts, 'live contract')}).`,
      );
    }

    case 'collection_rate': {
      const from = addDays(asOf, -30);
      const { due, collected } = await collectionsForPeriod(ctx, from, asOf);
      if (!due)
        return answer(
          `No instalments fell due between ${from} and ${asOf}, so there is no collection rate to report yet.`,
        );
      return answer(
        `The collection rate for instalments due from ${from} to ${asOf} is ${percent(collected / due)}: ${money(collected)} collected of ${money(due)} due (deposits excluded).`,
      );
    }

    case 'overdue_count': {
      const contracts = await kpiContracts(ctx);
      const live = contracts.filter((c) => c.status === 'active' || c.status === 'defaulted');
      const overdue = live.filter((c) => c.dpd > 0);
      if (!live.length) return answer('There are no active contracts yet, so none are overdue.');
      const principal = overdue.reduce((sum, c) => sum + c.outstandingPrincipal, 0);
      return answer(
        `${plural(overdue.length, 'contract')} of ${live.length.toLocaleString('en-US')} live ${overdue.length === 1 ? 'is' : 'are'} overdue, holding ${money(principal)} of outstanding principal.`,
      );
    }

    case 'top_risks': {
      const risks = await topRisks(ctx, 5);
      if (!risks.length)
        return answer('No live contract is past due, so there are no arrears risks to list.');
      const lines = risks.map(
        (r) =>
          `${r.number} (${r.customerName}): ${r.dpd} days past due, ${money(r.outstandingTotal)} outstanding`,
      );
      return answer(`The contracts most at risk, by days past due: ${lines.join('; ')}.`);
    }

    case 'payoff': {
      if (!parsed.contractNumber) {
        return answer('Tell me which contract to quote, for example "Payoff for CT-000123".');
      }
      const date = intent.date ?? asOf;
      for await (const [contract] of portfolioBatches(ctx, { number: parsed.contractNumber })) {
        if (!contract) break;
        const quote = payoffQuote(contract.installments, date, {
          startDate: contract.startDate,
          method: contract.method,
          credit: contract.credit,
        });
        const scheduledInterest = contract.installments.reduce(
          (sum, p) => sum + p.due.interest - p.paid.interest,
          0,
        );
        const lastDue = contract.installments.at(-1)?.dueDate ?? date;
        const parts = [
          `principal ${money(quote.principal)}`,
          `interest ${money(quote.interestDue + quote.interestNotYetDue)}`,
          ...(quote.fees ? [`fees ${money(quote.fees)}`] : []),
          ...(quote.penalties ? [`penalties ${money(quote.penalties)}`] : []),
          ...(quote.discount ? [`less a discount of ${money(quote.discount)}`] : []),
          ...(quote.credit ? [`less credit of ${money(quote.credit)}`] : []),
        ];
        return answer(
          `Paying off ${contract.number} (${contract.customerName}) on ${date} takes ${money(quote.total)}: ${parts.join(', ')}.`,
          Math.max(0, daysBetween(date, lastDue)),
          Math.max(0, scheduledInterest - quote.interestDue - quote.interestNotYetDue + quote.discount),
        );
      }
      return answer(`There is no contract ${parsed.contractNumber}.`);
    }

    default: {
      const result = await runOverPortfolio(ctx, parsed, asOf);
      const what = describeChange(intent, money);
      const scope = parsed.contractNumber ? `contract ${parsed.contractNumber}` : 'the active portfolio';
      if (!result.contracts) {
        return answer(
          parsed.contractNumber
            ? `There is no contract ${parsed.contractNumber}.`
            : 'There are no active contracts yet, so there is nothing to model. Once contracts are active I can show how this change would move terms, interest and costs.',
        );
      }
      const skipped = [...result.skipped]
        .map(([reason, n]) => `${plural(n, 'contract')}: ${reason}`)
        .join('; ');
      if (!result.applied) return answer(`${what} cannot be applied to ${scope} (${skipped}).`);
      const averageDays = Math.round(result.termReductionDays / result.applied);
      const subject = result.applied > 1 ? 'they' : 'it';
      const onAverage = result.applied > 1 ? ' on average' : '';
      const effects = [
        averageDays > 0
          ? `${subject} finish${subject === 'it' ? 'es' : ''} ${plural(averageDays, 'day')} sooner${onAverage}`
          : averageDays < 0
            ? `${subject} run${subject === 'it' ? 's' : ''} ${plural(-averageDays, 'day')} longer${onAverage}`
            : 'the end dates do not change',
        result.interestSavings > 0
          ? `customers save ${money(result.interestSavings)} in interest`
          : result.interestSavings < 0
            ? `customers pay ${money(-result.interestSavings)} more interest`
            : 'interest does not change',
        ...(result.serviceFeeSavings > 0
          ? [`customers save ${money(result.serviceFeeSavings)} in service fees`]
          : []),
        ...(result.serviceFeeSavings < 0
          ? [`customers pay ${money(-result.serviceFeeSavings)} more in service fees`]
          : []),
      ];
      const applied = parsed.contractNumber ? scope : `${plural(result.applied, 'contract')} of ${scope}`;
      const sentence = `${effects.slice(0, -1).join(', ')}${effects.length > 1 ? ' and ' : ''}${effects.at(-1)}`;
      return answer(
        `${what} on ${applied}: ${sentence}.${skipped ? ` Not applied to ${skipped}.` : ''}`,
        averageDays,
        result.interestSavings,
      );
    }
  }
}
