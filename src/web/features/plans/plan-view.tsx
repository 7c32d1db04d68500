import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { DeviceModel } from '@/contracts/devices';
import type { Plan } from '@/contracts/plans';
import { formatMoney } from '@/domain/money';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import {
  ON_WIDE,
  ON_WIDER,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/web/components/ui/table';
import { CATEGORY_LABELS } from '@/web/features/devices/format';
import { formatDateTime, formatDay } from '@/web/lib/format';
import {
  ALLOCATION_LABELS,
  FREQUENCY_LABELS,
  LATE_FEE_LABELS,
  METHOD_LABELS,
  PERIOD_NAMES,
  percentText,
  termsText,
} from './format';
import { PlanStatusBadge } from './status-badge';

/** Every term of a plan version, read-only. */
export function PlanTerms({ plan, models }: { plan: Plan; models: readonly DeviceModel[] }) {
  const money = (minor: number) => formatMoney(minor, plan.currency);
  const [one] = PERIOD_NAMES[plan.frequency];
  const days = (value: number | null, never: string) =>
    value === null ? never : `${value} ${value === 1 ? 'day' : 'days'} overdue`;
  const modelNames = plan.eligibleModelIds.map(
    (id) => models.find((model) => model.id === id)?.name ?? 'Unknown model',
  );
  return (
    <Card data-testid="card-plan-terms">
      <CardHeader>
        <CardTitle>Terms of version {plan.version}</CardTitle>
        {plan.description && (
          <CardDescription className="whitespace-pre-wrap">{plan.description}</CardDescription>
        )}
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        <Group title="Repayment">
          <Item label="Frequency">{FREQUENCY_LABELS[plan.frequency]}</Item>
          <Item label="Allowed terms">
            <span data-testid="text-plan-terms">{termsText(plan)}</span>
          </Item>
          <Item label="APR (nominal)">
            <span data-testid="text-plan-apr">{percentText(plan.apr)}</span>
          </Item>
          <Item label="Interest method">{METHOD_LABELS[plan.interestMethod]}</Item>
          <Item label="Instalment multiple">
            {plan.installmentMultiple ? money(plan.installmentMultiple) : 'None (to the minor unit)'}
          </Item>
        </Group>
        <Group title="Deposit and fees">
          <Item label="Minimum deposit">
            {percentText(plan.minDepositPercent)}
            {plan.minDepositAmount ? `, at least ${money(plan.minDepositAmount)}` : ''}
          </Item>
          <Item label={`Service fee per ${one}`}>{plan.serviceFee ? money(plan.serviceFee) : 'None'}</Item>
          <Item label="Early-settlement discount">{percentText(plan.earlySettlementDiscountPercent)}</Item>
        </Group>
        <Group title="Arrears">
          <Item label="Late fee">
            {plan.lateFeeKind === 'none'
              ? LATE_FEE_LABELS.none
              : plan.lateFeeKind === 'flat'
                ? `${money(plan.lateFeeValue)} per overdue instalment`
                : `${percentText(plan.lateFeeValue)} of the overdue instalment`}
          </Item>
          <Item label="Grace days">{plan.graceDays}</Item>
          <Item label="Lock device">{days(plan.lockAfterDays, 'Never automatically')}</Item>
          <Item label="Default">{days(plan.defaultAfterDays, 'Never automatically')}</Item>
          <Item label="Payments beyond what is due">{ALLOCATION_LABELS[plan.allocationStrategy]}</Item>
        </Group>
        <Group title="Eligibility">
          <Item label="Categories">
            {plan.eligibleCategories.length
              ? plan.eligibleCategories.map((category) => CATEGORY_LABELS[category] ?? category).join(', ')
              : 'Any'}
          </Item>
          <Item label="Models">{modelNames.length ? modelNames.join(', ') : 'Any'}</Item>
        </Group>
      </CardContent>
    </Card>
  );
}

/** The plan family's versions, oldest first, with links and the one on screen marked. */
export function PlanVersions({ plan }: { plan: Plan & { versions: Plan[] } }) {
  return (
    <Card data-testid="card-plan-versions">
      <CardHeader>
        <CardTitle>Versions of {plan.code}</CardTitle>
        <CardDescription>
          Contracts keep the version they were made on. Editing an active version creates the next version as
          a draft; activating it retires the one before.
        </CardDescription>
      </CardHeader>
      <CardContent className="p-0 pb-2">
        <Table aria-label={`Versions of ${plan.code}`} data-testid="table-plan-versions">
          <TableHeader>
            <TableRow>
              <TableHead>Version</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">APR</TableHead>
              <TableHead className={ON_WIDE}>Created</TableHead>
              <TableHead className={ON_WIDE}>Activated</TableHead>
              <TableHead className={ON_WIDER}>Retired</TableHead>
              <TableHead className="text-right">Contracts</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {[...plan.versions].reverse().map((version) => {
              const current = version.id === plan.id;
              return (
                <TableRow
                  key={version.id}
                  className={current ? 'bg-muted/60' : undefined}
                  data-testid={`row-version-${version.version}`}
                >
                  <TableCell>
                    {current ? (
                      <span className="font-medium" aria-current="page">
                        v{version.version} (shown)
                      </span>
                    ) : (
                      <Link
                        href={`/service-plans/${version.id}`}
                        className="font-medium text-primary hover:underline"
                        data-testid={`link-version-${version.version}`}
                      >
                        v{version.version}
                      </Link>
                    )}
                  </TableCell>
                  <TableCell>
                    <PlanStatusBadge status={version.status} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{percentText(version.apr)}</TableCell>
                  <TableCell className={ON_WIDE}>{formatDay(version.createdAt)}</TableCell>
                  <TableCell className={ON_WIDE}>{formatDay(version.activatedAt)}</TableCell>
                  <TableCell className={ON_WIDER}>{formatDay(version.retiredAt)}</TableCell>
                  <TableCell className="text-right tabular-nums">{version.contracts}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

export function planTimeline(plan: Plan): string {
  if (plan.status === 'active') return `Active since ${formatDateTime(plan.activatedAt)}`;
  if (plan.status === 'retired') return `Retired ${formatDateTime(plan.retiredAt)}`;
  return `Draft since ${formatDateTime(plan.createdAt)}`;
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid grid-cols-1 gap-2">
      <h3 className="font-medium text-muted-foreground text-xs uppercase tracking-wide">{title}</h3>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">{children}</dl>
    </section>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="mt-0.5">{children}</dd>
    </div>
  );
}
