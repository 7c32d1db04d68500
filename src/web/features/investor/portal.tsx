import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { investorEndpoints } from '@/contracts/investor';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { api, apiOrNull } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { InvestorKpiCards } from './kpi-cards';
import { ReportDownload } from './report-download';
import { scopeLabel } from './scope-label';
import { InvestorSignIn } from './sign-in';

// The charts are their own chunk: the sign-in and the figures do not wait for them.
const InvestorCharts = lazy(() => import('./charts'));

/** /investor: the sign-in, or the signed-in investor's figures, charts and report. */
export function InvestorPortal() {
  const me = useQuery({ queryKey: queryKeys.investor.me(), queryFn: () => apiOrNull(investorEndpoints.me) });
  if (me.isLoading) return <Skeleton className="mx-auto h-64 w-full max-w-md" />;
  if (me.error)
    return (
      <p role="alert" className="text-destructive">
        The portal could not load: {errorMessage(me.error)}
      </p>
    );
  if (!me.data) return <InvestorSignIn />;
  return <SignedIn label={me.data.label} scope={scopeLabel(me.data.scope)} />;
}

function SignedIn({ label, scope }: { label: string; scope: string }) {
  const queryClient = useQueryClient();
  const summary = useQuery({
    queryKey: queryKeys.investor.summary(),
    queryFn: () => api(investorEndpoints.summary),
  });
  const signOut = useMutation({
    mutationFn: () => api(investorEndpoints.logout),
    onSettled: () => {
      queryClient.setQueryData(queryKeys.investor.me(), null);
      // The figures go with the session: the next code may show another scope.
      queryClient.removeQueries({
        queryKey: queryKeys.investor.all(),
        predicate: (query) => query.queryKey[1] !== 'me',
      });
    },
  });
  const asOf = summary.data?.asOf ?? null;
  return (
    <div className="flex w-full flex-col gap-4" data-testid="investor-portal">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="font-semibold text-xl">Investor portal</h1>
          <p className="text-muted-foreground text-sm" data-testid="text-investor-scope">
            {label} · {scope}
            {asOf ? ` · figures at the close of ${asOf}` : ''}
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => signOut.mutate()}
          data-testid="button-investor-sign-out"
        >
          <LogOut aria-hidden="true" /> Sign out
        </Button>
      </header>
      {summary.error && (
        <p role="alert" className="text-destructive">
          {errorMessage(summary.error)}
        </p>
      )}
      {!summary.data ? (
        <Skeleton className="h-40 w-full" />
      ) : asOf ? (
        <InvestorKpiCards summary={summary.data} />
      ) : (
        <p className="text-muted-foreground">
          No business date has been closed yet: figures appear after the first close.
        </p>
      )}
      <Suspense fallback={<Skeleton className="h-64 w-full" />}>
        <InvestorCharts />
      </Suspense>
      <Card>
        <CardHeader>
          <CardTitle>Investor report</CardTitle>
        </CardHeader>
        <CardContent>
          {/* The period defaults to the year of the figures' date, once it is known. */}
          {summary.data ? (
            <ReportDownload key={asOf ?? 'none'} asOf={asOf} />
          ) : (
            <Skeleton className="h-10 w-full" />
          )}
        </CardContent>
      </Card>
      <p className="text-muted-foreground text-xs">
        Aggregates only: no customer or contract is shown in this portal.
      </p>
    </div>
  );
}
