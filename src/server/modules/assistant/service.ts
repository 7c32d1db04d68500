import type { Analysis } from '../../../contracts/assistant';
import {
  addDays,
  currencyInfo,
  daysBetween,
  formatMoney,
  payoffQuote,
  portfolioKpis,
  toMajorString,
} from '../../../domain';
import { businessToday } from '../../business-date';
import type { AppContext } from '../../context';
import { organisation } from '../../organisation';
import { collectionsForPeriod, kpiContracts, portfolioBatches, topRisks } from '../contracts/portfolio';
import { parseQuery, SUPPORTED_QUESTIONS } from './intent';
import { mapWithModel } from './model';
import { describeScenario, tallyScenario, typicalPayment } from './scenario-answer';

const percent = (ratio: number | null) =>
  ratio === null ? 'not measurable yet' : `${(ratio * 100).toFixed(1)}%`;
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** A round example amount a little above today's typical payment, in the organisation's currency. */
function exampleAmount(minor: number, currency: string): string {
  const major = Number(toMajorString(minor, currency)) * 1.25;
  const step = major >= 1000 ? 100 : major >= 100 ? 10 : major >= 10 ? 5 : 1;
  return `${currency} ${(Math.ceil(major / step) * step).toLocaleString('en-US')}`;
}

/**
 * Answers a staff question. The parser (or, when configured, a language model) only says what
 * was asked; every figure comes from the finance engine over the database. Every answer is a
 * short summary; the figures behind it are detail lines the user opens on request.
 */
export async function analyze(ctx: AppContext, query: string): Promise<Analysis> {
  const org = await organisation(ctx, ctx.db);
  const money = (minor: number) => formatMoney(minor, org.currency);
  const asOf = businessToday(ctx, org);
  let parsed = parseQuery(query, org.currency);
  if (parsed.confidence < 0.5) parsed = (await mapWithModel(ctx, query, org.currency)) ?? parsed;
  const answer = (
    summary: string,
    details: string[] = [],
    impacts = { termReduction: 0, interestSavings: 0 },
    suggestions: string[] = parsed.confidence < 0.5 ? SUPPORTED_QUESTIONS : [],
  ): Analysis => ({
    summary,
    details,
    impacts,
    confidence: parsed.confidence,
    currency: org.currency,
    assumptions: parsed.assumptions,
    suggestions,
  });
  const { intent } = parsed;

  switch (intent.kind) {
    case 'unknown':
      return answer('I could not match that to a question I can answer from your data.', [
        'I can model payment, APR, service-discount, term and payment-holiday changes over the active portfolio or one contract, quote a payoff, and report PAR, collection rate, overdue contracts and top risks.',
      ]);

    case 'foreign_currency': {
      // Never converted or reread in the organisation's currency: exchange rates move, and
      // "$0.50" read as KES 0.50 would model a payment no one meant.
      const typical = await typicalPayment(ctx, intent.frequency, asOf);
      const often = intent.frequency ? `${intent.frequency} ` : '';
      const name = currencyInfo(org.currency).name;
      return answer(
        `${intent.amount} is in ${intent.currencyName}, but your books are in ${name} (${org.currency}), so nothing was modelled. Ask again with an amount in ${org.currency}.`,
        [
          `I read amounts only in the organisation's currency (${org.currency}) and do not convert between currencies.`,
          ...(typical !== null
            ? [
                `Today's typical ${often}payment is ${money(typical)} (the median of the active ${often}contracts).`,
              ]
            : []),
        ],
        undefined,
        typical !== null
          ? [`Increase ${often}payment to ${exampleAmount(typical, org.currency)}`]
          : [`Increase ${often}payment to ${org.currency} 100`],
      );
    }

    case 'par': {
      const kpis = portfolioKpis(await kpiContracts(ctx, asOf), asOf, [intent.days]);
      const par = kpis.par[intent.days];
      if (!kpis.liveContracts || !par)
        return answer('There are no active contracts yet, so there is no portfolio at risk to measure.');
      return answer(`PAR${intent.days} is ${percent(par.ratio)}.`, [
        `${money(par.numerator)} of ${money(par.denominator)} outstanding principal is in contracts more than ${intent.days} days past due.`,
        `Measured over ${plural(kpis.liveContracts, 'live contract')} as of ${asOf}.`,
      ]);
    }

    case 'collection_rate': {
      const from = addDays(asOf, -30);
      const { due, collected } = await collectionsForPeriod(ctx, from, asOf);
      if (!due)
        return answer(
          `No instalments fell due between ${from} and ${asOf}, so there is no collection rate to report yet.`,
        );
      return answer(`The collection rate for the last 30 days is ${percent(collected / due)}.`, [
        `${money(collected)} collected of ${money(due)} due on instalments from ${from} to ${asOf}.`,
        'Deposits are excluded.',
      ]);
    }

    case 'overdue_count': {
      const contracts = await kpiContracts(ctx, asOf);
      const live = contracts.filter((c) => c.status === 'active' || c.status === 'defaulted');
      const overdue = live.filter((c) => c.dpd > 0);
      if (!live.length) return answer('There are no active contracts yet, so none are overdue.');
      const principal = overdue.reduce((sum, c) => sum + c.outstandingPrincipal, 0);
      return answer(
        `${plural(overdue.length, 'contract')} of ${live.length.toLocaleString('en-US')} live ${overdue.length === 1 ? 'is' : 'are'} overdue.`,
        [`They hold ${money(principal)} of outstanding principal.`],
      );
    }

    case 'top_risks': {
      const risks = await topRisks(ctx, asOf, 5);
      const [worst] = risks;
      if (!worst) return answer('No live contract is past due, so there are no arrears risks to list.');
      return answer(
        `The contract most at risk is ${worst.number} (${worst.customerName}), ${worst.dpd} days past due.`,
        risks.map(
          (r) =>
            `${r.number} (${r.customerName}): ${r.dpd} days past due, ${money(r.outstandingTotal)} outstanding.`,
        ),
      );
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
        return answer(
          `Paying off ${contract.number} (${contract.customerName}) on ${date} takes ${money(quote.total)}.`,
          [
            `Principal: ${money(quote.principal)}.`,
            `Interest: ${money(quote.interestDue + quote.interestNotYetDue)}.`,
            ...(quote.fees ? [`Fees: ${money(quote.fees)}.`] : []),
            ...(quote.penalties ? [`Penalties: ${money(quote.penalties)}.`] : []),
            ...(quote.discount ? [`Less an early-settlement discount of ${money(quote.discount)}.`] : []),
            ...(quote.credit ? [`Less credit on the account of ${money(quote.credit)}.`] : []),
          ],
          {
            termReduction: Math.max(0, daysBetween(date, lastDue)),
            interestSavings: Math.max(
              0,
              scheduledInterest - quote.interestDue - quote.interestNotYetDue + quote.discount,
            ),
          },
        );
      }
      return answer(`There is no contract ${parsed.contractNumber}.`);
    }

    default: {
      const scenario = { ...parsed, intent };
      const tally = await tallyScenario(ctx, scenario, asOf, money);
      if (!tally.contracts) {
        return answer(
          parsed.contractNumber
            ? `There is no contract ${parsed.contractNumber}.`
            : 'There are no active contracts yet, so there is nothing to model.',
          parsed.contractNumber
            ? []
            : ['Once contracts are active I can show how this change would move terms, interest and costs.'],
        );
      }
      const { summary, details, termReduction, interestSavings } = describeScenario(
        scenario,
        tally,
        asOf,
        money,
      );
      return answer(summary, details, { termReduction, interestSavings });
    }
  }
}
