import { CircleAlert, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { cn } from '@/web/lib/utils';

/** A short message in a card: a refusal, an error, or a missing record. */
export function Notice({
  title,
  children,
  testId,
  tone = 'info',
  action,
}: {
  title: string;
  children: ReactNode;
  testId: string;
  tone?: 'info' | 'error';
  action?: ReactNode;
}) {
  const Icon = tone === 'error' ? CircleAlert : Info;
  return (
    <Card data-testid={testId} role={tone === 'error' ? 'alert' : undefined}>
      <CardContent className="flex items-start gap-3 p-6">
        <Icon
          className={cn('mt-0.5 size-5 shrink-0', tone === 'error' ? 'text-destructive' : 'text-primary')}
          aria-hidden="true"
        />
        <div className="grid grid-cols-1 gap-3">
          <div>
            <h2 className="font-semibold">{title}</h2>
            <div className="mt-1 text-muted-foreground text-sm">{children}</div>
          </div>
          {action}
        </div>
      </CardContent>
    </Card>
  );
}

export function FormSkeleton() {
  return (
    <div role="status" className="grid grid-cols-1 gap-4" data-testid="form-loading">
      <span className="sr-only">Loading the form…</span>
      <Skeleton className="h-64 w-full rounded-xl" />
      <Skeleton className="h-56 w-full rounded-xl" />
      <Skeleton className="h-40 w-full rounded-xl" />
    </div>
  );
}

export function DetailSkeleton() {
  return (
    <div role="status" className="grid grid-cols-1 gap-6" data-testid="customer-loading">
      <span className="sr-only">Loading the customer…</span>
      <div className="flex items-center gap-3">
        <Skeleton className="size-10 rounded-lg" />
        <div className="grid grid-cols-1 gap-2">
          <Skeleton className="h-7 w-56" />
          <Skeleton className="h-4 w-40" />
        </div>
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="grid grid-cols-1 gap-6">
          <Skeleton className="h-64 w-full rounded-xl" />
          <Skeleton className="h-72 w-full rounded-xl" />
        </div>
        <div className="grid grid-cols-1 gap-6">
          <Skeleton className="h-48 w-full rounded-xl" />
          <Skeleton className="h-80 w-full rounded-xl" />
        </div>
      </div>
    </div>
  );
}
