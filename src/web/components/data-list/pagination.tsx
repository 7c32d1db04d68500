import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/web/components/ui/button';

interface PaginationProps {
  page: number;
  pageSize: number;
  total: number;
  onPage(page: number): void;
  testId: string;
}

const count = new Intl.NumberFormat('en');

/** "1–50 of 1,234" with Previous / Next; nothing when everything fits on one page. */
export function Pagination({ page, pageSize, total, onPage, testId }: PaginationProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total === 0) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav
      className="mt-3 flex flex-wrap items-center justify-between gap-2 text-muted-foreground text-sm"
      aria-label="Pages"
    >
      <span data-testid={`text-range-${testId}`}>
        {count.format(first)}–{count.format(last)} of {count.format(total)}
      </span>
      {pages > 1 && (
        <div className="flex items-center gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={page <= 1}
            onClick={() => onPage(page - 1)}
            data-testid={`button-prev-${testId}`}
          >
            <ChevronLeft className="size-4" aria-hidden="true" /> Previous
          </Button>
          <span>
            Page {count.format(page)} of {count.format(pages)}
          </span>
          <Button
            variant="outline"
            size="sm"
            disabled={page >= pages}
            onClick={() => onPage(page + 1)}
            data-testid={`button-next-${testId}`}
          >
            Next <ChevronRight className="size-4" aria-hidden="true" />
          </Button>
        </div>
      )}
    </nav>
  );
}
