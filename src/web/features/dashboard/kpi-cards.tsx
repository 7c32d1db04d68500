import { useQuery } from '@tanstack/react-query';
import { ArrowRight, ChartLine, RotateCw } from 'lucide-react';
import { Link } from 'wouter';
import { type DashboardKpis, dashboardEndpoints } from '@/contracts/dashboard';
import { can } from '@/contracts/roles';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { useAuth } from '@/web/hooks/use-auth';
import { api } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { KPI_CARDS, type KpiCard } from './kpi-definitions';
import { Sparkline } from './sparkline';

/**
 * The dashboard's portfolio figures: one card per KPI from the latest close of business snapshot,
 * each with its 30-day sparkline and a link to the list behind it; an empty state until a
 * business date has been closed.
 */
export function KpiCards() {
  const kpis = useQuery({
    queryKey: queryKeys.dashboard.kpis(),
    queryFn: () => api(dashboardEndpoints.kpis),
  });
  if (kpis.isPending)
    return (
      <section aria-labelledby="kpi-heading" className="grid gap-3" data-testid="section-kpis">
        <h2 id="kpi-heading" className="font-semibold text-muted-foreground text-sm uppercase tracking-wide">
          Portfolio
        </h2>
        <div role="status" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <span className="sr-only">Loading portfolio figures…</span>
          {KPI_CARDS.map((card) => (
            <Skeleton key={card.id} className="h-36 w-full" />
          ))}
        </div>
      </section>
    );
  if (kpis.isError)
    return (
      <div role="alert" className="grid justify-items-start gap-2 text-sm" data-testid="error-kpis">
        <p className="text-destructive">Portfolio figures could not be loaded: {errorMessage(kpis.error)}</p>
        <Button variant="outline" size="sm" onClick={() => void kpis.refetch()}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  const latest = kpis.data.points.at(-1);
  if (!latest) return <NoSnapshot kpis={kpis.data} />;
  return (
    <section aria-labelledby="kpi-heading" className="grid gap-3" data-testid="section-kpis">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="kpi-heading" className="font-semibold text-muted-foreground text-sm uppercase tracking-wide">
          Portfolio
        </h2>
        <p className="text-muted-foreground text-xs" data-testid="text-kpi-date">
          At the close of {formatBusinessDate(latest.businessDate)}
        </p>
      </div>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {KPI_CARDS.map((card) => (
          <li key={card.id}>
            <KpiCardView card={card} kpis={kpis.data} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function KpiCardView({ card, kpis }: { card: KpiCard; kpis: DashboardKpis }) {
  const latest = kpis.points.at(-1);
  if (!latest) return null;
  const titleId = `kpi-${card.id}-title`;
  return (
    <Link
      href={card.href}
      aria-labelledby={titleId}
      aria-describedby={`kpi-${card.id}-detail`}
      data-testid={`card-kpi-${card.id}`}
      className="group flex h-full flex-col gap-2 rounded-xl border bg-card p-4 shadow-sm transition-colors hover:border-primary/50 hover:bg-accent/40 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      <span id={titleId} className="font-medium text-muted-foreground text-sm group-hover:underline">
        {card.title}
        <span className="sr-only">
          : {card.value(latest, kpis.currency)}. Open {card.linkLabel}
        </span>
      </span>
      <span className="flex flex-wrap items-end justify-between gap-2">
        <span className="font-semibold text-2xl tabular-nums" data-testid={`value-kpi-${card.id}`}>
          {card.value(latest, kpis.currency)}
        </span>
        <Sparkline
          values={kpis.points.map(card.series)}
          label={`${card.title} over the last ${kpis.points.length} day${kpis.points.length === 1 ? '' : 's'}`}
          className="shrink-0 text-primary"
        />
      </span>
      <span id={`kpi-${card.id}-detail`} className="text-muted-foreground text-xs">
        {card.detail(latest, kpis.currency)}
      </span>
    </Link>
  );
}

/** No business date closed yet: say where the figures come from, and let who may run the close. */
function NoSnapshot({ kpis }: { kpis: DashboardKpis }) {
  const { user } = useAuth();
  const mayClose = can(user, 'eod.run');
  return (
    <Card className="border-dashed" data-testid="card-kpis-empty">
      <CardContent className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <ChartLine className="size-5" aria-hidden="true" />
        </span>
        <div className="flex-1">
          <h2 className="font-semibold">No portfolio figures yet</h2>
          <p className="mt-1 text-muted-foreground text-sm">
            Outstanding balance, collections against amounts due, portfolio at risk and locked devices are
            counted at each close of business. None has run yet
            {kpis.lastClosedDate ? '' : ` (business date ${formatBusinessDate(kpis.businessDate)})`}.
            {mayClose
              ? ' Run it for a business date to see the first figures.'
              : ' They appear here after the first close of business, which managers run or which runs nightly.'}
          </p>
        </div>
        {mayClose ? (
          <Button asChild className="self-start sm:self-center">
            <Link href="/admin/close-of-business" data-testid="link-run-close-of-business">
              Run close of business
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        ) : (
          <Button asChild variant="outline" className="self-start sm:self-center">
            <Link href="/contracts" data-testid="link-dashboard-contracts">
              Go to contracts
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
