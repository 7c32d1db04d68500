import { useQuery } from '@tanstack/react-query';
import { CalendarClock, CircleCheck, CircleX, Repeat } from 'lucide-react';
import { useState } from 'react';
import {
  type AutoDebitSummary,
  autoDebitEndpoints,
  MANDATE_METHOD_LABELS,
  type Mandate,
} from '@/contracts/auto-debit';
import { can } from '@/contracts/roles';
import { EmptyMessage } from '@/web/components/empty-message';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import {
  ON_WIDER,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/web/components/ui/table';
import { Tabs, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { useAuth } from '@/web/hooks/use-auth';
import { api } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { AttemptsTable } from './attempts-table';
import { retryPolicyText, successRateText, waitingNote } from './auto-debit-format';
import { ContractCell } from './contract-cell';
import { MandateToggleDialog } from './mandate-dialogs';
import { NextDebitsTable } from './next-debits-table';

/** /admin/auto-debit: the last 30 days' success rate, failures with reasons, what comes next, the mandates. */
export function AutoDebitMonitor() {
  const summary = useQuery({
    queryKey: queryKeys.autoDebit.summary(),
    queryFn: () => api(autoDebitEndpoints.summary),
    refetchInterval: 30_000,
  });
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="panel-auto-debit">
      {summary.isPending ? (
        <TableSkeleton label="Loading the auto-debit summary" rows={4} />
      ) : summary.isError ? (
        <p role="alert" className="text-destructive text-sm" data-testid="error-auto-debit-summary">
          The auto-debit summary could not be loaded: {errorMessage(summary.error)}
        </p>
      ) : (
        <SummaryView summary={summary.data} />
      )}
      <MandatesCard />
    </div>
  );
}

export function SummaryView({ summary }: { summary: AutoDebitSummary }) {
  const m = (minor: number) => money(minor, summary.currency);
  return (
    <>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Figure
          title="Success rate, 30 days"
          value={successRateText(summary.successRate)}
          note={
            summary.attempted
              ? `${summary.succeeded} of ${summary.attempted} attempts since ${formatBusinessDate(summary.since)}`
              : 'No attempt made in the last 30 days'
          }
          testId="card-success-rate"
        />
        <Figure
          title="Collected, 30 days"
          value={m(summary.collected)}
          note={`Attempts are made ${retryPolicyText(summary.retryDays)}.`}
          testId="card-collected"
        />
        <Figure
          title="Waiting"
          value={String(summary.counts.scheduled)}
          note={waitingNote(summary.counts.scheduled, summary.retriesScheduled, summary.counts.failed)}
          testId="card-waiting"
        />
        <Figure
          title="Mandates"
          value={String(summary.mandates.active)}
          note={`active · ${summary.mandates.paused} paused`}
          testId="card-mandates"
        />
      </div>
      {/* One above the other: side by side, each table's result column (the failure's reason) was cut off. */}
      <div className="grid grid-cols-1 gap-4">
        <Card data-testid="panel-failures">
          <CardHeader>
            <CardTitle>Failures</CardTitle>
            <CardDescription>
              Why debits failed in the last 30 days, and the latest failed attempts.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-4 p-0 pb-2">
            {summary.recentFailures.length === 0 ? (
              <EmptyMessage icon={CircleCheck} testId="text-no-failures">
                No failed debits.
              </EmptyMessage>
            ) : (
              <>
                <ul className="flex flex-wrap gap-2 px-6" aria-label="Failure reasons">
                  {summary.failureReasons.map((r) => (
                    <li key={r.reason} data-testid="item-failure-reason">
                      <Badge variant="outline">
                        {r.reason}: {r.count}
                      </Badge>
                    </li>
                  ))}
                </ul>
                <AttemptsTable
                  attempts={summary.recentFailures}
                  label="Latest failed attempts"
                  testId="table-failures"
                />
              </>
            )}
          </CardContent>
        </Card>
        <Card data-testid="panel-upcoming">
          <CardHeader>
            <CardTitle>Upcoming attempts</CardTitle>
            <CardDescription>
              Debits scheduled and retries, then each active mandate's next instalment, soonest first. The
              hourly job makes the attempts due on the business date.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-4 p-0 pb-2">
            {summary.upcoming.length === 0 && summary.nextDebits.length === 0 ? (
              <EmptyMessage icon={CalendarClock} testId="text-no-upcoming">
                Nothing to debit: no active mandate has an instalment left to attempt.
              </EmptyMessage>
            ) : (
              <>
                {summary.upcoming.length > 0 && (
                  <AttemptsTable
                    attempts={summary.upcoming}
                    label="Upcoming attempts"
                    testId="table-upcoming"
                  />
                )}
                {summary.nextDebits.length > 0 && <NextDebitsTable debits={summary.nextDebits} />}
              </>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}

function Figure({
  title,
  value,
  note,
  testId,
}: {
  title: string;
  value: string;
  note: string;
  testId: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader className="pb-2">
        <CardDescription>{title}</CardDescription>
        <CardTitle className="text-2xl tabular-nums" data-testid={`${testId}-value`}>
          {value}
        </CardTitle>
      </CardHeader>
      <CardContent className="text-muted-foreground text-xs">{note}</CardContent>
    </Card>
  );
}

type MandateFilter = 'all' | 'true' | 'false';

/** Every mandate with its contract, paused or active; finance pauses and resumes them here. */
function MandatesCard() {
  const { user } = useAuth();
  const [active, setActive] = useState<MandateFilter>('all');
  const [toggling, setToggling] = useState<Mandate | null>(null);
  const page = useQuery({
    queryKey: queryKeys.autoDebit.mandateList(active),
    queryFn: () =>
      api(autoDebitEndpoints.mandates, {
        query: { pageSize: 200, ...(active === 'all' ? {} : { active }) },
      }),
  });
  const manage = can(user, 'payments.manage');
  return (
    <Card data-testid="panel-mandates">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <div>
          <CardTitle>Mandates</CardTitle>
          <CardDescription>
            Customers’ consents to be debited. Add one from the contract’s page.
          </CardDescription>
        </div>
        <Tabs value={active} onValueChange={(next) => setActive(next as MandateFilter)}>
          <TabsList aria-label="Which mandates">
            <TabsTrigger value="all">All</TabsTrigger>
            <TabsTrigger value="true" data-testid="tab-mandates-active">
              Active
            </TabsTrigger>
            <TabsTrigger value="false" data-testid="tab-mandates-paused">
              Paused
            </TabsTrigger>
          </TabsList>
        </Tabs>
      </CardHeader>
      <CardContent className="p-0 pb-2">
        {page.isPending ? (
          <TableSkeleton label="Loading mandates" />
        ) : page.isError ? (
          <p role="alert" className="px-6 text-destructive text-sm">
            {errorMessage(page.error)}
          </p>
        ) : page.data.items.length === 0 ? (
          <EmptyMessage icon={Repeat} testId="text-no-mandates">
            {active === 'false' ? 'No paused mandates.' : 'No mandates yet.'}
          </EmptyMessage>
        ) : (
          <Table aria-label="Mandates" data-testid="table-mandates">
            <TableHeader>
              <TableRow>
                <TableHead>Contract</TableHead>
                <TableHead className={ON_WIDER}>Method</TableHead>
                <TableHead className="hidden lg:table-cell">Consent</TableHead>
                <TableHead>Status</TableHead>
                {manage && <TableHead className="text-right">Action</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.data.items.map((mandate) => (
                <TableRow key={mandate.id} data-testid={`row-mandate-${mandate.id}`}>
                  <ContractCell {...mandate} />
                  <TableCell className={ON_WIDER}>
                    {MANDATE_METHOD_LABELS[mandate.method]}
                    <span className="block font-mono text-muted-foreground text-xs">{mandate.account}</span>
                  </TableCell>
                  <TableCell className="hidden font-mono text-xs lg:table-cell">
                    {mandate.consentReference}
                  </TableCell>
                  <TableCell className="whitespace-normal">
                    <MandateStatus mandate={mandate} />
                  </TableCell>
                  {manage && (
                    <TableCell className="text-right">
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => setToggling(mandate)}
                        data-testid={`button-toggle-mandate-${mandate.id}`}
                      >
                        {mandate.active ? 'Pause' : 'Resume'}
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <MandateToggleDialog mandate={toggling} onClose={() => setToggling(null)} />
    </Card>
  );
}

export function MandateStatus({ mandate }: { mandate: Mandate }) {
  return mandate.active ? (
    <Badge variant="success">Active</Badge>
  ) : (
    <>
      <Badge variant="warning">
        <CircleX className="size-3" aria-hidden="true" /> Paused
      </Badge>
      {mandate.pausedReason && (
        <span className="mt-1 block text-muted-foreground text-xs" data-testid="text-paused-reason">
          {mandate.pausedReason}
        </span>
      )}
    </>
  );
}
