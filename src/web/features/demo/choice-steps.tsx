import { CheckCircle2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { DEMO_CATEGORY_LABELS, type DemoDevice, type DemoPlan, demoDeposit } from '@/contracts/demo';
import { PERIOD_NOUN } from '@/web/features/calculator/inputs';
import { formatPercent } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { cn } from '@/web/lib/utils';
import { DevicePicture } from './device-picture';

/**
 * One choice of a radio group drawn as a card: a native radio (arrow keys move between choices,
 * Space picks), the whole card its label, a ring on the chosen one and on keyboard focus.
 */
function ChoiceCard({
  name,
  value,
  checked,
  onChange,
  testId,
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange: (value: string) => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <label
      className={cn(
        'relative flex cursor-pointer gap-3 rounded-xl border bg-card p-3 shadow-sm transition-colors hover:border-primary/50',
        'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
        checked && 'border-primary ring-1 ring-primary',
      )}
      data-testid={testId}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={() => onChange(value)}
        className="sr-only"
        data-testid={`radio-${testId}`}
      />
      {children}
      {checked && <CheckCircle2 className="absolute top-2 right-2 size-5 text-primary" aria-hidden="true" />}
    </label>
  );
}

export function DeviceChoices({
  devices,
  currency,
  selected,
  onSelect,
  labelledBy,
}: {
  devices: readonly DemoDevice[];
  currency: string;
  selected: string | null;
  onSelect: (id: string) => void;
  labelledBy: string;
}) {
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      {devices.map((device) => (
        <ChoiceCard
          key={device.id}
          name="demo-device"
          value={device.id}
          checked={selected === device.id}
          onChange={onSelect}
          testId={`choice-device-${device.id}`}
        >
          <DevicePicture imageId={device.imageId} category={device.category} className="size-20 shrink-0" />
          <span className="grid min-w-0 content-start gap-1">
            <span className="font-medium" data-testid={`text-device-name-${device.id}`}>
              {device.name}
            </span>
            <span className="text-muted-foreground text-xs">{DEMO_CATEGORY_LABELS[device.category]}</span>
            <span className="font-semibold tabular-nums">{money(device.price, currency)}</span>
            {device.description && (
              <span className="text-muted-foreground text-sm">{device.description}</span>
            )}
          </span>
        </ChoiceCard>
      ))}
    </div>
  );
}

export function PlanChoices({
  plans,
  device,
  currency,
  selected,
  onSelect,
  labelledBy,
}: {
  plans: readonly DemoPlan[];
  device: DemoDevice;
  currency: string;
  selected: string | null;
  onSelect: (id: string) => void;
  labelledBy: string;
}) {
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      {plans.map((plan) => (
        <ChoiceCard
          key={plan.id}
          name="demo-plan"
          value={plan.id}
          checked={selected === plan.id}
          onChange={onSelect}
          testId={`choice-plan-${plan.id}`}
        >
          <span className="grid min-w-0 gap-1">
            <span className="font-medium">{plan.name}</span>
            <span className="text-sm">
              Deposit{' '}
              <span className="font-semibold tabular-nums">{money(demoDeposit(device, plan), currency)}</span>
              <span className="text-muted-foreground"> ({plan.depositPercent} %)</span>
            </span>
            <span className="text-muted-foreground text-sm">
              {plan.term.toLocaleString('en-US')} {PERIOD_NOUN[plan.frequency].adjective} payments, one every{' '}
              {PERIOD_NOUN[plan.frequency].one}
            </span>
            <span className="text-muted-foreground text-sm">APR {formatPercent(plan.apr, 2)}</span>
          </span>
        </ChoiceCard>
      ))}
    </div>
  );
}
