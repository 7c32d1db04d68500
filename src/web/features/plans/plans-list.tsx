import { Plus } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { PLAN_STATUSES, type Plan } from '@/contracts/plans';
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
import { formatDate } from '@/web/features/admin-users/format';
import { useAuth } from '@/web/hooks/use-auth';
import { errorMessage } from '@/web/lib/queryClient';
import { FREQUENCY_LABELS, METHOD_LABELS, PLAN_STATUS_LABELS, percentText, termsText } from './format';
import { PLANS_ENDPOINT } from './plan-form';
import { PlanStatusBadge } from './status-badge';

const LIST_DEFAULTS = {
  sort: 'code',
  order: 'asc',
  filters: ['status', 'frequency', 'allVersions'],
} as const;

const COLUMNS: ReadonlyArray<Column<Plan>> = [
  {
    key: 'code',
    header: 'Code',
    sort: 'code',
    cell: (plan) => (
      <span className="grid grid-cols-1">
        <span className="font-mono text-xs">
          {plan.code} <span className="text-muted-foreground">v{plan.version}</span>
        </span>
        <span className="font-normal text-muted-foreground text-xs md:hidden">{plan.name}</span>
      </span>
    ),
  },
  { key: 'name', header: 'Name', sort: 'name', wide: true, cell: (plan) => plan.name },
  { key: 'status', header: 'Status', cell: (plan) => <PlanStatusBadge status={plan.status} /> },
  {
    key: 'frequency',
    header: 'Terms',
    wide: true,
    cell: (plan) => (
      <span className="grid grid-cols-1">
        <span>{FREQUENCY_LABELS[plan.frequency]}</span>
        <span className="text-muted-foreground text-xs">{termsText(plan)}</span>
      </span>
    ),
  },
  {
    key: 'apr',
    header: 'APR',
    sort: 'apr',
    align: 'right',
    cell: (plan) => percentText(plan.apr),
  },
  { key: 'method', header: 'Method', wide: true, cell: (plan) => METHOD_LABELS[plan.interestMethod] },
  {
    key: 'deposit',
    header: 'Min deposit',
    wide: true,
    align: 'right',
    cell: (p) => percentText(p.minDepositPercent),
  },
  { key: 'contracts', header: 'Contracts', wide: true, align: 'right', cell: (plan) => plan.contracts },
  { key: 'created', header: 'Created', sort: 'createdAt', wide: true, cell: (p) => formatDate(p.createdAt) },
];

/** /service-plans: the plans on offer (newest version of each by default), searched and filtered. */
export function PlansList() {
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const list = useListState(LIST_DEFAULTS);
  const { state } = list;
  // "Active plans" means every active version, even where a newer draft exists.
  const query = state.filters.status
    ? { ...state, filters: { ...state.filters, allVersions: 'true' } }
    : state;
  const page = useList<Plan>(PLANS_ENDPOINT, query);
  const filtered = !!state.q || Object.values(state.filters).some(Boolean);

  return (
    <div className="grid grid-cols-1 min-w-0">
      {can(user, 'plans.write') && (
        <div className="mb-4 flex flex-wrap gap-2">
          <Button asChild>
            <Link href="/service-plans/new" data-testid="button-new-plan">
              <Plus aria-hidden="true" /> New plan
            </Link>
          </Button>
        </div>
      )}
      <ListToolbar
        search={state.q}
        onSearch={list.setSearch}
        placeholder="Search code or name"
        csvHref={csvHref(PLANS_ENDPOINT, query)}
        onClear={filtered ? list.clear : undefined}
        testId="plans"
      >
        <FilterSelect
          label="Status"
          allLabel="All statuses"
          value={state.filters.status ?? ''}
          onChange={(value) => list.setFilter('status', value)}
          options={PLAN_STATUSES.map((status) => [status, PLAN_STATUS_LABELS[status]] as const)}
          testId="plan-status"
        />
        <FilterSelect
          label="Frequency"
          allLabel="Any frequency"
          value={state.filters.frequency ?? ''}
          onChange={(value) => list.setFilter('frequency', value)}
          options={Object.entries(FREQUENCY_LABELS)}
          testId="plan-frequency"
        />
        <FilterSelect
          label="Versions"
          allLabel="Newest version of each"
          value={state.filters.allVersions ?? ''}
          onChange={(value) => list.setFilter('allVersions', value)}
          options={[['true', 'Every version']]}
          testId="plan-versions"
        />
      </ListToolbar>
      <DataTable
        label="Service plans"
        columns={COLUMNS}
        rows={page.data?.items}
        rowKey={(plan) => plan.id}
        loading={page.isFetching}
        error={page.error ? `The plans could not be loaded: ${errorMessage(page.error)}` : null}
        state={state}
        onSort={list.sortBy}
        rowHref={(plan) => `/service-plans/${plan.id}`}
        onOpen={navigate}
        empty={filtered ? 'No plan matches this search or these filters.' : 'No service plans yet.'}
        testId="plans"
      />
      {page.data && (
        <Pagination
          page={page.data.page}
          pageSize={page.data.pageSize}
          total={page.data.total}
          onPage={list.setPage}
          testId="plans"
        />
      )}
    </div>
  );
}
