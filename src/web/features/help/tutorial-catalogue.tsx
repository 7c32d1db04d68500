import { CircleCheck, Clock, GraduationCap, Play, RotateCcw, RotateCw } from 'lucide-react';
import { useId } from 'react';
import type { Tutorial, TutorialProgress } from '@/contracts/help';
import { Badge, type BadgeProps } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Progress } from '@/web/components/ui/progress';
import { Skeleton } from '@/web/components/ui/skeleton';
import { errorMessage } from '@/web/lib/queryClient';
import { cn } from '@/web/lib/utils';
import { DIFFICULTY_LABELS, groupTutorials, percentComplete } from './help-rules';

const DIFFICULTY_VARIANT: Record<Tutorial['difficulty'], BadgeProps['variant']> = {
  beginner: 'secondary',
  intermediate: 'outline',
  advanced: 'outline',
};

interface CatalogueProps {
  tutorials: Tutorial[] | null | undefined;
  progress: TutorialProgress[] | null | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  onStart: (tutorial: Tutorial) => void;
  /** Heading level of the category titles (h3 inside the dialog, h2 on a page). */
  headingLevel?: 'h2' | 'h3';
  columns?: 'two' | 'three';
}

/** Seed "Tutorials tab": groups in category order, empty groups hidden, a card per tutorial. */
export function TutorialCatalogue({
  tutorials,
  progress,
  loading,
  error,
  onRetry,
  onStart,
  headingLevel = 'h3',
  columns = 'two',
}: CatalogueProps) {
  const uid = useId();
  if (loading) {
    return (
      <div role="status" className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="tutorials-loading">
        <span className="sr-only">Loading tutorials…</span>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-40 w-full" />
        ))}
      </div>
    );
  }
  if (error) {
    return (
      <div role="alert" className="grid grid-cols-1 justify-items-start gap-3 text-sm">
        <p className="text-destructive">Tutorials could not be loaded: {errorMessage(error)}</p>
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  const groups = groupTutorials(tutorials ?? []);
  if (groups.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 py-10 text-center text-muted-foreground text-sm"
        data-testid="text-tutorials-empty"
      >
        <GraduationCap className="size-6" aria-hidden="true" />
        No tutorials yet.
      </div>
    );
  }
  const Heading = headingLevel;
  return (
    <div className="grid grid-cols-1 gap-6" data-testid="tutorial-catalogue">
      {groups.map((group) => (
        <section
          key={group.category}
          aria-labelledby={`${uid}-group-${group.category}`}
          data-testid={`group-tutorials-${group.category}`}
        >
          <Heading
            id={`${uid}-group-${group.category}`}
            className="mb-3 font-semibold text-muted-foreground text-xs uppercase tracking-wide"
          >
            {group.label}
          </Heading>
          <ul className={cn('grid gap-3 sm:grid-cols-2', columns === 'three' && 'xl:grid-cols-3')}>
            {group.tutorials.map((tutorial) => (
              <li key={tutorial.id}>
                <TutorialCard
                  headingLevel={headingLevel === 'h2' ? 'h3' : 'h4'}
                  tutorial={tutorial}
                  percent={percentComplete(tutorial, progress)}
                  onStart={() => onStart(tutorial)}
                />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

export function TutorialCard({
  tutorial,
  percent,
  onStart,
  headingLevel = 'h4',
}: {
  tutorial: Tutorial;
  percent: number;
  onStart: () => void;
  headingLevel?: 'h3' | 'h4';
}) {
  const titleId = useId();
  const Heading = headingLevel;
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm"
      data-testid={`card-tutorial-${tutorial.id}`}
    >
      <div className="flex items-start justify-between gap-2">
        <Heading id={titleId} className="font-medium text-sm leading-snug">
          {tutorial.name}
        </Heading>
        {tutorial.isNew && (
          <Badge variant="default" data-testid={`badge-tutorial-new-${tutorial.id}`}>
            NEW
          </Badge>
        )}
      </div>
      <p className="flex-1 text-muted-foreground text-sm leading-relaxed">{tutorial.description}</p>
      <div className="flex flex-wrap items-center gap-2 text-muted-foreground text-xs">
        <Badge variant={DIFFICULTY_VARIANT[tutorial.difficulty]}>
          {DIFFICULTY_LABELS[tutorial.difficulty]}
        </Badge>
        <span className="inline-flex items-center gap-1">
          <Clock className="size-3.5" aria-hidden="true" />
          {tutorial.estimatedTime} min
        </span>
        <span>
          · {tutorial.steps.length} {tutorial.steps.length === 1 ? 'step' : 'steps'}
        </span>
      </div>
      <div className="flex items-center justify-between gap-3">
        <TutorialProgressIndicator tutorialId={tutorial.id} percent={percent} />
        <Button
          size="sm"
          variant={percent === 100 ? 'outline' : 'default'}
          onClick={onStart}
          aria-label={`${percent === 100 ? 'Replay' : 'Start'} tutorial: ${tutorial.name}`}
          data-testid={`button-start-tutorial-${tutorial.id}`}
        >
          {percent === 100 ? <RotateCcw aria-hidden="true" /> : <Play aria-hidden="true" />}
          {percent === 100 ? 'Replay' : 'Start'}
        </Button>
      </div>
    </article>
  );
}

/** A check mark at 100 %, a progress bar from 1 to 99 %, 'Not started' at 0. */
function TutorialProgressIndicator({ tutorialId, percent }: { tutorialId: string; percent: number }) {
  const testId = `text-tutorial-progress-${tutorialId}`;
  if (percent >= 100) {
    return (
      <span className="inline-flex items-center gap-1.5 font-medium text-sm" data-testid={testId}>
        <CircleCheck
          className="size-4 text-success"
          aria-hidden="true"
          data-testid={`icon-tutorial-complete-${tutorialId}`}
        />
        100% complete
      </span>
    );
  }
  if (percent > 0) {
    return (
      <div className="flex min-w-0 flex-1 items-center gap-2">
        <Progress
          value={percent}
          className="max-w-32"
          aria-label="Tutorial progress"
          data-testid={`progress-tutorial-${tutorialId}`}
        />
        <span className="text-muted-foreground text-xs tabular-nums" data-testid={testId}>
          {percent}%
        </span>
      </div>
    );
  }
  return (
    <span className="text-muted-foreground text-xs" data-testid={testId}>
      Not started
    </span>
  );
}
