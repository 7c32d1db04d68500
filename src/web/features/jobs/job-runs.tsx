import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { type JobRun, jobEndpoints } from '@/contracts/jobs';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { Tabs, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { formatAuditTime } from '@/web/features/audit/audit-format';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

const STATE_VARIANT: Record<JobRun['state'], 'secondary' | 'success' | 'destructive' | 'warning'> = {
  running: 'secondary',
  completed: 'success',
  failed: 'destructive',
  interrupted: 'warning',
};

function countsText(counts: JobRun['counts']): string {
  const entries = Object.entries(counts);
  return entries.length ? entries.map(([name, value]) => `${name} ${value}`).join(', ') : '—';
}

/** The registered jobs and their recent runs (or only failures), newest first; refreshed every 10 s. */
export function JobRuns({
  failures,
  onFailuresChange,
}: {
  failures: boolean;
  onFailuresChange: (next: boolean) => void;
}) {
  const page = useQuery({
    queryKey: queryKeys.jobs.runs(failures),
    queryFn: () =>
      api(jobEndpoints.runs, { query: { limit: 100, ...(failures ? { failures: 'true' as const } : {}) } }),
    refetchInterval: 10_000,
  });

  return (
    <div className="grid grid-cols-1 gap-4" data-testid="panel-job-runs">
      <Card>
        <CardHeader>
          <CardTitle>Jobs</CardTitle>
          <CardDescription>
            Every background job, with when it runs. Scheduled times are in the organisation's time zone.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {/* A list rather than a table, so "Run now" stays in view on a phone. */}
          <ul className="divide-y" aria-label="Background jobs">
            {page.data?.jobs.map((job) => (
              <li
                key={job.name}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3"
                data-testid={`row-job-${job.name}`}
              >
                <div className="min-w-0">
                  <p className="font-mono text-xs">{job.name}</p>
                  <p className="text-sm">{job.description}</p>
                  <p className="text-muted-foreground text-xs">Schedule: {job.schedule}</p>
                </div>
                <RunNowButton name={job.name} />
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="flex flex-row items-center justify-between gap-2">
          <div>
            <CardTitle>Recent runs</CardTitle>
            <CardDescription>One row per attempt; a retried job shows each attempt.</CardDescription>
          </div>
          <Tabs
            value={failures ? 'failures' : 'all'}
            onValueChange={(next) => onFailuresChange(next === 'failures')}
          >
            <TabsList aria-label="Which runs">
              <TabsTrigger value="all" data-testid="tab-runs-all">
                All
              </TabsTrigger>
              <TabsTrigger value="failures" data-testid="tab-runs-failures">
                Failures
              </TabsTrigger>
            </TabsList>
          </Tabs>
        </CardHeader>
        <CardContent>
          {page.isPending ? (
            <TableSkeleton label="Loading runs" />
          ) : page.isError ? (
            <p className="text-destructive text-sm" role="alert">
              {errorMessage(page.error)}
            </p>
          ) : page.data.runs.length === 0 ? (
            <p className="text-muted-foreground text-sm" data-testid="text-no-runs">
              {failures ? 'No failed runs.' : 'No runs yet.'}
            </p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Job</TableHead>
                  <TableHead>Started</TableHead>
                  <TableHead>Finished</TableHead>
                  <TableHead>State</TableHead>
                  <TableHead>Attempt</TableHead>
                  <TableHead>Result</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {page.data.runs.map((run) => (
                  <TableRow key={run.id} data-testid={`row-run-${run.id}`}>
                    <TableCell className="font-mono text-xs">{run.job}</TableCell>
                    <TableCell>{formatAuditTime(run.startedAt)}</TableCell>
                    <TableCell>{run.finishedAt ? formatAuditTime(run.finishedAt) : '—'}</TableCell>
                    <TableCell>
                      <Badge variant={STATE_VARIANT[run.state]}>{run.state}</Badge>
                    </TableCell>
                    <TableCell>{run.attempt}</TableCell>
                    <TableCell className="max-w-md break-words">
                      {run.error ?? countsText(run.counts)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** Queues a run now, besides the schedule; the runs list shows it as soon as it starts. */
function RunNowButton({ name }: { name: string }) {
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: () => api(jobEndpoints.runNow, { params: { name } }),
    onSuccess: ({ queued }) => {
      void invalidate(queryClient, 'jobQueued');
      toast({
        title: queued ? `${name} queued` : `${name} is already queued or running`,
        description: queued ? 'It runs within a few seconds.' : 'Its next run will pick up any change.',
      });
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: `${name} not queued`, description: errorMessage(error) }),
  });
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => run.mutate()}
      disabled={run.isPending}
      aria-label={`Run ${name} now`}
      data-testid={`button-run-${name}`}
    >
      {run.isPending ? <Spinner /> : <Play aria-hidden="true" />}
      Run now
    </Button>
  );
}
