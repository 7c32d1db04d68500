import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { useId, useState } from 'react';
import { eodEndpoints } from '@/contracts/close-of-business';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { LoadMore } from '@/web/components/load-more';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { EodRunSection } from './eod-run';

/** Runs fetched per page (and per "Load older runs"). */
const RUNS_PER_PAGE = 30;

/** The close of business: run a date (with confirmation), resume a failed one, and every run's steps. */
export function EodRuns() {
  const queryClient = useQueryClient();
  const pages = useInfiniteQuery({
    queryKey: queryKeys.eod.runs(),
    queryFn: ({ pageParam }) =>
      api(eodEndpoints.runs, {
        query: { limit: RUNS_PER_PAGE, ...(pageParam ? { before: pageParam } : {}) },
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
  // The business date and currency are the newest page's; the runs are every page's, newest first.
  const first = pages.data?.pages[0];
  const runs = pages.data?.pages.flatMap((p) => p.runs) ?? [];
  const [date, setDate] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const dateId = useId();
  const businessDate = first?.businessDate ?? '';
  const chosen = date ?? businessDate;
  const run = useMutation({
    mutationFn: (businessDate: string) => api(eodEndpoints.run, { body: { businessDate } }),
    onSuccess: (result) => {
      void invalidate(queryClient, 'businessClosed');
      const failed = result.runs.find((r) => r.status === 'failed');
      toast(
        failed
          ? {
              title: `Close of ${formatBusinessDate(failed.businessDate)} failed`,
              description: failed.error ?? '',
              variant: 'destructive',
            }
          : {
              title: `Closed up to ${formatBusinessDate(result.businessDate)}`,
              description: `${result.runs.length} date(s) in this run.`,
            },
      );
      setConfirming(null);
    },
    onError: (error) => {
      toast({ title: 'Close of business not run', description: errorMessage(error), variant: 'destructive' });
      setConfirming(null);
    },
  });

  return (
    <div className="grid grid-cols-1 gap-4" data-testid="panel-eod">
      <Card>
        <CardHeader>
          <CardTitle>Run close of business</CardTitle>
          <CardDescription>
            {first
              ? `Business date ${formatBusinessDate(first.businessDate)}; last closed ${first.lastClosedDate ? formatBusinessDate(first.lastClosedDate) : 'never'}. Dates not yet closed before the one you choose are closed first, oldest first.`
              : 'Closes a business date and every date before it not yet closed.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            className="flex flex-wrap items-end gap-3"
            onSubmit={(event) => {
              event.preventDefault();
              if (chosen) setConfirming(chosen);
            }}
          >
            <div className="grid gap-1">
              <Label htmlFor={dateId}>Business date</Label>
              <Input
                id={dateId}
                type="date"
                value={chosen}
                max={businessDate || undefined}
                onChange={(event) => setDate(event.target.value)}
                data-testid="input-eod-date"
              />
            </div>
            <Button type="submit" disabled={!chosen || run.isPending} data-testid="button-run-eod">
              <Play className="size-4" aria-hidden />
              Run close of business
            </Button>
          </form>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Runs</CardTitle>
          <CardDescription>
            Newest first. Open a run to see each step, what it did and how long it took.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {pages.isPending ? (
            <TableSkeleton label="Loading runs" />
          ) : pages.isError ? (
            <p className="text-destructive text-sm" role="alert">
              {errorMessage(pages.error)}
            </p>
          ) : runs.length === 0 ? (
            <p className="text-muted-foreground text-sm" data-testid="text-no-eod-runs">
              No business date has been closed yet.
            </p>
          ) : (
            <>
              {runs.map((r, i) => (
                <EodRunSection
                  key={r.businessDate}
                  run={r}
                  currency={first?.currency ?? ''}
                  // Steps show at first for the newest run and any failed one.
                  openAtFirst={i === 0 || r.status === 'failed'}
                  onResume={() => setConfirming(r.businessDate)}
                  resumeDisabled={run.isPending}
                />
              ))}
              <LoadMore
                pages={pages}
                shown={`${runs.length} ${runs.length === 1 ? 'run' : 'runs'} shown`}
                label="Load older runs"
                end="No older runs"
                testId="eod-runs"
              />
            </>
          )}
        </CardContent>
      </Card>

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={`Close business for ${confirming ?? ''}?`}
        description="Late fees, device locks and defaults are applied for the date and every earlier date not yet closed. A date already closed is not changed."
        confirmLabel="Run close of business"
        pending={run.isPending}
        onConfirm={() => confirming && run.mutate(confirming)}
      />
    </div>
  );
}
