import { useQuery } from '@tanstack/react-query';
import { Lock, LockOpen, X } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { deviceControlEndpoints, type FleetSummary } from '@/contracts/device-control';
import { DEVICE_STATUSES, type Device, deviceEndpoints, LOCK_STATES } from '@/contracts/devices';
import { can } from '@/contracts/roles';
import { type Column, ListPage } from '@/web/components/data-list';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { CONTROL_LABELS, LOCK_LABELS, labelOf, STATUS_LABELS } from '@/web/features/devices/format';
import { DeviceStatusBadge } from '@/web/features/devices/status-badge';
import { useAuth } from '@/web/hooks/use-auth';
import { api } from '@/web/lib/api';
import { formatDay } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { BulkDialog, type BulkTarget } from './bulk-dialog';

const LOCK_OPTIONS = LOCK_STATES.map((lock) => [lock, LOCK_LABELS[lock] ?? lock] as const);
const CONTROL_OPTIONS = (['lock_api', 'openpaygo', 'none'] as const).map(
  (kind) => [kind, CONTROL_LABELS[kind] ?? kind] as const,
);
const STATUS_OPTIONS = DEVICE_STATUSES.map((status) => [status, STATUS_LABELS[status]] as const);

/**
 * The fleet's counts and the log's backlog, read again every ten seconds while shown, and whenever
 * opened: the command log marks them stale as deliveries move lock states (`CommandLog`).
 */
export function useFleetSummary() {
  return useQuery({
    queryKey: queryKeys.deviceControl.fleet(),
    queryFn: () => api(deviceControlEndpoints.fleet),
    refetchInterval: 10_000,
  });
}

/** One control kind's units: with customers by lock state, then the others by status. */
function FleetCard({
  kind,
  cells,
  onPick,
}: {
  kind: 'lock_api' | 'openpaygo';
  cells: FleetSummary['cells'];
  onPick: (filters: Record<string, string>) => void;
}) {
  const units = (keep: (cell: FleetSummary['cells'][number]) => boolean) =>
    cells.filter(keep).reduce((sum, cell) => sum + cell.units, 0);
  const elsewhere = DEVICE_STATUSES.filter((status) => status !== 'assigned')
    .map((status) => ({
      status,
      units: units((cell) => cell.status === status),
      locked: units((cell) => cell.status === status && cell.lockState === 'locked'),
    }))
    .filter((row) => row.units > 0);
  return (
    <Card data-testid={`card-fleet-${kind}`}>
      <CardHeader className="pb-2">
        <CardTitle className="text-base">{CONTROL_LABELS[kind]}</CardTitle>
        <p className="text-muted-foreground text-xs">With customers, by lock state</p>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-2">
        <div className="grid grid-cols-3 gap-2">
          {LOCK_STATES.map((lock) => {
            const count = units((cell) => cell.status === 'assigned' && cell.lockState === lock);
            return (
              <button
                type="button"
                key={lock}
                onClick={() => onPick({ controlKind: kind, lockState: lock, status: 'assigned' })}
                className="rounded-md border p-2 text-left hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                data-testid={`count-${kind}-${lock}`}
                aria-label={`${count} ${CONTROL_LABELS[kind]} units with customers ${LOCK_LABELS[lock]?.toLowerCase()}: show them`}
              >
                <span className="block font-semibold text-xl tabular-nums">{count}</span>
                <span className="text-muted-foreground text-xs">{LOCK_LABELS[lock]}</span>
              </button>
            );
          })}
        </div>
        {elsewhere.length > 0 && (
          <p className="flex flex-wrap gap-x-3 gap-y-1 text-muted-foreground text-xs">
            {elsewhere.map((row) => (
              <button
                type="button"
                key={row.status}
                onClick={() => onPick({ controlKind: kind, status: row.status })}
                className="rounded-sm underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                data-testid={`count-${kind}-status-${row.status}`}
              >
                {labelOf(STATUS_LABELS, row.status)} {row.units}
                {row.locked > 0 ? ` (${row.locked} locked)` : ''}
              </button>
            ))}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Units per control kind: those with customers by lock state, in a grid (the fleet in the field,
 * as the dashboard's locked devices count it), and under it the units elsewhere (in stock,
 * returned…) by status. Each count filters the list below.
 */
function FleetCounts({ onPick }: { onPick: (filters: Record<string, string>) => void }) {
  const fleet = useFleetSummary();
  if (fleet.isLoading) return <p className="text-muted-foreground text-sm">Loading the fleet…</p>;
  if (fleet.error)
    return (
      <p role="alert" className="text-destructive text-sm">
        The fleet could not be loaded: {errorMessage(fleet.error)}
      </p>
    );
  const data = fleet.data as FleetSummary;
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
      {(['lock_api', 'openpaygo'] as const).map((kind) => (
        <FleetCard
          key={kind}
          kind={kind}
          cells={data.cells.filter((cell) => cell.controlKind === kind)}
          onPick={onPick}
        />
      ))}
      <Card data-testid="card-fleet-commands">
        <CardHeader className="pb-2">
          <CardTitle className="text-base">Command delivery</CardTitle>
        </CardHeader>
        <CardContent className="grid grid-cols-3 gap-2 text-sm">
          {(['queued', 'sent', 'failed'] as const).map((state) => (
            <Link
              key={state}
              href={`/device-control?tab=log&state=${state}`}
              className="rounded-md border p-2 hover:bg-muted"
              data-testid={`count-commands-${state}`}
            >
              <span className="block font-semibold text-xl tabular-nums">{data.commands[state]}</span>
              <span className="text-muted-foreground text-xs capitalize">{state}</span>
            </Link>
          ))}
        </CardContent>
      </Card>
    </div>
  );
}

/** The Fleet tab: counts by lock state and control, and the units, selectable for bulk lock or unlock. */
export function Fleet() {
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const mayCommand = can(user, 'devices.command');
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [bulk, setBulk] = useState<BulkTarget | null>(null);
  const toggle = (device: Device) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(device.id)) next.delete(device.id);
      else next.set(device.id, device.serialNumber);
      return next;
    });
  // The checkboxes first, as in every list that selects rows (the collections queue).
  const columns: Column<Device>[] = [
    ...(mayCommand
      ? [
          {
            key: 'select',
            header: 'Select',
            cell: (device: Device) => (
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={selected.has(device.id)}
                onClick={(event) => event.stopPropagation()}
                onChange={() => toggle(device)}
                aria-label={`Select ${device.serialNumber}`}
                data-testid={`checkbox-unit-${device.id}`}
              />
            ),
          },
        ]
      : []),
    {
      key: 'serial',
      header: 'Serial number',
      sort: 'serialNumber',
      link: true,
      cell: (device) => (
        <>
          <span className="font-mono text-xs">{device.serialNumber}</span>
          {/* A phone's row: the wide columns it leaves out, so the lock state stays in view. */}
          <span className="block whitespace-normal text-muted-foreground text-xs md:hidden">
            {device.model.name} · {labelOf(CONTROL_LABELS, device.controlKind)} ·{' '}
            {labelOf(STATUS_LABELS, device.status).toLowerCase()}
            {device.activeUntil ? ` · until ${formatDay(device.activeUntil)}` : ''}
          </span>
        </>
      ),
    },
    { key: 'model', header: 'Model', wide: true, cell: (device) => device.model.name },
    {
      key: 'control',
      header: 'Control',
      wide: true,
      cell: (device) => labelOf(CONTROL_LABELS, device.controlKind),
    },
    {
      key: 'lock',
      header: 'Lock state',
      cell: (device) => <span data-testid="text-unit-lock">{labelOf(LOCK_LABELS, device.lockState)}</span>,
    },
    {
      key: 'status',
      header: 'Status',
      sort: 'status',
      wide: true,
      cell: (d) => <DeviceStatusBadge status={d.status} />,
    },
    {
      key: 'activeUntil',
      header: 'Active until',
      wide: true,
      cell: (device) => formatDay(device.activeUntil),
    },
  ];
  const units = [...selected].map(([id, serialNumber]) => ({ id, serialNumber }));

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <FleetCounts onPick={(filters) => navigate(`/device-control?${new URLSearchParams(filters)}`)} />
      {mayCommand && (
        <div className="flex flex-wrap items-center gap-2" data-testid="bar-bulk">
          <span
            className="text-muted-foreground text-sm"
            aria-live="polite"
            data-testid="text-selected-count"
          >
            {selected.size ? `${selected.size} selected` : 'Select units to lock or unlock them together.'}
          </span>
          <Button
            variant="destructive"
            size="sm"
            disabled={!selected.size}
            onClick={() => setBulk({ kind: 'lock', units })}
            data-testid="button-bulk-lock"
          >
            <Lock aria-hidden="true" /> Lock selected
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={!selected.size}
            onClick={() => setBulk({ kind: 'unlock', units })}
            data-testid="button-bulk-unlock"
          >
            <LockOpen aria-hidden="true" /> Unlock selected
          </Button>
          {selected.size > 0 && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setSelected(new Map())}
              data-testid="button-clear-selection"
            >
              <X aria-hidden="true" /> Clear selection
            </Button>
          )}
        </div>
      )}
      <ListPage<Device>
        endpoint={deviceEndpoints.list}
        label="Fleet units"
        testId="fleet"
        searchPlaceholder="Search serial or IMEI"
        filters={[
          {
            name: 'controlKind',
            label: 'Control',
            allLabel: 'Any control',
            options: CONTROL_OPTIONS,
            testId: 'fleet-control',
          },
          {
            name: 'lockState',
            label: 'Lock state',
            allLabel: 'Any lock state',
            options: LOCK_OPTIONS,
            testId: 'fleet-lock',
          },
          {
            name: 'status',
            label: 'Status',
            allLabel: 'All statuses',
            options: STATUS_OPTIONS,
            testId: 'fleet-status',
          },
        ]}
        columns={columns}
        rowHref={(device) => `/devices/${device.id}`}
        empty={{ filtered: 'No unit matches this search or these filters.', none: 'No units yet.' }}
      />
      <BulkDialog
        target={bulk}
        onClose={() => setBulk(null)}
        onDone={() => {
          setBulk(null);
          setSelected(new Map());
        }}
      />
    </div>
  );
}
