import { Fragment, type ReactNode } from 'react';
import { formatBusinessDate } from '@/web/lib/format';
import { cn } from '@/web/lib/utils';

/** The instalment figures every schedule has. */
interface Instalment {
  n: number;
  dueDate: string;
  principal: number;
  interest: number;
  serviceFee: number;
}

interface LayoutProps<R extends Instalment> {
  testId: string;
  caption: string;
  /** The headings after the leading columns'. */
  head: ReactNode;
  /** The instalments shown, each as a table row and as a card. */
  rows: readonly R[];
  row(instalment: R): ReactNode;
  card(instalment: R): ReactNode;
  foot: ReactNode;
  /** The first card's number, when the list is one page of the schedule. */
  start?: number;
  /** Under the schedule (paging, "Show all"). */
  children?: ReactNode;
}

/**
 * What the two repayment schedules (the calculator's and a contract's) draw alike, imported as
 * `* as Schedule`: a table from the md breakpoint whose first columns are the same (number, due
 * date, principal, interest, service fee), with a totals row, and a numbered list of cards on
 * phones. Each schedule adds its own columns and card figures.
 */
export function Layout<R extends Instalment>({
  testId,
  caption,
  head,
  rows,
  row,
  card,
  foot,
  start,
  children,
}: LayoutProps<R>) {
  return (
    <div className="grid grid-cols-1 gap-3">
      <div className="overflow-x-auto max-md:hidden">
        <table className="w-full text-sm" data-testid={testId}>
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr className="border-b text-muted-foreground text-xs uppercase tracking-wide">
              <LeadingHeadings />
              {head}
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {rows.map((instalment) => (
              <Fragment key={instalment.n}>{row(instalment)}</Fragment>
            ))}
          </tbody>
          <tfoot className="tabular-nums">
            <tr className="border-t bg-muted/40 font-semibold">{foot}</tr>
          </tfoot>
        </table>
      </div>
      <ol className="grid grid-cols-1 gap-2 px-4 md:hidden" aria-label="Repayment schedule" start={start}>
        {rows.map((instalment) => (
          <Fragment key={instalment.n}>{card(instalment)}</Fragment>
        ))}
      </ol>
      {children}
    </div>
  );
}

/** A column heading: figures align right, so the text columns say so. */
export function Th({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <th scope="col" className={cn('h-10 px-3 text-right font-medium', className)}>
      {children}
    </th>
  );
}

/** A figure's cell. */
export function Td({
  children,
  className,
  testId,
}: {
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <td className={cn('whitespace-nowrap px-3 py-2 text-right', className)} data-testid={testId}>
      {children}
    </td>
  );
}

/** The headings of the columns every schedule starts with. */
function LeadingHeadings() {
  return (
    <>
      <Th className="pl-6 text-left">No.</Th>
      <Th className="text-left">Due date</Th>
      <Th>Principal</Th>
      <Th>Interest</Th>
      <Th>Service fee</Th>
    </>
  );
}

/** A row's first cells: number, due date, and the figures formatted as the table shows money. */
export function LeadingCells({ row, format }: { row: Instalment; format: (minor: number) => string }) {
  return (
    <>
      <td className="px-3 py-2 pl-6 text-muted-foreground">{row.n}</td>
      <td className="whitespace-nowrap px-3 py-2">{formatBusinessDate(row.dueDate)}</td>
      <Td>{format(row.principal)}</Td>
      <Td>{format(row.interest)}</Td>
      <Td>{format(row.serviceFee)}</Td>
    </>
  );
}

/** The totals row's first cells: its label over number and date, then the leading columns' sums. */
export function LeadingTotals({
  label,
  sums,
}: {
  label: ReactNode;
  sums: readonly [string, string, string];
}) {
  const [principal, interest, serviceFee] = sums;
  return (
    <>
      <th scope="row" colSpan={2} className="px-3 py-2.5 pl-6 text-left">
        {label}
      </th>
      <Td className="py-2.5">{principal}</Td>
      <Td className="py-2.5">{interest}</Td>
      <Td className="py-2.5">{serviceFee}</Td>
    </>
  );
}

/** An instalment on phones: its number and due date, something beside them, then its figures. */
export function Card({
  row,
  aside,
  baseline,
  testId,
  children,
}: {
  row: Pick<Instalment, 'n' | 'dueDate'>;
  aside: ReactNode;
  /** Aligns the aside on the text's baseline (a figure) rather than centring it (a badge). */
  baseline?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <li className="rounded-lg border bg-card p-3 text-sm" data-testid={testId}>
      <div className={cn('flex justify-between gap-3', baseline ? 'items-baseline' : 'items-center')}>
        <p>
          <span className="text-muted-foreground">#{row.n}</span>{' '}
          <span className="font-medium">{formatBusinessDate(row.dueDate)}</span>
        </p>
        {aside}
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-xs tabular-nums">{children}</dl>
    </li>
  );
}

/** One figure of a card. */
export function Pair({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
