import { z } from 'zod';
import { endpoint } from './endpoint';

/**
 * The dashboard's first figures (issue 14 item 6): KPI cards read from the daily portfolio
 * snapshots of the close of business (decision 026), PRODUCT.md §2 "KPIs". API.md fixes no
 * dashboard endpoint; this one is ours.
 */

/** One business date's figures, as the cards and their sparklines show them. */
export const kpiPointSchema = z.object({
  businessDate: z.iso.date(),
  activeCount: z.number().int(),
  defaultedCount: z.number().int(),
  overdueCount: z.number().int(),
  /** Outstanding principal and total (principal, interest, fees, penalties) of live contracts, minor units. */
  outstandingPrincipal: z.number().int(),
  outstandingTotal: z.number().int(),
  /** Instalment amounts due and collected from the first of the date's month to the date, minor units. */
  dueMonthToDate: z.number().int(),
  collectedMonthToDate: z.number().int(),
  /** PAR(n): outstanding principal of live contracts more than n days past due, and its share (0..1). */
  par1Amount: z.number().int(),
  par30Amount: z.number().int(),
  par90Amount: z.number().int(),
  par1Ratio: z.number(),
  par30Ratio: z.number(),
  par90Ratio: z.number(),
  /** Live contracts whose unit was locked at the close; null for a back-filled date. */
  lockedCount: z.number().int().nullable(),
  /** Contracts in the collections queue at the close (arrears or an unpaid instalment due that day); null before it was recorded. */
  queueCount: z.number().int().nullable(),
});
export type KpiPoint = z.infer<typeof kpiPointSchema>;

export const dashboardKpisSchema = z.object({
  /** The currency of the figures (the latest snapshot's, else the organisation's). */
  currency: z.string(),
  /** The business date now, and the last one the close of business completed. */
  businessDate: z.iso.date(),
  lastClosedDate: z.iso.date().nullable(),
  /** Snapshots of the 30 days ending at the latest one, oldest first; empty when none exists yet. */
  points: z.array(kpiPointSchema),
});
export type DashboardKpis = z.infer<typeof dashboardKpisSchema>;

/** /api/dashboard: what the signed-in home page shows. */
export const dashboardEndpoints = {
  kpis: endpoint({ method: 'GET', path: '/api/dashboard/kpis', response: dashboardKpisSchema }),
};
