import { type SQL, sql } from 'drizzle-orm';
import type {
  InvestorCashFlows,
  InvestorParTrend,
  InvestorScope,
  InvestorSummary,
  InvestorVintages,
} from '../../../contracts/investor';
import { queryRows } from '../../../db/client';
import { investorFigures, PORTFOLIO_FUND } from '../../../db/schema';
import type { AppContext, Executor } from '../../context';
import { organisation } from '../../organisation';
import { dashboardKpis } from '../close-of-business/kpis';

/**
 * The investor portal's figures (issue 16 §3), read from the rows the close of business writes:
 * `portfolio_snapshots` for the whole book's outstanding and PAR (as the dashboard reads them,
 * through `dashboardKpis`), and `investor_figures` for the rest and for a fund. Nothing here reads
 * contracts or payments; every statement reads a few hundred rows of one fund by its key.
 */

export const fundOf = (scope: InvestorScope) => (scope.kind === 'tag' ? scope.tag : PORTFOLIO_FUND);

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1e6) / 1e6 : 0);

interface Totals {
  asOf: string | null;
  contracts: number;
  disbursed: number;
  collected: number;
  collectedPrincipal: number;
  due: number;
  liveCount: number;
  outstanding: number;
  par30Amount: number;
  par90Amount: number;
  defaultedCount: number;
  defaultedPrincipal: number;
  writtenOffCount: number;
  writtenOffPrincipal: number;
  repossessedCount: number;
  repossessedPrincipal: number;
}

/** A fund's totals at its latest closed date on or before `onOrBefore` (any date when null). */
export async function fundTotals(
  executor: Executor,
  fund: string,
  onOrBefore: string | null,
): Promise<Totals> {
  const [row] = await queryRows<Totals>(
    executor,
    sql`
    WITH d AS (
      SELECT max(business_date) AS date FROM ${investorFigures}
      WHERE fund = ${fund} ${onOrBefore ? sql`AND business_date <= ${onOrBefore}::date` : sql``}
    )
    SELECT to_char(d.date, 'YYYY-MM-DD') AS "asOf",
           coalesce(sum(f.contracts), 0)::int AS contracts, coalesce(sum(f.disbursed), 0)::float8 AS disbursed,
           coalesce(sum(f.collected), 0)::float8 AS collected,
           coalesce(sum(f.collected_principal), 0)::float8 AS "collectedPrincipal",
           coalesce(sum(f.due), 0)::float8 AS due, coalesce(sum(f.live_count), 0)::int AS "liveCount",
           coalesce(sum(f.outstanding_principal), 0)::float8 AS outstanding,
           coalesce(sum(f.par30_amount), 0)::float8 AS "par30Amount", coalesce(sum(f.par90_amount), 0)::float8 AS "par90Amount",
           coalesce(sum(f.defaulted_count), 0)::int AS "defaultedCount",
           coalesce(sum(f.defaulted_principal), 0)::float8 AS "defaultedPrincipal",
           coalesce(sum(f.written_off_count), 0)::int AS "writtenOffCount",
           coalesce(sum(f.written_off_principal), 0)::float8 AS "writtenOffPrincipal",
           coalesce(sum(f.repossessed_count), 0)::int AS "repossessedCount",
           coalesce(sum(f.repossessed_principal), 0)::float8 AS "repossessedPrincipal"
    FROM d LEFT JOIN ${investorFigures} f ON f.fund = ${fund} AND f.business_date = d.date
    GROUP BY d.date`,
  );
  return row as Totals;
}

/** The summary's shape from a fund's totals (outstanding and PAR as given). */
export function summaryOf(currency: string, t: Totals): InvestorSummary {
  return {
    asOf: t.asOf,
    currency,
    disbursed: t.disbursed,
    contracts: t.contracts,
    outstanding: t.outstanding,
    liveContracts: t.liveCount,
    collected: t.collected,
    par30: ratio(t.par30Amount, t.outstanding),
    par90: ratio(t.par90Amount, t.outstanding),
    par30Amount: t.par30Amount,
    par90Amount: t.par90Amount,
    collectionRate: ratio(t.collected, t.due),
    yield: ratio(t.collected - t.collectedPrincipal, t.disbursed),
    defaults: {
      count: t.defaultedCount,
      principal: t.defaultedPrincipal,
      writtenOffCount: t.writtenOffCount,
      writtenOffPrincipal: t.writtenOffPrincipal,
    },
    recoveries: { repossessedCount: t.repossessedCount, repossessedPrincipal: t.repossessedPrincipal },
  };
}

/**
 * `GET /api/investor/summary`. The whole portfolio's outstanding and PAR are the dashboard's (its
 * latest snapshot), and its other figures the same date's `investor_figures`; a fund's all come
 * from its own rows.
 */
export async function investorSummary(ctx: AppContext, scope: InvestorScope): Promise<InvestorSummary> {
  if (scope.kind === 'tag') {
    const org = await organisation(ctx, ctx.db);
    return summaryOf(org.currency, await fundTotals(ctx.db, scope.tag, null));
  }
  // The whole book's currency is the dashboard's (dashboardKpis reads the organisation).
  const kpis = await dashboardKpis(ctx);
  const latest = kpis.points.at(-1);
  const totals = await fundTotals(ctx.db, PORTFOLIO_FUND, latest?.businessDate ?? null);
  if (!latest) return summaryOf(kpis.currency, totals);
  return summaryOf(kpis.currency, {
    ...totals,
    asOf: latest.businessDate,
    outstanding: latest.outstandingPrincipal,
    par30Amount: latest.par30Amount,
    par90Amount: latest.par90Amount,
  });
}

/** How many months the charts go back. */
export const CHART_MONTHS = 24;

/**
 * CTE `ends`: the last closed date of each of `months` calendar months ending with the fund's
 * latest date on or before `onOrBefore` (months without a row left out). One backward probe of
 * the primary key per month, so a long history costs nothing: the rows read are those dates' only.
 */
function monthEnds(fund: string, months: number, onOrBefore?: string): SQL {
  return sql`
    latest AS (
      SELECT max(business_date) AS date FROM ${investorFigures}
      WHERE fund = ${fund} ${onOrBefore ? sql`AND business_date <= ${onOrBefore}::date` : sql``}
    ), ends AS (
      SELECT m.start AS month, e.date
      FROM latest,
           LATERAL (SELECT (date_trunc('month', latest.date) - k * interval '1 month')::date AS start
                    FROM generate_series(0, ${months - 1}::int) k) m,
           LATERAL (SELECT max(business_date) AS date FROM ${investorFigures}
                    WHERE fund = ${fund} AND business_date >= m.start
                      AND business_date < (m.start + interval '1 month')::date AND business_date <= latest.date) e
      WHERE e.date IS NOT NULL
    )`;
}

/** Whole months from the month of `from` to the month of `to`, both counted. */
const monthsBetween = (from: string, to: string) =>
  (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 +
  Number(to.slice(5, 7)) -
  Number(from.slice(5, 7)) +
  1;

/**
 * Disbursed and collected per month. Disbursed is the month's vintage (its contracts' principal,
 * exact whatever the history); collected is the month's last closed date less the month before
 * (the first month of history counts from zero). `range` (the report) gives its months, else the
 * last CHART_MONTHS.
 */
export async function cashFlows(
  ctx: AppContext,
  scope: InvestorScope,
  range?: { from: string; to: string },
): Promise<InvestorCashFlows> {
  const fund = fundOf(scope);
  const org = await organisation(ctx, ctx.db);
  // One month more than shown: the first shown month's collections are measured from its end.
  const months = Math.min(1200, range ? monthsBetween(range.from, range.to) : CHART_MONTHS) + 1;
  const rows = await queryRows<{ month: string; disbursed: number; collected: number }>(
    ctx.db,
    sql`
    WITH ${monthEnds(fund, months, range?.to)}, totals AS (
      SELECT e.month, sum(f.collected) AS collected
      FROM ends e JOIN ${investorFigures} f ON f.fund = ${fund} AND f.business_date = e.date
      GROUP BY e.month
    ), flows AS (
      SELECT month, collected - lag(collected, 1, 0::numeric) OVER (ORDER BY month) AS collected,
             row_number() OVER (ORDER BY month DESC) AS age
      FROM totals
    ), vintages AS (
      SELECT f.vintage, f.disbursed FROM latest JOIN ${investorFigures} f ON f.fund = ${fund} AND f.business_date = latest.date
    )
    SELECT to_char(fl.month, 'YYYY-MM') AS month, coalesce(v.disbursed, 0)::float8 AS disbursed,
           fl.collected::float8 AS collected
    FROM flows fl LEFT JOIN vintages v ON v.vintage = fl.month
    WHERE fl.age < ${months} ${range ? sql`AND fl.month >= date_trunc('month', ${range.from}::date)` : sql``}
    ORDER BY fl.month`,
  );
  return { currency: org.currency, months: rows };
}

/** Per start month (the last 24), collected over disbursed at the end of each month on book. */
export async function vintageCurves(ctx: AppContext, scope: InvestorScope): Promise<InvestorVintages> {
  const fund = fundOf(scope);
  const org = await organisation(ctx, ctx.db);
  const rows = await queryRows<{
    vintage: string;
    monthsOnBook: number;
    contracts: number;
    disbursed: number;
    collected: number;
  }>(
    ctx.db,
    sql`
    WITH ${monthEnds(fund, CHART_MONTHS)}
    SELECT to_char(f.vintage, 'YYYY-MM') AS vintage,
           ((extract(year FROM f.business_date) - extract(year FROM f.vintage)) * 12
             + extract(month FROM f.business_date) - extract(month FROM f.vintage))::int AS "monthsOnBook",
           f.contracts, f.disbursed::float8 AS disbursed, f.collected::float8 AS collected
    FROM ends JOIN ${investorFigures} f ON f.fund = ${fund} AND f.business_date = ends.date
    WHERE f.vintage >= (SELECT min(month) FROM ends)
    ORDER BY f.vintage, f.business_date`,
  );
  const byVintage = new Map<string, InvestorVintages['vintages'][number]>();
  for (const row of rows) {
    let vintage = byVintage.get(row.vintage);
    if (!vintage) {
      vintage = { vintage: row.vintage, contracts: 0, disbursed: 0, points: [] };
      byVintage.set(row.vintage, vintage);
    }
    // The latest month end holds the vintage's whole disbursement.
    vintage.contracts = row.contracts;
    vintage.disbursed = row.disbursed;
    vintage.points.push({
      monthsOnBook: row.monthsOnBook,
      collected: row.collected,
      ratio: ratio(row.collected, row.disbursed),
    });
  }
  return { currency: org.currency, vintages: [...byVintage.values()] };
}

/** How many closed dates the PAR trend shows: the dashboard's sparkline's. */
export const PAR_TREND_DAYS = 30;

/** PAR30 and PAR90 per closed date: the dashboard's snapshots for the whole book, the fund's rows otherwise. */
export async function parTrend(ctx: AppContext, scope: InvestorScope): Promise<InvestorParTrend> {
  if (scope.kind === 'portfolio') {
    const kpis = await dashboardKpis(ctx);
    return {
      points: kpis.points.map((p) => ({
        date: p.businessDate,
        outstanding: p.outstandingPrincipal,
        par30: p.par30Ratio,
        par90: p.par90Ratio,
      })),
    };
  }
  const rows = await queryRows<{ date: string; outstanding: number; par30: number; par90: number }>(
    ctx.db,
    sql`
    SELECT to_char(business_date, 'YYYY-MM-DD') AS date, sum(outstanding_principal)::float8 AS outstanding,
           sum(par30_amount)::float8 AS par30, sum(par90_amount)::float8 AS par90
    FROM ${investorFigures}
    WHERE fund = ${scope.tag}
      AND business_date > (SELECT max(business_date) FROM ${investorFigures} WHERE fund = ${scope.tag}) - ${PAR_TREND_DAYS}::int
    GROUP BY business_date ORDER BY business_date`,
  );
  return {
    points: rows.map((r) => ({
      date: r.date,
      outstanding: r.outstanding,
      par30: ratio(r.par30, r.outstanding),
      par90: ratio(r.par90, r.outstanding),
    })),
  };
}
