import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useId, useState } from 'react';
import type { ScheduleRow, ScheduleTotals } from '@/domain';
import * as Schedule from '@/web/components/schedule-parts';
import { Button } from '@/web/components/ui/button';
import { money } from '@/web/lib/money';

export const PAGE_SIZES = [12, 30, 60, 120] as const;

interface ScheduleTableProps {
  rows: readonly ScheduleRow[];
  totals: ScheduleTotals;
  currency: string;
}

/**
 * The repayment schedule, one page at a time (up to 3,660 rows stay instant: only a page is ever
 * rendered). A table from the md breakpoint, a list of cards on phones.
 */
export function ScheduleTable({ rows, totals, currency }: ScheduleTableProps) {
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const [requestedPage, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(rows.length / pageSize));
  // A shorter schedule (the term was lowered) keeps the page in range without an effect.
  const page = Math.min(requestedPage, pages - 1);
  const first = page * pageSize;
  const slice = rows.slice(first, first + pageSize);
  const sizeId = useId();
  const m = (minor: number) => money(minor, currency);

  return (
    <Schedule.Layout
      testId="table-schedule"
      caption={`Repayment schedule, instalments ${first + 1} to ${first + slice.length} of ${rows.length}`}
      head={
        <>
          <Schedule.Th>Total</Schedule.Th>
          <Schedule.Th className="pr-6">Balance</Schedule.Th>
        </>
      }
      rows={slice}
      row={(row) => (
        <tr className="border-b last:border-0 hover:bg-muted/50" data-testid={`row-schedule-${row.n}`}>
          <Schedule.LeadingCells row={row} format={m} />
          <Schedule.Td className="font-medium" testId={`text-row-total-${row.n}`}>
            {m(row.total)}
          </Schedule.Td>
          <Schedule.Td className="pr-6 text-muted-foreground">{m(row.balance)}</Schedule.Td>
        </tr>
      )}
      foot={
        <>
          <Schedule.LeadingTotals
            label={`Total (${rows.length.toLocaleString('en-US')} instalments)`}
            sums={[m(totals.totalPrincipal), m(totals.totalInterest), m(totals.totalServiceFees)]}
          />
          <Schedule.Td className="py-2.5">{m(totals.totalPayable)}</Schedule.Td>
          <td className="px-3 py-2.5 pr-6" />
        </>
      }
      card={(row) => (
        <Schedule.Card
          row={row}
          aside={
            <p className="font-semibold tabular-nums" data-testid={`text-card-total-${row.n}`}>
              {m(row.total)}
            </p>
          }
          baseline
          testId={`card-schedule-${row.n}`}
        >
          <Schedule.Pair label="Principal" value={m(row.principal)} />
          <Schedule.Pair label="Interest" value={m(row.interest)} />
          <Schedule.Pair label="Service fee" value={m(row.serviceFee)} />
          <Schedule.Pair label="Balance" value={m(row.balance)} />
        </Schedule.Card>
      )}
      start={first + 1}
    >
      <nav
        aria-label="Schedule pages"
        className="flex flex-wrap items-center justify-between gap-3 border-t px-4 pt-3 text-sm md:px-6"
      >
        <div className="flex items-center gap-2">
          <label htmlFor={sizeId} className="text-muted-foreground text-xs">
            Rows per page
          </label>
          <select
            id={sizeId}
            value={pageSize}
            onChange={(event) => {
              const size = Number(event.target.value);
              setPage(Math.floor(first / size));
              setPageSize(size);
            }}
            className="h-8 rounded-md border border-input bg-card px-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
            data-testid="select-page-size"
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <p
          className="text-muted-foreground text-xs tabular-nums"
          aria-live="polite"
          data-testid="text-page-range"
        >
          {first + 1}–{first + slice.length} of {rows.length.toLocaleString('en-US')}
        </p>
        <PageButtons page={page} pages={pages} onPage={setPage} />
      </nav>
    </Schedule.Layout>
  );
}

/** First, previous, next and last page; a button that would not move the page is off. */
function PageButtons({ page, pages, onPage }: { page: number; pages: number; onPage(page: number): void }) {
  const steps = [
    { label: 'First page', icon: ChevronsLeft, testId: 'button-page-first', to: 0 },
    { label: 'Previous page', icon: ChevronLeft, testId: 'button-page-prev', to: page - 1 },
    { label: 'Next page', icon: ChevronRight, testId: 'button-page-next', to: page + 1 },
    { label: 'Last page', icon: ChevronsRight, testId: 'button-page-last', to: pages - 1 },
  ];
  return (
    <div className="flex items-center gap-1">
      {steps.map(({ label, icon: Icon, testId, to }) => (
        <Button
          key={testId}
          variant="outline"
          size="icon"
          className="size-8"
          aria-label={label}
          disabled={to === page || to < 0 || to >= pages}
          onClick={() => onPage(to)}
          data-testid={testId}
        >
          <Icon aria-hidden="true" />
        </Button>
      ))}
    </div>
  );
}
