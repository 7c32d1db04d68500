import { FileUp, PackagePlus } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import {
  DEVICE_CATEGORIES,
  DEVICE_STATUSES,
  type Device,
  deviceEndpoints,
  LOCK_STATES,
} from '@/contracts/devices';
import { can } from '@/contracts/roles';
import { type Column, ListPage } from '@/web/components/data-list';
import { Button } from '@/web/components/ui/button';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { formatDay } from '@/web/lib/format';
import { FormDialog } from './form-dialog';
import { CATEGORY_LABELS, LOCK_LABELS, labelOf, STATUS_LABELS } from './format';
import { ImportForm } from './import-form';
import { useAllDeviceModels } from './queries';
import { DeviceStatusBadge } from './status-badge';
import { UnitForm } from './unit-form';

const STATUS_OPTIONS = DEVICE_STATUSES.map((status) => [status, STATUS_LABELS[status]] as const);
const CATEGORY_OPTIONS = DEVICE_CATEGORIES.map(
  (category) => [category, CATEGORY_LABELS[category] ?? category] as const,
);
const LOCK_OPTIONS = LOCK_STATES.map((lock) => [lock, LOCK_LABELS[lock] ?? lock] as const);

const COLUMNS: ReadonlyArray<Column<Device>> = [
  {
    key: 'serial',
    header: 'Serial number',
    sort: 'serialNumber',
    cell: (device) => (
      <span className="grid grid-cols-1">
        <span className="font-mono text-xs">{device.serialNumber}</span>
        <span className="font-normal text-muted-foreground text-xs md:hidden">{device.model.name}</span>
      </span>
    ),
  },
  {
    key: 'imei',
    header: 'IMEI',
    wide: true,
    cell: (device) => <span className="font-mono text-xs">{device.imei ?? '—'}</span>,
  },
  { key: 'model', header: 'Model', wide: true, cell: (device) => device.model.name },
  {
    key: 'category',
    header: 'Category',
    wide: true,
    cell: (device) => labelOf(CATEGORY_LABELS, device.model.category),
  },
  {
    key: 'status',
    header: 'Status',
    sort: 'status',
    cell: (device) => <DeviceStatusBadge status={device.status} />,
  },
  { key: 'lock', header: 'Lock', wide: true, cell: (device) => labelOf(LOCK_LABELS, device.lockState) },
  {
    key: 'activeUntil',
    header: 'Paid through',
    wide: true,
    cell: (device) => formatDay(device.activeUntil),
  },
  { key: 'created', header: 'Received', sort: 'createdAt', wide: true, cell: (d) => formatDay(d.createdAt) },
];

/** The Units tab of /devices: every unit, searched, filtered, sorted and paged by the server. */
export function UnitsList() {
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const models = useAllDeviceModels();
  const [dialog, setDialog] = useState<'add' | 'import' | null>(null);
  const writer = can(user, 'inventory.write');
  const activeModels = models.data?.items.filter((model) => model.active) ?? [];

  return (
    <div className="grid grid-cols-1 min-w-0 gap-0">
      {writer && (
        <div className="mb-4 flex flex-wrap gap-2">
          <Button onClick={() => setDialog('add')} data-testid="button-add-unit">
            <PackagePlus aria-hidden="true" /> Add unit
          </Button>
          <Button variant="outline" onClick={() => setDialog('import')} data-testid="button-import-units">
            <FileUp aria-hidden="true" /> Import CSV
          </Button>
        </div>
      )}
      <ListPage<Device>
        endpoint={deviceEndpoints.list}
        label="Device units"
        testId="units"
        searchPlaceholder="Search serial, IMEI or model"
        filters={[
          {
            name: 'status',
            label: 'Status',
            allLabel: 'All statuses',
            options: STATUS_OPTIONS,
            testId: 'unit-status',
          },
          {
            name: 'modelId',
            label: 'Model',
            allLabel: 'All models',
            options: (models.data?.items ?? []).map((model) => [model.id, model.name] as const),
            testId: 'unit-model',
          },
          {
            name: 'category',
            label: 'Category',
            allLabel: 'All categories',
            options: CATEGORY_OPTIONS,
            testId: 'unit-category',
          },
          {
            name: 'lockState',
            label: 'Lock state',
            allLabel: 'Any lock state',
            options: LOCK_OPTIONS,
            testId: 'unit-lock',
          },
        ]}
        columns={COLUMNS}
        rowHref={(device) => `/devices/${device.id}`}
        empty={{
          filtered: 'No unit matches this search or these filters.',
          none: writer
            ? 'No units in the inventory yet. Add one, or import a CSV file.'
            : 'No units in the inventory yet.',
        }}
      />

      <FormDialog
        open={dialog === 'add'}
        onClose={() => setDialog(null)}
        title="Add a unit to stock"
        description="One unit with its identifiers. For many units, import a CSV file."
        testId="dialog-add-unit"
      >
        {models.isLoading ? (
          <p className="text-muted-foreground text-sm">Loading the models…</p>
        ) : activeModels.length === 0 ? (
          <div className="grid grid-cols-1 gap-3 text-sm" data-testid="text-no-models">
            <p>There is no active device model yet: add the model first, then its units.</p>
            <Button className="w-fit" onClick={() => navigate('/devices?tab=models')}>
              Go to models
            </Button>
          </div>
        ) : (
          <UnitForm
            models={activeModels}
            onCancel={() => setDialog(null)}
            onCreated={(device) => {
              setDialog(null);
              toast({ title: 'Unit added', description: `${device.serialNumber} is in stock.` });
              navigate(`/devices/${device.id}`);
            }}
          />
        )}
      </FormDialog>

      <FormDialog
        open={dialog === 'import'}
        onClose={() => setDialog(null)}
        title="Import units from a CSV file"
        description="Receive many units at once, checked row by row."
        wide
        testId="dialog-import-units"
      >
        <ImportForm onDone={() => setDialog(null)} />
      </FormDialog>
    </div>
  );
}
