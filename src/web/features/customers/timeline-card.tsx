import { RotateCw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { formatDateTime } from '@/web/lib/format';
import { errorMessage } from '@/web/lib/queryClient';
import { useTimeline } from './queries';

const SHOWN = 10;

/** Everything that happened to the customer, newest first, from the audit trail. */
export function TimelineCard({ customerId }: { customerId: string }) {
  const timeline = useTimeline(customerId);
  const [all, setAll] = useState(false);
  const events = timeline.data ?? [];
  const shown = all ? events : events.slice(0, SHOWN);

  return (
    <Card data-testid="card-timeline">
      <CardHeader>
        <CardTitle>History</CardTitle>
        <CardDescription>Every change, upload and review, with who did it. Newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        {timeline.isLoading ? (
          <div role="status" className="grid grid-cols-1 gap-3">
            <span className="sr-only">Loading history…</span>
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : timeline.error ? (
          <div role="alert" className="grid grid-cols-1 justify-items-start gap-2 text-sm">
            <p className="text-destructive">
              The history could not be loaded: {errorMessage(timeline.error)}
            </p>
            <Button variant="outline" size="sm" onClick={() => void timeline.refetch()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : events.length === 0 ? (
          <p className="text-muted-foreground text-sm">Nothing recorded yet.</p>
        ) : (
          <>
            <ol className="relative grid grid-cols-1 gap-4 border-l pl-5" data-testid="list-timeline">
              {shown.map((event) => (
                <li
                  key={event.id}
                  className="relative"
                  data-testid={`row-event-${event.id}`}
                  data-action={event.action}
                >
                  <span
                    className="-left-[1.6rem] absolute top-1.5 size-2.5 rounded-full border-2 border-card bg-primary"
                    aria-hidden="true"
                  />
                  <p className="text-sm">{event.summary}</p>
                  <p className="text-muted-foreground text-xs">
                    <time dateTime={event.at}>{formatDateTime(event.at)}</time>
                    {event.actor ? ` · ${event.actor}` : ''}
                  </p>
                </li>
              ))}
            </ol>
            {events.length > SHOWN && (
              <Button
                variant="ghost"
                size="sm"
                className="mt-3"
                aria-expanded={all}
                onClick={() => setAll((value) => !value)}
                data-testid="button-toggle-timeline"
              >
                {all ? 'Show the latest only' : `Show all ${events.length} events`}
              </Button>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
