import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { cn } from '@/web/lib/utils';

/**
 * The foot of a list read page by page (keyset pages of `useInfiniteQuery`): how many rows are
 * shown, and a button for the next page, or the words that say there is none.
 */
export function LoadMore({
  pages,
  shown,
  label,
  end,
  testId,
  className,
}: {
  /** The list's `useInfiniteQuery`: whether a next page exists, its fetch, and whether it is under way. */
  pages: Pick<UseInfiniteQueryResult, 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'>;
  /** "12 entries shown": the count and its noun, as the list words it. */
  shown: ReactNode;
  /** The button's words ("Load more"). */
  label: string;
  /** What shows when there is nothing more ("End of the log"). */
  end: string;
  /** Names the count `text-<testId>-shown` and the button `button-<testId>-load-more`. */
  testId: string;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-wrap items-center justify-between gap-3 text-muted-foreground text-sm',
        className,
      )}
    >
      <span data-testid={`text-${testId}-shown`}>{shown}</span>
      {pages.hasNextPage ? (
        <Button
          variant="outline"
          onClick={() => void pages.fetchNextPage()}
          disabled={pages.isFetchingNextPage}
          data-testid={`button-${testId}-load-more`}
        >
          {pages.isFetchingNextPage && <Spinner className="size-4" />}
          {label}
        </Button>
      ) : (
        <span>{end}</span>
      )}
    </div>
  );
}
