import type { KpiPoint } from '@/contracts/dashboard';
import { formatPercent } from '@/web/lib/format';
import { money } from '@/web/lib/money';

/**
 * The dashboard's KPI cards (PRODUCT.md §2 "KPIs"), each read from the latest snapshot with its
 * 30-day series and the list behind it: the list shows the contracts, devices or payments the
 * figure counts.
 */
export interface KpiCard {
  id: string;
  title: string;
  /** The headline figure. */
  value: (point: KpiPoint, currency: string) => string;
  /** One line of context under it. */
  detail: (point: KpiPoint, currency: string) => string;
  /** The figure the sparkline follows, per day; null when the day did not record it. */
  series: (point: KpiPoint) => number | null;
  href: string;
  linkLabel: string;
}

const count = (n: number | null) => (n === null ? '—' : n.toLocaleString());
const ratio = (value: number) => formatPercent(value * 100, 1);

/** Collected over due this month, 0..1; null before anything falls due in the month. */
export function collectionRate(point: KpiPoint): number | null {
  return point.dueMonthToDate > 0 ? point.collectedMonthToDate / point.dueMonthToDate : null;
}

/** PAR(n) counts contracts with more than n days past due: the contracts list's `minDpd` is n + 1. */
const par = (days: 1 | 30 | 90): KpiCard => {
  const amount = `par${days}Amount` as const;
  const share = `par${days}Ratio` as const;
  return {
    id: `par${days}`,
    title: `PAR${days}`,
    value: (p) => ratio(p[share]),
    detail: (p, currency) =>
      `${money(p[amount], currency)} principal more than ${days} day${days === 1 ? '' : 's'} past due`,
    series: (p) => p[share],
    href: `/contracts?minDpd=${days + 1}&sort=dpd&order=desc`,
    linkLabel: `Contracts more than ${days} day${days === 1 ? '' : 's'} past due`,
  };
};

export const KPI_CARDS: readonly KpiCard[] = [
  {
    id: 'outstanding',
    title: 'Outstanding',
    value: (p, currency) => money(p.outstandingTotal, currency),
    detail: (p, currency) =>
      `${money(p.outstandingPrincipal, currency)} principal · ${count(p.activeCount + p.defaultedCount)} live contracts`,
    series: (p) => p.outstandingTotal,
    href: '/contracts?sort=outstanding&order=desc',
    linkLabel: 'Contracts by outstanding balance',
  },
  {
    id: 'collected',
    title: 'Collected vs due, this month',
    value: (p) => {
      const rate = collectionRate(p);
      return rate === null ? '—' : ratio(rate);
    },
    detail: (p, currency) =>
      `${money(p.collectedMonthToDate, currency)} of ${money(p.dueMonthToDate, currency)} due`,
    series: collectionRate,
    href: '/payment-processing?tab=payments',
    linkLabel: 'Payments',
  },
  par(1),
  par(30),
  par(90),
  {
    id: 'locked',
    title: 'Locked devices',
    value: (p) => count(p.lockedCount),
    detail: (p) => `${count(p.overdueCount)} contracts past due`,
    series: (p) => p.lockedCount,
    // The figure counts the units of live contracts: returned (repossessed) units stay locked in stock.
    href: '/devices?lockState=locked&status=assigned',
    linkLabel: 'Locked devices',
  },
  {
    id: 'queue',
    title: 'Collections queue',
    value: (p) => count(p.queueCount),
    detail: () => 'Contracts in arrears or with an instalment due today unpaid',
    series: (p) => p.queueCount,
    href: '/collections',
    linkLabel: 'Collections queue',
  },
];
