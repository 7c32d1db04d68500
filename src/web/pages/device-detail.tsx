import { useQuery } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'wouter';
import { DEVICE_CONDITION_LABELS, type DeviceDetail, deviceEndpoints } from '@/contracts/devices';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { BackLink, DetailPage, DetailPageStates, type DetailTexts } from '@/web/components/detail-page';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { DeviceCommandsCard } from '@/web/features/device-control/device-commands';
import { CATEGORY_LABELS, CONTROL_LABELS, LOCK_LABELS, labelOf } from '@/web/features/devices/format';
import { DeviceMetricsCard } from '@/web/features/devices/metrics-card';
import { DeviceStatusBadge } from '@/web/features/devices/status-badge';
import { StatusChangeForm } from '@/web/features/devices/status-change';
import { StatusHistory } from '@/web/features/devices/status-history';
import { OpenPaygoCard } from '@/web/features/devices/token-panel';
import { UnitEditForm } from '@/web/features/devices/unit-edit-form';
import { useAuth } from '@/web/hooks/use-auth';
import { api } from '@/web/lib/api';
import { formatBusinessDate, formatDateTime, formatDay } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';

const AREA = AREAS['/devices'];
const MISSING: DetailTexts = {
  notFoundTitle: 'Unit not found',
  notFound: 'No unit has this address',
  failed: 'The unit could not be loaded',
  list: { href: '/devices', label: 'Back to the inventory' },
};

/** The contract holding the unit now (reserved or assigned), else the last one it was on. */
export function contractOf(device: DeviceDetail): { id: string; current: boolean } | null {
  const held = device.status === 'reserved' || device.status === 'assigned';
  const event = device.events.find((candidate) => candidate.contractId);
  if (!event?.contractId) return null;
  return { id: event.contractId, current: held && event.to === device.status };
}

/** /devices/:id: one unit, its status and history, its contract and its OpenPAYGO tokens. */
export default function DeviceDetailPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { user } = useAuth();
  const [editing, setEditing] = useState(false);
  const query = useQuery({
    queryKey: queryKeys.devices.detail(id),
    queryFn: () => api(deviceEndpoints.get, { params: { id } }),
    staleTime: 0,
  });
  const device = query.data;
  const writer = can(user, 'inventory.write');

  if (!device) return <DetailPageStates query={query} area={AREA} back={<Back />} texts={MISSING} />;

  const contract = contractOf(device);
  return (
    <DetailPage
      area={AREA}
      back={<Back />}
      title={device.serialNumber}
      testId="page-device-detail"
      description={
        <span className="flex flex-wrap items-center gap-2">
          <span data-testid="text-device-model">{device.model.name}</span>
          <span aria-hidden="true">·</span>
          <span>{labelOf(CATEGORY_LABELS, device.model.category)}</span>
          <DeviceStatusBadge status={device.status} testId="badge-device-status" />
        </span>
      }
      actions={
        writer && (
          <Button variant="outline" onClick={() => setEditing(true)} data-testid="button-edit-unit">
            <Pencil aria-hidden="true" /> Edit IMEI or notes
          </Button>
        )
      }
    >
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2" data-testid="card-unit">
          <CardHeader>
            <CardTitle>Unit</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
              <Item label="Serial number">
                <span className="font-mono" data-testid="text-serial">
                  {device.serialNumber}
                </span>
              </Item>
              <Item label="IMEI">
                <span className="font-mono" data-testid="text-imei">
                  {device.imei ?? '—'}
                </span>
              </Item>
              <Item label="Model">
                <Link
                  href={`/devices?tab=models&q=${encodeURIComponent(device.model.name)}`}
                  className="text-primary hover:underline"
                >
                  {device.model.name}
                </Link>
                {device.model.sku && (
                  <span className="ml-1 font-mono text-muted-foreground text-xs">{device.model.sku}</span>
                )}
              </Item>
              <Item label="Category">{labelOf(CATEGORY_LABELS, device.model.category)}</Item>
              <Item label="Control">{labelOf(CONTROL_LABELS, device.controlKind)}</Item>
              <Item label="Lock state">
                <span data-testid="text-lock-state">{labelOf(LOCK_LABELS, device.lockState)}</span>
              </Item>
              {/* The contract's paid-through date, as its page shows it; the unit's own codes may run longer. */}
              <Item label="Paid through">
                <span data-testid="text-paid-through">
                  {device.contract ? formatBusinessDate(device.contract.paidThrough) : '—'}
                </span>
              </Item>
              <Item label="Active until">{formatDay(device.activeUntil)}</Item>
              <Item label="Received">{formatDateTime(device.createdAt)}</Item>
              {device.condition && (
                <Item label="Condition when returned" wide>
                  <span data-testid="text-device-condition">
                    {DEVICE_CONDITION_LABELS[device.condition]}
                    {device.conditionNotes ? `: ${device.conditionNotes}` : ''}
                  </span>
                </Item>
              )}
              <Item label="Notes" wide>
                <span className="whitespace-pre-wrap">{device.notes || '—'}</span>
              </Item>
            </dl>
          </CardContent>
        </Card>

        <Card data-testid="card-status">
          <CardHeader>
            <CardTitle>Status</CardTitle>
            <CardDescription className="flex flex-wrap items-center gap-2">
              Now <DeviceStatusBadge status={device.status} />
            </CardDescription>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-4">
            <div className="text-sm" data-testid="text-device-contract">
              <span className="text-muted-foreground">
                {contract && !contract.current ? 'Last contract' : 'Contract'}:{' '}
              </span>
              {contract ? (
                <Link
                  href={`/contracts/${contract.id}`}
                  className="text-primary hover:underline"
                  data-testid="link-device-contract"
                >
                  Open the contract
                </Link>
              ) : (
                'none'
              )}
            </div>
            {writer ? (
              <StatusChangeForm device={device} />
            ) : (
              <p className="text-muted-foreground text-sm">Managers change a unit’s status.</p>
            )}
          </CardContent>
        </Card>
      </div>

      <Card data-testid="card-status-history">
        <CardHeader>
          <CardTitle>Status history</CardTitle>
          <CardDescription>Every change, newest first, with its reason.</CardDescription>
        </CardHeader>
        <CardContent className="p-0 pb-2">
          <StatusHistory events={device.events} />
        </CardContent>
      </Card>

      {device.controlKind === 'openpaygo' && <OpenPaygoCard device={device} />}
      {device.controlKind === 'openpaygo' && <DeviceMetricsCard deviceId={device.id} />}

      {device.controlKind !== 'none' && can(user, 'devices.requestLock') && (
        <DeviceCommandsCard device={device} />
      )}

      <Dialog open={editing} onOpenChange={setEditing}>
        <DialogContent data-testid="dialog-edit-unit">
          <DialogHeader>
            <DialogTitle>Edit {device.serialNumber}</DialogTitle>
            <DialogDescription>
              The serial number and model are fixed once a unit is received.
            </DialogDescription>
          </DialogHeader>
          {editing && <UnitEditForm device={device} onDone={() => setEditing(false)} />}
        </DialogContent>
      </Dialog>
    </DetailPage>
  );
}

function Back() {
  return (
    <BackLink href="/devices" testId="link-back-devices">
      Devices
    </BackLink>
  );
}

function Item({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="mt-0.5">{children}</dd>
    </div>
  );
}
