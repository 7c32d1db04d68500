import { useQuery } from '@tanstack/react-query';
import { ChartColumn, RotateCw } from 'lucide-react';
import { useId, useState } from 'react';
import { activityEndpoints } from '@/contracts/activity';
import { FormField } from '@/web/components/form-field';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { formatDuration, lastSevenDays } from './audit-format';

/** Usage of the app by section and by person over a date range (default: the last 7 days). */
export function UsageView() {
  const ids = useId();
  const [range, setRange] = useState(lastSevenDays);
  const fromError = !range.from
    ? 'Choose a start date'
    : range.to && range.from > range.to
      ? 'The start date must not be after the end date'
      : undefined;
  const toError = range.to ? undefined : 'Choose an end date';
  const invalid = !!(fromError ?? toError);

  const usage = useQuery({
    queryKey: queryKeys.activity.usage(range.from, range.to),
    queryFn: () => api(activityEndpoints.usage, { query: range }),
    enabled: !invalid,
    staleTime: 0,
  });

  const loadingOrError = (label: string) =>
    usage.isLoading ? (
      <TableSkeleton label={`Loading ${label}…`} rows={4} />
    ) : usage.error ? (
      <div role="alert" className="grid grid-cols-1 justify-items-start gap-2 px-6 pb-4 text-sm">
        <p className="text-destructive">Usage could not be loaded: {errorMessage(usage.error)}</p>
        <Button variant="outline" size="sm" onClick={() => void usage.refetch()}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    ) : null;

  const empty = (text: string) => (
    <div className="flex flex-col items-center gap-2 p-8 text-center text-muted-foreground text-sm">
      <ChartColumn className="size-6" aria-hidden="true" />
      {text}
    </div>
  );

  return (
    <div className="grid grid-cols-1 gap-4">
      <Card>
        <CardContent className="p-6">
          <form
            onSubmit={(event) => event.preventDefault()}
            aria-label="Usage date range"
            className="flex flex-wrap items-start gap-4"
            data-testid="form-usage-range"
          >
            <FormField id={`${ids}-from`} label="From" error={fromError}>
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  className="dark:[color-scheme:dark]"
                  value={range.from}
                  onChange={(event) => setRange((current) => ({ ...current, from: event.target.value }))}
                  data-testid="input-usage-from"
                />
              )}
            </FormField>
            <FormField id={`${ids}-to`} label="To" error={toError}>
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  className="dark:[color-scheme:dark]"
                  value={range.to}
                  onChange={(event) => setRange((current) => ({ ...current, to: event.target.value }))}
                  data-testid="input-usage-to"
                />
              )}
            </FormField>
            <p className="max-w-md self-center text-muted-foreground text-xs">
              Dates in the organisation’s time zone. Time counts the seconds between arriving on a page and
              leaving it.
            </p>
          </form>
        </CardContent>
      </Card>

      <Card data-testid="panel-usage-sections">
        <CardHeader>
          <CardTitle>By section</CardTitle>
          <CardDescription>Visits, time spent and how many people used each part of the app.</CardDescription>
        </CardHeader>
        <CardContent className="p-0 pb-2">
          {loadingOrError('sections') ??
            (!usage.data || usage.data.sections.length === 0 ? (
              empty('No activity in these dates.')
            ) : (
              <Table data-testid="table-usage-sections">
                <TableHeader>
                  <TableRow>
                    <TableHead>Section</TableHead>
                    <TableHead className="text-right">Visits</TableHead>
                    <TableHead className="text-right">Time</TableHead>
                    <TableHead className="text-right">People</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {usage.data.sections.map((row) => (
                    <TableRow key={row.section} data-testid={`row-usage-section-${row.section}`}>
                      <TableCell className="font-medium">{row.section}</TableCell>
                      <TableCell className="text-right tabular-nums">{row.visits}</TableCell>
                      <TableCell className="text-right tabular-nums">{formatDuration(row.seconds)}</TableCell>
                      <TableCell className="text-right tabular-nums">{row.users}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            ))}
        </CardContent>
      </Card>

      <Card data-testid="panel-usage-people">
        <CardHeader>
          <CardTitle>By person</CardTitle>
          <CardDescription>Who used the app in these dates, most visits first.</CardDescription>
        </CardHeader>
        <CardContent className="p-0 pb-2">
          {loadingOrError('people') ??
            (!usage.data || usage.data.people.length === 0 ? (
              empty('Nobody used the app in these dates.')
            ) : (
              <Table data-testid="table-usage-people">
                <TableHeader>
                  <TableRow>
                    <TableHead>Name</TableHead>
                    <TableHead>Email</TableHead>
                    <TableHead className="text-right">Visits</TableHead>
                    <TableHead className="text-right">Time</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {usage.data.people.map((person) => (
                    <TableRow key={person.userId} data-testid={`row-usage-person-${person.userId}`}>
                      <TableCell className="font-medium">{person.name}</TableCell>
                      <TableCell className="text-muted-foreground">{person.email}</TableCell>
                      <TableCell className="text-right tabular-nums">{person.visits}</TableCell>
                      <TableCell className="text-right tabular-nums">
                        {formatDuration(person.seconds)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            ))}
        </CardContent>
      </Card>
    </div>
  );
}
