import { format, isValid, parseISO } from 'date-fns';
import { ArrowRight, RotateCw, Sparkles } from 'lucide-react';
import { useId } from 'react';
import type { Feature, Tutorial } from '@/contracts/help';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Skeleton } from '@/web/components/ui/skeleton';
import { errorMessage } from '@/web/lib/queryClient';
import { featureIcon } from './feature-icons';

interface FeaturesPanelProps {
  features: Feature[] | null | undefined;
  tutorials: Tutorial[] | null | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  onLearnMore: (tutorial: Tutorial) => void;
}

/** 'YYYY-MM-DD' read as a local date (not UTC midnight), shown as '20 Nov 2026'. */
function formatAddedDate(value: string): string {
  const date = parseISO(value);
  return isValid(date) ? format(date, 'd MMM yyyy') : value;
}

/** Seed "Features tab": What's New (with Learn More when a tutorial is linked), then All Features. */
export function FeaturesPanel({
  features,
  tutorials,
  loading,
  error,
  onRetry,
  onLearnMore,
}: FeaturesPanelProps) {
  const uid = useId();
  if (loading) {
    return (
      <div role="status" className="grid grid-cols-1 gap-3" data-testid="features-loading">
        <span className="sr-only">Loading features…</span>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-20 w-full" />
        ))}
      </div>
    );
  }
  if (error) {
    return (
      <div role="alert" className="grid grid-cols-1 justify-items-start gap-3 text-sm">
        <p className="text-destructive">Features could not be loaded: {errorMessage(error)}</p>
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  const all = features ?? [];
  const fresh = all.filter((feature) => feature.isNew);
  const tutorialOf = (feature: Feature) => tutorials?.find((t) => t.id === feature.tutorialId);
  const headingClass = 'mb-3 font-semibold text-muted-foreground text-xs uppercase tracking-wide';
  return (
    <div className="grid grid-cols-1 gap-8">
      <section aria-labelledby={`${uid}-new`} data-testid="section-whats-new">
        <h3 id={`${uid}-new`} className={headingClass}>
          What’s New
        </h3>
        {fresh.length === 0 ? (
          <p className="text-muted-foreground text-sm">Nothing new right now.</p>
        ) : (
          <ul className="grid grid-cols-1 gap-3">
            {fresh.map((feature) => {
              const Icon = featureIcon(feature.icon);
              const tutorial = feature.tutorialId ? tutorialOf(feature) : undefined;
              return (
                <li
                  key={feature.id}
                  className="flex flex-col gap-3 rounded-xl border border-primary/30 bg-primary/5 p-4 sm:flex-row sm:items-start"
                  data-testid={`item-new-feature-${feature.id}`}
                >
                  <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium text-sm">
                      {feature.name}
                      <Badge variant="default">NEW</Badge>
                    </p>
                    <p className="mt-1 text-muted-foreground text-sm">{feature.description}</p>
                    <p className="mt-1 text-muted-foreground text-xs">
                      Added {formatAddedDate(feature.addedDate)}
                    </p>
                  </div>
                  {feature.tutorialId && (
                    <Button
                      variant="outline"
                      size="sm"
                      className="self-start"
                      disabled={!tutorial}
                      onClick={() => tutorial && onLearnMore(tutorial)}
                      aria-label={`Learn more about ${feature.name}`}
                      data-testid={`button-learn-more-${feature.id}`}
                    >
                      Learn More
                      <ArrowRight aria-hidden="true" />
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section aria-labelledby={`${uid}-all`} data-testid="section-all-features">
        <h3 id={`${uid}-all`} className={headingClass}>
          All Features
        </h3>
        {all.length === 0 ? (
          <p className="flex items-center gap-2 text-muted-foreground text-sm">
            <Sparkles className="size-4" aria-hidden="true" />
            No features listed yet.
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {all.map((feature) => {
              const Icon = featureIcon(feature.icon);
              return (
                <li
                  key={feature.id}
                  className="flex gap-3 rounded-xl border bg-card p-4"
                  data-testid={`item-feature-${feature.id}`}
                >
                  <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
                  <div className="min-w-0">
                    <p className="font-medium text-sm">{feature.name}</p>
                    <p className="mt-1 text-muted-foreground text-sm">{feature.description}</p>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
