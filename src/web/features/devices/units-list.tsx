import { FileUp, PackagePlus } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { DEVICE_CATEGORIES, DEVICE_STATUSES, type Device, LOCK_STATES } from '@/contracts/devices';
import { can } from '@/contracts/roles';
import {
  type Column,
  csvHref,
  DataTable,
  FilterSelect,
  ListToolbar,
  Pagination,
  useList,
  useListState,
} from '@/web/components/data-list';
import { Button } from '@/web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { formatDate } from '@/web/features/admin-users/format';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { errorMessage } from '@/web/lib/queryClient';
import { CATEGORY_LABELS, LOCK_LABELS, labelOf, STATUS_LABELS } from './format';
import { ImportForm } from './import-form';
import { DEVICES_ENDPOINT, useAllDeviceModels } from './queries';
import { DeviceStatusBadge } from './status-badge';
import { UnitForm } from './unit-form';

const LIST_DEFAULTS = {
  sort: 'createdAt',
  order: 'desc',
  filters: ['status', 'modelId', 'category', 'lockState'],
} as const;

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
    cell: (device) => formatDate(device.activeUntil),
  },
  { key: 'created', header: 'Received', sort: 'createdAt', wide: true, cell: (d) => formatDate(d.createdAt) },
];

/** The Units tab of /devices: every unit, searched, filtered, sorted and paged by the server. */
export function UnitsList() {
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const list = useListState(LIST_DEFAULTS);
  const { state } = list;
  const page = useList<Device>(DEVICES_ENDPOINT, state);
  const models = useAllDeviceModels();
  const [dialog, setDialog] = useState<'add' | 'import' | null>(null);
  const writer = can(user, 'inventory.write');
  const filtered = !!state.q || Object.values(state.filters).some(Boolean);
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
      <ListToolbar
        search={state.q}
        onSearch={list.setSearch}
        placeholder="Search serial, IMEI or model"
        csvHref={csvHref(DEVICES_ENDPOINT, state)}
        onClear={filtered ? list.clear : undefined}
        testId="units"
      >
        <FilterSelect
          label="Status"
          allLabel="All statuses"
          value={state.filters.status ?? ''}
          onChange={(value) => list.setFilter('status', value)}
          options={DEVICE_STATUSES.map((status) => [status, STATUS_LABELS[status]] as const)}
          testId="unit-status"
        />
        <FilterSelect
          label="Model"
          allLabel="All models"
          value={state.filters.modelId ?? ''}
          onChange={(value) => list.setFilter('modelId', value)}
          options={(models.data?.items ?? []).map((model) => [model.id, model.name] as const)}
          testId="unit-model"
        />
        <FilterSelect
          label="Category"
          allLabel="All categories"
          value={state.filters.category ?? ''}
          onChange={(value) => list.setFilter('category', value)}
          options={DEVICE_CATEGORIES.map(
            (category) => [category, CATEGORY_LABELS[category] ?? category] as const,
          )}
          testId="unit-category"
        />
        <FilterSelect
          label="Lock state"
          allLabel="Any lock state"
          value={state.filters.lockState ?? ''}
          onChange={(value) => list.setFilter('lockState', value)}
          options={LOCK_STATES.map((lock) => [lock, LOCK_LABELS[lock] ?? lock] as const)}
          testId="unit-lock"
        />
      </ListToolbar>
      <DataTable
        label="Device units"
        columns={COLUMNS}
        rows={page.data?.items}
        rowKey={(device) => device.id}
        loading={page.isFetching}
        error={page.error ? `The units could not be loaded: ${errorMessage(page.error)}` : null}
        state={state}
        onSort={list.sortBy}
        rowHref={(device) => `/devices/${device.id}`}
        onOpen={navigate}
        empty={
          filtered
            ? 'No unit matches this search or these filters.'
            : writer
              ? 'No units in the inventory yet. Add one, or import a CSV file.'
              : 'No units in the inventory yet.'
        }
        testId="units"
      />
      {page.data && (
        <Pagination
          page={page.data.page}
          pageSize={page.data.pageSize}
          total={page.data.total}
          onPage={list.setPage}
          testId="units"
        />
      )}

      <Dialog open={dialog === 'add'} onOpenChange={(open) => setDialog(open ? 'add' : null)}>
        <DialogContent
          className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-xl"
          data-testid="dialog-add-unit"
        >
          <DialogHeader>
            <DialogTitle>Add a unit to stock</DialogTitle>
            <DialogDescription>
              One unit with its identifiers. For many units, import a CSV file.
            </DialogDescription>
          </DialogHeader>
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
        </DialogContent>
      </Dialog>

      <Dialog open={dialog === 'import'} onOpenChange={(open) => setDialog(open ? 'import' : null)}>
        <DialogContent
          className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl"
          data-testid="dialog-import-units"
        >
          <DialogHeader>
            <DialogTitle>Import units from a CSV file</DialogTitle>
            <DialogDescription>Receive many units at once, checked row by row.</DialogDescription>
          </DialogHeader>
          <ImportForm onDone={() => setDialog(null)} />
        </DialogContent>
      </Dialog>
    </div>
  );
}
