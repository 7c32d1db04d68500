import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import type { ScheduleRow, ScheduleTotals } from '@/domain';
import { Button } from '@/web/components/ui/button';
import { formatBusinessDate } from '@/web/lib/format';
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
    <div className="grid grid-cols-1 gap-3">
      <div className="overflow-x-auto max-md:hidden">
        <table className="w-full text-sm" data-testid="table-schedule">
          <caption className="sr-only">
            Repayment schedule, instalments {first + 1} to {first + slice.length} of {rows.length}
          </caption>
          <thead>
            <tr className="border-b text-muted-foreground text-xs uppercase tracking-wide">
              <th scope="col" className="h-10 px-3 text-left font-medium first:pl-6">
                No.
              </th>
              <th scope="col" className="px-3 text-left font-medium">
                Due date
              </th>
              <th scope="col" className="px-3 text-right font-medium">
                Principal
              </th>
              <th scope="col" className="px-3 text-right font-medium">
                Interest
              </th>
              <th scope="col" className="px-3 text-right font-medium">
                Service fee
              </th>
              <th scope="col" className="px-3 text-right font-medium">
                Total
              </th>
              <th scope="col" className="px-3 pr-6 text-right font-medium">
                Balance
              </th>
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {slice.map((row) => (
              <tr
                key={row.n}
                className="border-b last:border-0 hover:bg-muted/50"
                data-testid={`row-schedule-${row.n}`}
              >
                <td className="whitespace-nowrap px-3 py-2 pl-6 text-muted-foreground">{row.n}</td>
                <td className="whitespace-nowrap px-3 py-2">{formatBusinessDate(row.dueDate)}</td>
                <td className="whitespace-nowrap px-3 py-2 text-right">{m(row.principal)}</td>
                <td className="whitespace-nowrap px-3 py-2 text-right">{m(row.interest)}</td>
                <td className="whitespace-nowrap px-3 py-2 text-right">{m(row.serviceFee)}</td>
                <td
                  className="whitespace-nowrap px-3 py-2 text-right font-medium"
                  data-testid={`text-row-total-${row.n}`}
                >
                  {m(row.total)}
                </td>
                <td className="whitespace-nowrap px-3 py-2 pr-6 text-right text-muted-foreground">
                  {m(row.balance)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot className="tabular-nums">
            <tr className="border-t bg-muted/40 font-semibold">
              <th scope="row" colSpan={2} className="px-3 py-2.5 pl-6 text-left">
                Total ({rows.length.toLocaleString('en-US')} instalments)
              </th>
              <td className="whitespace-nowrap px-3 py-2.5 text-right">{m(totals.totalPrincipal)}</td>
              <td className="whitespace-nowrap px-3 py-2.5 text-right">{m(totals.totalInterest)}</td>
              <td className="whitespace-nowrap px-3 py-2.5 text-right">{m(totals.totalServiceFees)}</td>
              <td className="whitespace-nowrap px-3 py-2.5 text-right">{m(totals.totalPayable)}</td>
              <td className="px-3 py-2.5 pr-6" />
            </tr>
          </tfoot>
        </table>
      </div>

      <ol className="grid grid-cols-1 gap-2 px-4 md:hidden" aria-label="Repayment schedule" start={first + 1}>
        {slice.map((row) => (
          <li
            key={row.n}
            className="rounded-lg border bg-card p-3 text-sm"
            data-testid={`card-schedule-${row.n}`}
          >
            <div className="flex items-baseline justify-between gap-3">
              <p>
                <span className="text-muted-foreground">#{row.n}</span>{' '}
                <span className="font-medium">{formatBusinessDate(row.dueDate)}</span>
              </p>
              <p className="font-semibold tabular-nums" data-testid={`text-card-total-${row.n}`}>
                {m(row.total)}
              </p>
            </div>
            <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-xs tabular-nums">
              <div className="flex justify-between gap-2">
                <dt className="text-muted-foreground">Principal</dt>
                <dd>{m(row.principal)}</dd>
              </div>
              <div className="flex justify-between gap-2">
                <dt className="text-muted-foreground">Interest</dt>
                <dd>{m(row.interest)}</dd>
              </div>
              <div className="flex justify-between gap-2">
                <dt className="text-muted-foreground">Service fee</dt>
                <dd>{m(row.serviceFee)}</dd>
              </div>
              <div className="flex justify-between gap-2">
                <dt className="text-muted-foreground">Balance</dt>
                <dd>{m(row.balance)}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ol>

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
        <div className="flex items-center gap-1">
          <PageButton
            label="First page"
            disabled={page === 0}
            onClick={() => setPage(0)}
            testId="button-page-first"
          >
            <ChevronsLeft aria-hidden="true" />
          </PageButton>
          <PageButton
            label="Previous page"
            disabled={page === 0}
            onClick={() => setPage(page - 1)}
            testId="button-page-prev"
          >
            <ChevronLeft aria-hidden="true" />
          </PageButton>
          <PageButton
            label="Next page"
            disabled={page >= pages - 1}
            onClick={() => setPage(page + 1)}
            testId="button-page-next"
          >
            <ChevronRight aria-hidden="true" />
          </PageButton>
          <PageButton
            label="Last page"
            disabled={page >= pages - 1}
            onClick={() => setPage(pages - 1)}
            testId="button-page-last"
          >
            <ChevronsRight aria-hidden="true" />
          </PageButton>
        </div>
      </nav>
    </div>
  );
}

function PageButton({
  label,
  disabled,
  onClick,
  testId,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Button
      variant="outline"
      size="icon"
      className="size-8"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}
