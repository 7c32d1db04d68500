import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Archive, CircleCheck, Info, Pencil } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { DeviceModel } from '@/contracts/devices';
import { type Plan, planEndpoints } from '@/contracts/plans';
import { can } from '@/contracts/roles';
import { toMinorUnits } from '@/domain/money';
import { AREAS } from '@/web/app/areas';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { BackLink, DetailPage, DetailPageStates, type DetailTexts } from '@/web/components/detail-page';
import { DelayedSpinner } from '@/web/components/loaders';
import { PageHeader } from '@/web/components/page-header';
import { RequirePermission } from '@/web/components/require-permission';
import { Button } from '@/web/components/ui/button';
import { useAllDeviceModels, useOrganisation } from '@/web/features/devices/queries';
import { PlanForm } from '@/web/features/plans/plan-form';
import { PlanTerms, PlanVersions, planTimeline } from '@/web/features/plans/plan-view';
import { SchedulePreview } from '@/web/features/plans/schedule-preview';
import { PlanStatusBadge } from '@/web/features/plans/status-badge';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

const AREA = AREAS['/service-plans'];
const MISSING: DetailTexts = {
  notFoundTitle: 'Plan not found',
  notFound: 'No service plan has this address',
  failed: 'The plan could not be loaded',
  list: { href: '/service-plans', label: 'Back to the plans' },
};

/** /service-plans/new and /service-plans/:id: a plan version, its family, and the form. */
export default function ServicePlanDetailPage() {
  const { id = '' } = useParams<{ id: string }>();
  if (id !== 'new') return <PlanPage id={id} />;
  return (
    <RequirePermission
      permission="plans.write"
      page={{ title: 'New service plan', icon: AREA.icon, above: <Back /> }}
      heading="You cannot create service plans"
      reason="Managers and administrators create service plans."
      testId="card-permission"
    >
      <NewPlan />
    </RequirePermission>
  );
}

function NewPlan() {
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const organisation = useOrganisation();
  const models = useAllDeviceModels();
  if (!user) return null;
  if (organisation.isLoading) return <DelayedSpinner />;
  return (
    <div className="flex min-w-0 flex-col">
      <Back />
      <PageHeader
        title="New service plan"
        icon={AREA.icon}
        description="A plan starts as a draft: check its example schedule, then activate it to offer it."
      />
      <PlanForm
        currency={organisation.data?.currency ?? 'USD'}
        aprCap={organisation.data?.aprCap ?? null}
        models={models.data?.items ?? []}
        onCancel={() => navigate('/service-plans')}
        onSaved={(plan) => {
          toast({ title: 'Draft plan created', description: `${plan.code} v${plan.version} is a draft.` });
          navigate(`/service-plans/${plan.id}`);
        }}
      />
    </div>
  );
}

function PlanPage({ id }: { id: string }) {
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const organisation = useOrganisation();
  const models = useAllDeviceModels();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<'activate' | 'retire' | null>(null);
  const query = useQuery({
    queryKey: queryKeys.plans.detail(id),
    queryFn: () => api(planEndpoints.get, { params: { id } }),
    staleTime: 0,
  });
  const plan = query.data;

  const act = useMutation({
    mutationFn: (action: 'activate' | 'retire') => api(planEndpoints[action], { params: { id } }),
    onSuccess: (updated, action) => {
      setConfirm(null);
      void invalidate(queryClient, 'planSaved');
      toast({
        title: action === 'activate' ? 'Plan activated' : 'Plan retired',
        description:
          action === 'activate'
            ? `${updated.code} v${updated.version} is offered for new contracts.`
            : `${updated.code} v${updated.version} takes no new contracts.`,
      });
    },
    onError: (error) => {
      setConfirm(null);
      toast({ variant: 'destructive', title: 'Not done', description: errorMessage(error) });
    },
  });

  if (!plan) return <DetailPageStates query={query} area={AREA} back={<Back />} texts={MISSING} />;

  const writer = can(user, 'plans.write');
  const active = plan.versions.find((version) => version.status === 'active' && version.id !== plan.id);
  const draft = plan.versions.find((version) => version.status === 'draft' && version.id !== plan.id);
  const nextVersion = Math.max(...plan.versions.map((version) => version.version)) + 1;
  const currency = plan.currency;

  return (
    <DetailPage
      area={AREA}
      back={<Back />}
      title={plan.name}
      tabTitle={`${plan.code} v${plan.version}`}
      testId="page-plan-detail"
      description={
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-mono" data-testid="text-plan-code">
            {plan.code}
          </span>
          <span data-testid="text-plan-version">version {plan.version}</span>
          <PlanStatusBadge status={plan.status} testId="badge-plan-status" />
          <span className="text-xs">{planTimeline(plan)}</span>
        </span>
      }
      actions={
        writer &&
        !editing && (
          <div className="flex flex-wrap gap-2">
            {plan.status === 'draft' && (
              <Button onClick={() => setConfirm('activate')} data-testid="button-activate-plan">
                <CircleCheck aria-hidden="true" /> Activate
              </Button>
            )}
            {!(plan.status !== 'draft' && draft) && (
              <Button variant="outline" onClick={() => setEditing(true)} data-testid="button-edit-plan">
                <Pencil aria-hidden="true" />
                {plan.status === 'draft' ? 'Edit draft' : `Edit as version ${nextVersion}`}
              </Button>
            )}
            {plan.status !== 'retired' && (
              <Button variant="outline" onClick={() => setConfirm('retire')} data-testid="button-retire-plan">
                <Archive aria-hidden="true" /> Retire
              </Button>
            )}
          </div>
        )
      }
    >
      <StatusNote plan={plan} active={active} draft={draft} writer={writer} />

      {editing ? (
        <PlanForm
          plan={plan}
          currency={currency}
          aprCap={organisation.data?.aprCap ?? null}
          models={models.data?.items ?? []}
          onCancel={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            if (saved.id !== plan.id) {
              toast({
                title: `Version ${saved.version} saved as a draft`,
                description: `Version ${plan.version} stays ${plan.status} until you activate the new one.`,
              });
              navigate(`/service-plans/${saved.id}`);
            } else {
              toast({ title: 'Draft saved', description: `${saved.code} v${saved.version} is updated.` });
            }
          }}
        />
      ) : (
        <div className="grid grid-cols-1 items-start gap-4 xl:grid-cols-[minmax(0,1fr)_24rem]">
          <div className="grid grid-cols-1 min-w-0 gap-4">
            <PlanTerms plan={plan} models={models.data?.items ?? []} />
            <PlanVersions plan={plan} />
          </div>
          <SchedulePreview
            terms={plan}
            currency={currency}
            examplePrice={examplePriceOf(plan, models.data?.items ?? [])}
            key={`${plan.id}-${models.data ? 'models' : 'none'}`}
          />
        </div>
      )}

      <ConfirmDialog
        open={confirm === 'activate'}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={`Activate ${plan.code} version ${plan.version}?`}
        description={
          active
            ? `New contracts will use these terms. Version ${active.version}, active now, will be retired; its ${active.contracts} contract(s) keep their terms.`
            : 'New contracts can use these terms. Once active, the terms never change: edits make a new version.'
        }
        confirmLabel="Activate"
        pending={act.isPending}
        onConfirm={() => act.mutate('activate')}
      />
      <ConfirmDialog
        open={confirm === 'retire'}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={`Retire ${plan.code} version ${plan.version}?`}
        description={
          plan.status === 'draft'
            ? 'The draft will never be offered. This cannot be undone.'
            : `No new contract can use this plan. Its ${plan.contracts} contract(s) keep their terms. This cannot be undone; to offer the plan again, edit it into a new version and activate that.`
        }
        confirmLabel="Retire"
        destructive
        pending={act.isPending}
        onConfirm={() => act.mutate('retire')}
      />
    </DetailPage>
  );
}

function StatusNote({
  plan,
  active,
  draft,
  writer,
}: {
  plan: Plan;
  active: Plan | undefined;
  draft: Plan | undefined;
  writer: boolean;
}) {
  const link = (target: Plan, text: string) => (
    <Link href={`/service-plans/${target.id}`} className="font-medium text-primary underline">
      {text}
    </Link>
  );
  let note: ReactNode = null;
  if (plan.status === 'draft') {
    note = (
      <>
        This draft is not offered yet.{' '}
        {active ? (
          <>Activating it retires {link(active, `version ${active.version}`)}, which is active now.</>
        ) : (
          'Activate it to offer it for new contracts.'
        )}
      </>
    );
  } else if (draft) {
    note = (
      <>
        {link(draft, `Version ${draft.version}`)} is a draft with new terms
        {writer ? ': edit or activate it there.' : '.'}
      </>
    );
  } else if (plan.status === 'retired') {
    note = active ? (
      <>Retired: no new contracts. The plan is offered as {link(active, `version ${active.version}`)}.</>
    ) : (
      'Retired: no new contracts. Its contracts keep these terms.'
    );
  }
  if (!note) return null;
  return (
    <div
      className="flex items-start gap-2 rounded-lg border bg-muted/40 px-3 py-2.5 text-sm"
      data-testid="text-plan-status-note"
    >
      <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      <p>{note}</p>
    </div>
  );
}

function examplePriceOf(plan: Plan, models: readonly DeviceModel[]) {
  const eligible = models.find(
    (model) =>
      model.active &&
      (!plan.eligibleModelIds.length || plan.eligibleModelIds.includes(model.id)) &&
      (!plan.eligibleCategories.length || plan.eligibleCategories.includes(model.category)),
  );
  return eligible?.retailPrice ?? toMinorUnits(500, plan.currency);
}

function Back() {
  return (
    <BackLink href="/service-plans" testId="link-back-plans">
      Service plans
    </BackLink>
  );
}
