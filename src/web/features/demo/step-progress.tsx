import { Check } from 'lucide-react';
import { DEMO_STEPS, type DemoStep } from '@/contracts/demo';
import { cn } from '@/web/lib/utils';

export const STEP_LABELS: Record<DemoStep, string> = {
  device: 'Device',
  plan: 'Plan',
  schedule: 'Payments',
  kyc: 'Your details',
  payment: 'Deposit',
  unlock: 'Unlock',
};

/** Where the visitor is: "Step 3 of 6" and a bar on phones, every step's name from sm up. */
export function StepProgress({ current }: { current: number }) {
  const total = DEMO_STEPS.length;
  return (
    <nav aria-label="Demo steps" className="grid grid-cols-1 gap-2">
      <p className="text-muted-foreground text-sm sm:sr-only" data-testid="text-step-count">
        Step {current + 1} of {total}: {STEP_LABELS[DEMO_STEPS[current] ?? 'device']}
      </p>
      <div className="h-1.5 overflow-hidden rounded-full bg-muted sm:hidden" aria-hidden="true">
        <div
          className="h-full rounded-full bg-primary transition-[width]"
          style={{ width: `${((current + 1) / total) * 100}%` }}
        />
      </div>
      <ol className="hidden grid-cols-6 gap-2 sm:grid">
        {DEMO_STEPS.map((step, index) => {
          const done = index < current;
          const active = index === current;
          return (
            <li
              key={step}
              aria-current={active ? 'step' : undefined}
              className={cn(
                'flex items-center gap-2 border-t-4 pt-2 text-sm',
                done && 'border-primary text-foreground',
                active && 'border-primary font-medium text-foreground',
                !done && !active && 'border-muted text-muted-foreground',
              )}
            >
              <span
                className={cn(
                  'flex size-5 shrink-0 items-center justify-center rounded-full text-xs',
                  done || active ? 'bg-primary text-primary-foreground' : 'bg-muted',
                )}
              >
                {done ? <Check className="size-3" aria-hidden="true" /> : index + 1}
              </span>
              <span className="truncate">{STEP_LABELS[step]}</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
