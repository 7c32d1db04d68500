import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useLocation } from 'wouter';
import { CONTRACT_STATUSES, type ContractRow } from '@/contracts/contracts';
import type { Customer } from '@/contracts/customers';
import type { Plan } from '@/contracts/plans';
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
import { formatBusinessDate } from '@/web/features/calculator/inputs';
import { apiJson, errorMessage } from '@/web/lib/queryClient';
import { BUCKETS, money, PER_PERIOD, STATUS_LABELS } from './contract-rules';
import { ContractStatusBadge } from './status-badge';

const ENDPOINT = '/api/contracts';
const FILTERS = ['status', 'bucket', 'minDpd', 'customerId', 'planId', 'from', 'to'] as const;
const DEFAULTS = { sort: 'createdAt', order: 'desc' as const, filters: FILTERS };

const STATUS_OPTIONS = CONTRACT_STATUSES.map((status) => [status, STATUS_LABELS[status]] as const);
const BUCKET_OPTIONS = BUCKETS.map(
  (bucket) => [bucket, bucket === 'current' ? 'Current' : `${bucket} days`] as const,
);
const ARREARS_OPTIONS = [
  ['1', 'In arrears (1+ days)'],
  ['31', '31+ days past due'],
  ['91', '91+ days past due'],
] as const;

const COLUMNS: ReadonlyArray<Column<ContractRow>> = [
  {
    key: 'number',
    header: 'Contract',
    sort: 'number',
    cell: (c) => (
      <span className="flex flex-col items-start gap-1">
        {c.number}
        <span className="md:hidden">
          <ContractStatusBadge status={c.status} />
        </span>
      </span>
    ),
  },
  {
    key: 'customer',
    header: 'Customer',
    cell: (c) => (
      <div className="min-w-0">
        <div className="truncate">{c.customerName}</div>
        <div className="text-muted-foreground text-xs tabular-nums">{c.customerPhone}</div>
      </div>
    ),
  },
  {
    key: 'device',
    header: 'Device',
    wide: true,
    cell: (c) => (
      <div className="min-w-0">
        <div className="truncate">{c.deviceModel}</div>
        <div className="font-mono text-muted-foreground text-xs">{c.deviceSerial}</div>
      </div>
    ),
  },
  { key: 'status', header: 'Status', wide: true, cell: (c) => <ContractStatusBadge status={c.status} /> },
  {
    key: 'payment',
    header: 'Payment',
    align: 'right',
    wide: true,
    cell: (c) => (
      <span className="whitespace-nowrap">
        {money(c.regularPayment, c.currency)}{' '}
        <span className="text-muted-foreground text-xs">{PER_PERIOD[c.frequency] ?? ''}</span>
      </span>
    ),
  },
  {
    key: 'outstanding',
    header: 'Outstanding',
    sort: 'outstanding',
    align: 'right',
    cell: (c) => <span className="whitespace-nowrap">{money(c.outstandingTotal, c.currency)}</span>,
  },
  {
    key: 'dpd',
    header: 'DPD',
    sort: 'dpd',
    align: 'right',
    wide: true,
    cell: (c) => (
      <span className={c.dpd > 0 ? 'font-medium text-destructive' : 'text-muted-foreground'}>{c.dpd}</span>
    ),
  },
  {
    key: 'nextDue',
    header: 'Next due',
    wide: true,
    cell: (c) => (c.nextDueDate ? formatBusinessDate(c.nextDueDate) : '—'),
  },
  {
    key: 'createdAt',
    header: 'Created',
    sort: 'createdAt',
    wide: true,
    cell: (c) => <span className="whitespace-nowrap">{formatBusinessDate(c.createdAt.slice(0, 10))}</span>,
  },
];

/** The contracts list: server-side search, filters, sort and pages, all kept in the address bar. */
export function ContractsList() {
  const list = useListState(DEFAULTS);
  const { state } = list;
  const [, navigate] = useLocation();
  const page = useList<ContractRow>(ENDPOINT, state);
  const { customerId, planId } = state.filters;
  const customer = useQuery({
    queryKey: ['/api/customers', customerId],
    queryFn: () => apiJson<Customer>('GET', `/api/customers/${customerId}`),
    enabled: !!customerId,
  });
  const plan = useQuery({
    queryKey: ['/api/service-plans', planId],
    queryFn: () => apiJson<Plan>('GET', `/api/service-plans/${planId}`),
    enabled: !!planId,
  });
  const filtered = !!state.q || Object.values(state.filters).some(Boolean);

  return (
    <div className="min-w-0">
      <ListToolbar
        search={state.q}
        onSearch={list.setSearch}
        placeholder="Search number, name, phone, serial"
        csvHref={csvHref(ENDPOINT, state)}
        onClear={filtered ? list.clear : undefined}
        testId="contracts"
      >
        <div className="flex flex-wrap gap-2">
          <FilterSelect
            label="Status"
            allLabel="All statuses"
            value={state.filters.status ?? ''}
            onChange={(value) => list.setFilter('status', value)}
            options={STATUS_OPTIONS}
            testId="status"
          />
          <FilterSelect
            label="Bucket"
            allLabel="All buckets"
            value={state.filters.bucket ?? ''}
            onChange={(value) => list.setFilter('bucket', value)}
            options={BUCKET_OPTIONS}
            testId="bucket"
          />
          <FilterSelect
            label="Arrears"
            allLabel="Any arrears"
            value={state.filters.minDpd ?? ''}
            onChange={(value) => list.setFilter('minDpd', value)}
            options={ARREARS_OPTIONS}
            testId="arrears"
          />
        </div>
      </ListToolbar>
      {(customerId || planId) && (
        <div className="mb-3 flex flex-wrap gap-2" data-testid="list-contract-scope">
          {customerId && (
            <ScopeChip
              label={`Customer: ${customer.data ? `${customer.data.fullName} (${customer.data.accountNumber})` : '…'}`}
              onRemove={() => list.setFilter('customerId', '')}
              testId="customer"
            />
          )}
          {planId && (
            <ScopeChip
              label={`Plan: ${plan.data ? `${plan.data.code} · ${plan.data.name}` : '…'}`}
              onRemove={() => list.setFilter('planId', '')}
              testId="plan"
            />
          )}
        </div>
      )}
      <DataTable
        label="Contracts"
        columns={COLUMNS}
        rows={page.data?.items}
        rowKey={(c) => c.id}
        loading={page.isFetching}
        error={page.error ? `Contracts could not be loaded: ${errorMessage(page.error)}` : null}
        state={state}
        onSort={list.sortBy}
        rowHref={(c) => `/contracts/${c.id}`}
        onOpen={navigate}
        empty={
          filtered
            ? 'No contracts match this search and these filters.'
            : 'No contracts yet. Start one with “New contract”.'
        }
        testId="contracts"
      />
      {page.data && (
        <Pagination
          page={page.data.page}
          pageSize={page.data.pageSize}
          total={page.data.total}
          onPage={list.setPage}
          testId="contracts"
        />
      )}
    </div>
  );
}

function ScopeChip({ label, onRemove, testId }: { label: string; onRemove: () => void; testId: string }) {
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full border bg-muted/50 py-0.5 pr-1 pl-3 text-sm"
      data-testid={`chip-scope-${testId}`}
    >
      {label}
      <Button
        variant="ghost"
        size="icon"
        className="size-6 rounded-full"
        aria-label={`Remove filter ${label}`}
        onClick={onRemove}
        data-testid={`button-remove-scope-${testId}`}
      >
        <X className="size-3.5" aria-hidden="true" />
      </Button>
    </span>
  );
}
