import { Plus } from 'lucide-react';
import { Link } from 'wouter';
import { PLAN_STATUSES, type Plan, planEndpoints } from '@/contracts/plans';
import { can } from '@/contracts/roles';
import { type Column, type FilterControl, ListPage, type ListState } from '@/web/components/data-list';
import { Button } from '@/web/components/ui/button';
import { useAuth } from '@/web/hooks/use-auth';
import { formatDay } from '@/web/lib/format';
import { FREQUENCY_LABELS, METHOD_LABELS, PLAN_STATUS_LABELS, percentText, termsText } from './format';
import { PlanStatusBadge } from './status-badge';

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
  { key: 'created', header: 'Created', sort: 'createdAt', wide: true, cell: (p) => formatDay(p.createdAt) },
];

/** With a status filter, "Active plans" means every active version, even where a newer draft exists. */
const everyVersionByStatus = (state: ListState): ListState =>
  state.filters.status ? { ...state, filters: { ...state.filters, allVersions: 'true' } } : state;

const FILTERS: FilterControl[] = [
  {
    name: 'status',
    label: 'Status',
    allLabel: 'All statuses',
    options: PLAN_STATUSES.map((status) => [status, PLAN_STATUS_LABELS[status]] as const),
    testId: 'plan-status',
  },
  {
    name: 'frequency',
    label: 'Frequency',
    allLabel: 'Any frequency',
    options: Object.entries(FREQUENCY_LABELS),
    testId: 'plan-frequency',
  },
  {
    name: 'allVersions',
    label: 'Versions',
    allLabel: 'Newest version of each',
    options: [['true', 'Every version']],
    testId: 'plan-versions',
  },
];

/** /service-plans: the plans on offer (newest version of each by default), searched and filtered. */
export function PlansList() {
  const { user } = useAuth();
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
      <ListPage<Plan>
        endpoint={planEndpoints.list}
        initial={{ sort: 'code', order: 'asc' }}
        queryOf={everyVersionByStatus}
        label="Service plans"
        testId="plans"
        searchPlaceholder="Search code or name"
        filters={FILTERS}
        columns={COLUMNS}
        rowHref={(plan) => `/service-plans/${plan.id}`}
        empty={{ filtered: 'No plan matches this search or these filters.', none: 'No service plans yet.' }}
      />
    </div>
  );
}
