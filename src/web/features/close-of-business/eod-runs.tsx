import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Play, RotateCcw } from 'lucide-react';
import { useId, useState } from 'react';
import { EOD_STEP_LABELS, type EodRun, eodEndpoints } from '@/contracts/close-of-business';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { formatAuditTime } from '@/web/features/audit/audit-format';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { money } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

const STATUS_VARIANT: Record<EodRun['status'], 'secondary' | 'success' | 'destructive'> = {
  running: 'secondary',
  completed: 'success',
  failed: 'destructive',
};

/** The words for each step's counts (the server names them in code); an unknown one shows as named. */
const COUNT_LABELS: Record<string, string> = {
  changed: 'contracts whose figures changed',
  contracts: 'contracts',
  amount: 'amount',
  overdueBeyondLockAfter: 'past their lock-after days',
  locksQueued: 'locks queued',
  timeRanOut: 'OpenPAYGO units whose time ran out',
  defaulted: 'moved to defaulted',
  beforeDue: 'reminders before due',
  overdue: 'overdue reminders',
  lockWarnings: 'lock warnings',
  checked: 'promises checked',
  kept: 'kept',
  partlyKept: 'partly kept',
  broken: 'broken',
  customersMessaged: 'customers messaged',
  casesScored: 'collections cases scored',
};

/** The counts that are money (minor units of the organisation's currency): shown as money. */
const MONEY_COUNTS: ReadonlySet<string> = new Set(['amount']);

export const countsText = (counts: Record<string, number>, currency: string) =>
  Object.entries(counts)
    .map(
      ([name, value]) =>
        `${COUNT_LABELS[name] ?? name}: ${MONEY_COUNTS.has(name) ? money(value, currency) : value.toLocaleString()}`,
    )
    .join(', ');

/** The close of business: run a date (with confirmation), resume a failed one, and every run's steps. */
export function EodRuns() {
  const queryClient = useQueryClient();
  const page = useQuery({
    queryKey: queryKeys.eod.runs(),
    queryFn: () => api(eodEndpoints.runs, { query: { limit: 30 } }),
  });
  const [date, setDate] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const dateId = useId();
  const businessDate = page.data?.businessDate ?? '';
  const chosen = date ?? businessDate;
  const run = useMutation({
    mutationFn: (businessDate: string) => api(eodEndpoints.run, { body: { businessDate } }),
    onSuccess: (result) => {
      void invalidate(queryClient, 'businessClosed');
      const failed = result.runs.find((r) => r.status === 'failed');
      toast(
        failed
          ? {
              title: `Close of ${failed.businessDate} failed`,
              description: failed.error ?? '',
              variant: 'destructive',
            }
          : {
              title: `Closed up to ${result.businessDate}`,
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
            {page.data
              ? `Business date ${page.data.businessDate}; last closed ${page.data.lastClosedDate ?? 'never'}. Dates not yet closed before the one you choose are closed first, oldest first.`
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
          <CardDescription>Newest first. Each step with what it did and how long it took.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {page.isPending ? (
            <TableSkeleton label="Loading runs" />
          ) : page.isError ? (
            <p className="text-destructive text-sm" role="alert">
              {errorMessage(page.error)}
            </p>
          ) : page.data.runs.length === 0 ? (
            <p className="text-muted-foreground text-sm" data-testid="text-no-eod-runs">
              No business date has been closed yet.
            </p>
          ) : (
            page.data.runs.map((r) => (
              <section
                key={r.businessDate}
                aria-labelledby={`eod-${r.businessDate}`}
                className="rounded-md border p-3"
                data-testid={`run-eod-${r.businessDate}`}
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 id={`eod-${r.businessDate}`} className="font-medium">
                    {r.businessDate}{' '}
                    <Badge variant={STATUS_VARIANT[r.status]} data-testid={`status-eod-${r.businessDate}`}>
                      {r.status}
                    </Badge>
                  </h3>
                  <p className="text-muted-foreground text-xs">
                    {r.trigger === 'demand'
                      ? `by ${r.requestedByName ?? 'someone'}`
                      : r.trigger.replace('_', ' ')}{' '}
                    · started {formatAuditTime(r.startedAt)}
                    {r.attempts > 1 ? ` · attempt ${r.attempts}` : ''}
                  </p>
                  {r.status === 'failed' && (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={run.isPending}
                      onClick={() => setConfirming(r.businessDate)}
                      data-testid={`button-resume-${r.businessDate}`}
                    >
                      <RotateCcw className="size-4" aria-hidden />
                      Resume
                    </Button>
                  )}
                </div>
                {r.error && (
                  <p className="text-destructive text-sm" role="alert">
                    {r.error}
                  </p>
                )}
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead>Step</TableHead>
                      <TableHead>Status</TableHead>
                      <TableHead>Counts</TableHead>
                      <TableHead className="text-right">Duration</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {r.steps.map((step) => (
                      <TableRow key={step.step} data-testid={`row-step-${r.businessDate}-${step.step}`}>
                        <TableCell>{EOD_STEP_LABELS[step.step]}</TableCell>
                        <TableCell>
                          <Badge variant={step.status === 'completed' ? 'success' : 'destructive'}>
                            {step.status}
                          </Badge>
                        </TableCell>
                        <TableCell className="max-w-md whitespace-normal break-words">
                          {step.error ?? (countsText(step.counts, page.data.currency) || step.note || '—')}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">
                          {step.durationMs.toLocaleString()} ms
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </section>
            ))
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
