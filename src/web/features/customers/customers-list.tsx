import { useId } from 'react';
import { type CustomerListItem, customerEndpoints, KYC_STATUSES, RISK_GRADES } from '@/contracts/customers';
import { can } from '@/contracts/roles';
import { type Column, type FilterControl, ListPage, TwoLineCell } from '@/web/components/data-list';
import { Input } from '@/web/components/ui/input';
import { useAuth } from '@/web/hooks/use-auth';
import { formatDay } from '@/web/lib/format';
import { KycBadge, RiskGrade } from './badges';
import { KYC_STATUS_LABELS } from './format';
import { useCustomerTags, useRegions, useStaff } from './queries';

const KYC_OPTIONS = KYC_STATUSES.map((status) => [status, KYC_STATUS_LABELS[status]] as const);
const GRADE_OPTIONS = RISK_GRADES.map((grade) => [grade, `Grade ${grade}`] as const);

const COLUMNS: ReadonlyArray<Column<CustomerListItem>> = [
  {
    key: 'accountNumber',
    header: 'Account',
    sort: 'accountNumber',
    cell: (c) => <span className="whitespace-nowrap font-mono text-xs">{c.accountNumber}</span>,
  },
  {
    key: 'name',
    header: 'Name',
    sort: 'name',
    cell: (c) => (
      <TwoLineCell
        main={c.fullName}
        sub={c.phone}
        mainClassName="font-medium"
        subClassName="tabular-nums md:hidden"
      />
    ),
  },
  {
    key: 'phone',
    header: 'Phone',
    wide: true,
    cell: (c) => <span className="whitespace-nowrap tabular-nums">{c.phone}</span>,
  },
  {
    key: 'nationalId',
    header: 'National ID',
    wide: true,
    cell: (c) => <span className="whitespace-nowrap font-mono text-xs">{c.nationalId ?? '—'}</span>,
  },
  { key: 'region', header: 'Region', wide: true, cell: (c) => c.region ?? '—' },
  { key: 'kyc', header: 'KYC', cell: (c) => <KycBadge status={c.kycStatus} /> },
  {
    key: 'risk',
    header: 'Risk',
    sort: 'riskScore',
    cell: (c) => <RiskGrade grade={c.riskGrade} score={c.riskScore} />,
  },
  {
    key: 'agent',
    header: 'Agent',
    wide: true,
    cell: (c) => c.assignedAgent?.name ?? <span className="text-muted-foreground">—</span>,
  },
  {
    key: 'createdAt',
    header: 'Created',
    sort: 'createdAt',
    wide: true,
    cell: (c) => <span className="whitespace-nowrap">{formatDay(c.createdAt)}</span>,
  },
];

/** Every customer: server-side search, filters, sort and pages, kept in the address bar. */
export function CustomersList() {
  const { user } = useAuth();
  const regions = useRegions();
  const tags = useCustomerTags();
  const staff = useStaff(user);

  const agentOptions: [string, string][] = [];
  if (user) agentOptions.push([user.id, 'Assigned to me']);
  for (const person of staff.data ?? []) {
    if (person.id !== user?.id) agentOptions.push([person.id, `${person.firstName} ${person.lastName}`]);
  }
  const filters: FilterControl[] = [
    {
      name: 'kycStatus',
      label: 'KYC status',
      allLabel: 'Any KYC status',
      options: KYC_OPTIONS,
      testId: 'kyc-status',
    },
    {
      name: 'region',
      label: 'Region',
      allLabel: 'All regions',
      options: (regions.data ?? []).map((region) => [region, region] as const),
      testId: 'region',
      keepCurrent: true,
    },
    {
      name: 'tag',
      label: 'Tag',
      allLabel: 'Any tag',
      options: (tags.data ?? []).map((tag) => [tag, tag] as const),
      testId: 'tag',
      keepCurrent: true,
    },
    {
      name: 'riskGrade',
      label: 'Risk grade',
      allLabel: 'Any risk grade',
      options: GRADE_OPTIONS,
      testId: 'risk-grade',
    },
    {
      name: 'assignedAgentId',
      label: 'Assigned agent',
      allLabel: 'Any agent',
      options: agentOptions,
      testId: 'agent',
      hideWhenEmpty: true,
    },
  ];

  return (
    <ListPage<CustomerListItem>
      endpoint={customerEndpoints.list}
      label="Customers"
      testId="customers"
      searchPlaceholder="Search name, phone, account or ID"
      filters={filters}
      toolbar={(list) => (
        <CreatedRange
          from={list.state.filters.createdFrom ?? ''}
          to={list.state.filters.createdTo ?? ''}
          onChange={list.setFilter}
        />
      )}
      columns={COLUMNS}
      rowHref={(c) => `/customers/${c.id}`}
      empty={{
        filtered: 'No customers match this search and these filters.',
        none: can(user, 'customers.write')
          ? 'No customers yet. Add the first one with “New customer”.'
          : 'No customers yet.',
      }}
    />
  );
}

/** Created between two dates (either may be left open). */
function CreatedRange({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (name: string, value: string) => void;
}) {
  const id = useId();
  const reversed = !!from && !!to && from > to;
  return (
    <fieldset className="flex flex-wrap items-center gap-2 text-sm">
      <legend className="sr-only">Created between</legend>
      <label htmlFor={`${id}-from`} className="text-muted-foreground">
        Created from
      </label>
      <Input
        id={`${id}-from`}
        type="date"
        value={from}
        max={to || undefined}
        onChange={(event) => onChange('createdFrom', event.target.value)}
        className="h-9 w-auto dark:[color-scheme:dark]"
        aria-invalid={reversed}
        data-testid="input-created-from"
      />
      <label htmlFor={`${id}-to`} className="text-muted-foreground">
        to
      </label>
      <Input
        id={`${id}-to`}
        type="date"
        value={to}
        min={from || undefined}
        onChange={(event) => onChange('createdTo', event.target.value)}
        className="h-9 w-auto dark:[color-scheme:dark]"
        aria-invalid={reversed}
        data-testid="input-created-to"
      />
    </fieldset>
  );
}
