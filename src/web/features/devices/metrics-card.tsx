import { useQuery } from '@tanstack/react-query';
import { Activity, RotateCw } from 'lucide-react';
import { deviceMetricsEndpoints } from '@/contracts/device-metrics';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { ON_WIDE, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { TableRegion } from './table-region';

/** A reading as shown: numbers and text as they came, yes/no for flags, JSON for anything else. */
export function readingText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  return JSON.stringify(value);
}

/** A metric's name as shown: `battery_v` reads "battery v". */
const nameText = (name: string) => name.replace(/_/g, ' ');

/** OpenPAYGO Metrics: what the unit last reported, and its recent reports (decision 029). */
export function DeviceMetricsCard({ deviceId }: { deviceId: string }) {
  const metrics = useQuery({
    queryKey: queryKeys.devices.metrics(deviceId),
    queryFn: () => api(deviceMetricsEndpoints.list, { params: { id: deviceId } }),
    staleTime: 0,
  });
  return (
    <Card data-testid="card-device-metrics">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Activity className="size-4 text-primary" aria-hidden="true" /> Usage reported by the device
        </CardTitle>
        <CardDescription>
          Readings the unit sends over OpenPAYGO Metrics, signed with its key. The latest value of each, then
          its recent reports.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        {metrics.isLoading ? (
          <TableSkeleton rows={3} label="Loading readings…" />
        ) : metrics.error ? (
          <div role="alert" className="flex items-center gap-2 text-destructive text-sm">
            The readings could not be loaded: {errorMessage(metrics.error)}
            <Button variant="outline" size="sm" onClick={() => void metrics.refetch()}>
              <RotateCw aria-hidden="true" /> Try again
            </Button>
          </div>
        ) : !metrics.data?.requests.length ? (
          <p className="text-muted-foreground text-sm" data-testid="text-metrics-empty">
            The device has not reported any usage yet. Devices send their readings to
            /api/openpaygo/device_data.
          </p>
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="list-latest-readings">
              {metrics.data.latest.map((reading) => (
                <div key={reading.name}>
                  <dt className="text-muted-foreground text-xs">{nameText(reading.name)}</dt>
                  <dd className="tabular-nums" title={`Read ${formatDateTime(reading.at)}`}>
                    {readingText(reading.value)}
                  </dd>
                </div>
              ))}
            </dl>
            <section aria-labelledby="metrics-history-title" className="grid grid-cols-1 gap-2">
              <h3 id="metrics-history-title" className="font-semibold text-sm">
                Recent reports
              </h3>
              <TableRegion label="Recent reports" testId="table-metrics">
                <TableHeader>
                  <TableRow>
                    <TableHead>Received</TableHead>
                    <TableHead>Readings</TableHead>
                    <TableHead className={`text-right ${ON_WIDE}`}>History steps</TableHead>
                    <TableHead className={`text-right ${ON_WIDE}`}>Tokens sent</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {metrics.data.requests.map((request) => (
                    <TableRow key={request.id} data-testid={`row-metrics-${request.id}`}>
                      <TableCell className="whitespace-nowrap tabular-nums">
                        {formatDateTime(request.receivedAt)}
                      </TableCell>
                      <TableCell className="text-xs">
                        {Object.entries(request.data)
                          .map(([name, value]) => `${nameText(name)} ${readingText(value)}`)
                          .join(' · ') || '—'}
                      </TableCell>
                      <TableCell className={`text-right tabular-nums ${ON_WIDE}`}>
                        {request.history.length}
                      </TableCell>
                      <TableCell className={`text-right tabular-nums ${ON_WIDE}`}>
                        {request.tokensSent}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </TableRegion>
            </section>
          </>
        )}
      </CardContent>
    </Card>
  );
}
