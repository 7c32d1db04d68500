import { Check } from 'lucide-react';
import { cn } from '@/web/lib/utils';
import { STEPS, type StepId, stepIndex } from './wizard-model';

interface WizardStepperProps {
  current: StepId;
  /** The furthest step reached: earlier steps can be revisited from here. */
  reached: StepId;
  onGo: (step: StepId) => void;
}

/**
 * The wizard's progress: every step with its number, done steps ticked and reachable, the current
 * one marked with aria-current. On phones only the current step's title is shown beside the count.
 */
export function WizardStepper({ current, reached, onGo }: WizardStepperProps) {
  const currentIndex = stepIndex(current);
  const reachedIndex = stepIndex(reached);
  return (
    <nav aria-label="Contract steps" className="mb-6" data-testid="nav-wizard-steps">
      <p className="mb-2 text-muted-foreground text-sm sm:hidden" data-testid="text-step-count">
        Step {currentIndex + 1} of {STEPS.length}:{' '}
        <span className="text-foreground">{STEPS[currentIndex]?.title}</span>
      </p>
      <ol className="flex items-center gap-1 sm:gap-2">
        {STEPS.map((step, index) => {
          const done = index < currentIndex;
          const isCurrent = index === currentIndex;
          const reachable = index <= reachedIndex && !isCurrent;
          const marker = (
            <span
              className={cn(
                'flex size-7 shrink-0 items-center justify-center rounded-full border font-medium text-xs',
                isCurrent && 'border-primary bg-primary text-primary-foreground',
                done && 'border-primary bg-primary/10 text-primary',
                !isCurrent && !done && 'bg-card text-muted-foreground',
              )}
              aria-hidden="true"
            >
              {done ? <Check className="size-3.5" /> : index + 1}
            </span>
          );
          const title = (
            <span
              className={cn(
                'hidden whitespace-nowrap text-sm lg:inline',
                isCurrent ? 'font-medium text-foreground' : 'text-muted-foreground',
              )}
            >
              {step.title}
            </span>
          );
          const label = `Step ${index + 1}: ${step.title}${done ? ' (done)' : ''}`;
          return (
            <li
              key={step.id}
              className="flex min-w-0 flex-1 items-center gap-1 sm:gap-2 last:flex-none"
              aria-current={isCurrent ? 'step' : undefined}
              data-testid={`step-${step.id}`}
              data-state={isCurrent ? 'current' : done ? 'done' : 'todo'}
            >
              {reachable ? (
                <button
                  type="button"
                  onClick={() => onGo(step.id)}
                  className="flex items-center gap-2 rounded-md outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                  aria-label={label}
                  data-testid={`button-step-${step.id}`}
                >
                  {marker}
                  {title}
                </button>
              ) : (
                <span className="flex items-center gap-2">
                  {marker}
                  <span aria-hidden="true" className="contents">
                    {title}
                  </span>
                  <span className="sr-only">{label}</span>
                </span>
              )}
              {index < STEPS.length - 1 && (
                <span
                  className={cn('h-px min-w-2 flex-1', index < currentIndex ? 'bg-primary' : 'bg-border')}
                  aria-hidden="true"
                />
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
