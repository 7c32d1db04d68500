import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { CONTRACT_STATUSES, type ContractRow, contractEndpoints } from '@/contracts/contracts';
import { customerEndpoints } from '@/contracts/customers';
import { planEndpoints } from '@/contracts/plans';
import {
  type Column,
  type FilterControl,
  ListPage,
  type ListStateApi,
  TwoLineCell,
} from '@/web/components/data-list';
import { Button } from '@/web/components/ui/button';
import { optionPairs, useOrganisationOptions } from '@/web/features/settings/organisation-options-query';
import { api } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';
import { PER_PERIOD, STATUS_LABELS } from './contract-rules';
import { ContractStatusBadge } from './status-badge';

const STATUS_OPTIONS = CONTRACT_STATUSES.map((status) => [status, STATUS_LABELS[status]] as const);
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
    cell: (c) => <TwoLineCell main={c.customerName} sub={c.customerPhone} subClassName="tabular-nums" />,
  },
  {
    key: 'device',
    header: 'Device',
    wide: true,
    cell: (c) => <TwoLineCell main={c.deviceModel} sub={c.deviceSerial} subClassName="font-mono" />,
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

/** The bucket filter's choices: the buckets the organisation configured (GET /api/settings/options). */
function useBucketOptions(): ReadonlyArray<readonly [string, string]> {
  return optionPairs(useOrganisationOptions().data?.delinquencyBuckets);
}

/** The contracts list: server-side search, filters, sort and pages, all kept in the address bar. */
export function ContractsList() {
  const filters: FilterControl[] = [
    { name: 'status', label: 'Status', allLabel: 'All statuses', options: STATUS_OPTIONS, testId: 'status' },
    {
      name: 'bucket',
      label: 'Bucket',
      allLabel: 'All buckets',
      options: useBucketOptions(),
      testId: 'bucket',
    },
    {
      name: 'minDpd',
      label: 'Arrears',
      allLabel: 'Any arrears',
      options: ARREARS_OPTIONS,
      // The dashboard's PAR cards link to other thresholds (PAR1: 2+ days).
      keepCurrent: (days) => `${days}+ days past due`,
      testId: 'arrears',
    },
  ];
  return (
    <ListPage<ContractRow>
      endpoint={contractEndpoints.list}
      label="Contracts"
      testId="contracts"
      searchPlaceholder="Search number, name, phone, serial"
      filters={filters}
      header={(list) => <ContractScope list={list} />}
      columns={COLUMNS}
      rowHref={(c) => `/contracts/${c.id}`}
      empty={{
        filtered: 'No contracts match this search and these filters.',
        none: 'No contracts yet. Start one with “New contract”.',
      }}
    />
  );
}

/** The customer or plan the list is narrowed to (from their pages), named, each removable. */
function ContractScope({ list }: { list: ListStateApi }) {
  const { customerId, planId } = list.state.filters;
  const customer = useQuery({
    queryKey: queryKeys.customers.detail(customerId ?? ''),
    queryFn: () => api(customerEndpoints.get, { params: { id: customerId ?? '' } }),
    enabled: !!customerId,
  });
  const plan = useQuery({
    queryKey: queryKeys.plans.detail(planId ?? ''),
    queryFn: () => api(planEndpoints.get, { params: { id: planId ?? '' } }),
    enabled: !!planId,
  });
  if (!customerId && !planId) return null;
  return (
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
