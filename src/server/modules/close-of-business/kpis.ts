import { sql } from 'drizzle-orm';
import type { DashboardKpis, KpiPoint } from '../../../contracts/dashboard';
import { queryRows } from '../../../db/client';
import { portfolioSnapshots } from '../../../db/schema';
import { businessToday } from '../../business-date';
import type { AppContext } from '../../context';
import { organisation } from '../../organisation';

/** The days of history a card's sparkline shows, ending at the latest snapshot. */
export const KPI_DAYS = 30;

/**
 * The dashboard's KPI cards (`GET /api/dashboard/kpis`): the latest portfolio snapshot and the
 * ones of the 30 days ending at it, oldest first, in one statement over the snapshots' primary
 * key. Nothing is computed here: the close of business wrote every figure (snapshot.ts).
 */
export async function dashboardKpis(ctx: AppContext): Promise<DashboardKpis> {
  const org = await organisation(ctx, ctx.db);
  const rows = await queryRows<KpiPoint & { currency: string }>(
    ctx.db,
    sql`
    SELECT to_char(s.business_date, 'YYYY-MM-DD') AS "businessDate", s.currency,
           s.active_count AS "activeCount", s.defaulted_count AS "defaultedCount", s.overdue_count AS "overdueCount",
           s.outstanding_principal::float8 AS "outstandingPrincipal", s.outstanding_total::float8 AS "outstandingTotal",
           s.due_month_to_date::float8 AS "dueMonthToDate", s.collected_month_to_date::float8 AS "collectedMonthToDate",
           s.par1_amount::float8 AS "par1Amount", s.par30_amount::float8 AS "par30Amount", s.par90_amount::float8 AS "par90Amount",
           s.par1_ratio::float8 AS "par1Ratio", s.par30_ratio::float8 AS "par30Ratio", s.par90_ratio::float8 AS "par90Ratio",
           s.locked_count AS "lockedCount", s.queue_count AS "queueCount"
    FROM ${portfolioSnapshots} s
    WHERE s.business_date > (SELECT max(business_date) FROM ${portfolioSnapshots}) - ${KPI_DAYS}::int
    ORDER BY s.business_date`,
  );
  return {
    currency: rows.at(-1)?.currency ?? org.currency,
    businessDate: businessToday(ctx, org),
    lastClosedDate: org.lastClosedDate,
    points: rows.map(({ currency: _, ...point }) => point),
  };
}
