import { ArrowDown, ArrowUp, ArrowUpDown, Inbox, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@/web/components/ui/card';
import {
  ON_WIDER,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/web/components/ui/table';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { cn } from '@/web/lib/utils';
import type { ListState } from './use-list-state';

export interface Column<T> {
  key: string;
  header: string;
  cell(row: T): ReactNode;
  /** The API sort name, when the column sorts. */
  sort?: string;
  align?: 'left' | 'right';
  /** Hidden below the md breakpoint (phones keep the essentials). */
  wide?: boolean;
  /** The cell that holds the row's link, when a row opens: the first column's unless one says so. */
  link?: boolean;
}

interface DataTableProps<T> {
  label: string;
  columns: ReadonlyArray<Column<T>>;
  rows: readonly T[] | undefined;
  rowKey(row: T): string;
  loading: boolean;
  error?: string | null;
  state?: ListState;
  onSort?: (column: string) => void;
  /** Opens a row: the whole row is clickable and one cell (`Column.link`, else the first) is a keyboard-reachable link. */
  rowHref?: (row: T) => string;
  onOpen?: (href: string) => void;
  empty: ReactNode;
  testId: string;
}

/**
 * What a list shows instead of its rows: a skeleton while the first page loads, the error, or the
 * empty message (`empty` null when there are rows).
 */
export function ListStates({
  label,
  loading,
  error,
  empty,
  emptyIcon: EmptyIcon = Inbox,
  testId,
  children,
}: {
  label: string;
  loading: boolean;
  error?: string | null | undefined;
  empty: ReactNode | null;
  emptyIcon?: LucideIcon | undefined;
  testId: string;
  children?: ReactNode;
}) {
  if (loading) return <TableSkeleton rows={6} label={`Loading ${label.toLowerCase()}`} />;
  if (error)
    return (
      <Card className="p-6 text-destructive text-sm" role="alert" data-testid={`error-${testId}`}>
        {error}
      </Card>
    );
  if (empty !== null)
    return (
      <Card className="flex flex-col items-center gap-2 p-10 text-center" data-testid={`empty-${testId}`}>
        <EmptyIcon className="size-8 text-muted-foreground" aria-hidden="true" />
        <div className="text-muted-foreground text-sm">{empty}</div>
      </Card>
    );
  return children;
}

/** A server-sorted table with loading skeleton, error and empty states. */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  loading,
  error,
  state,
  onSort,
  rowHref,
  onOpen,
  empty,
  testId,
}: DataTableProps<T>) {
  if (loading && !rows) return <ListStates label={label} loading error={null} empty={null} testId={testId} />;
  if (error || !rows?.length)
    return (
      <ListStates
        label={label}
        loading={false}
        error={error}
        empty={rows?.length ? null : empty}
        testId={testId}
      />
    );
  const linkIndex = Math.max(
    0,
    columns.findIndex((column) => column.link),
  );
  return (
    <Card className="overflow-x-auto p-0">
      <Table aria-label={label} data-testid={`table-${testId}`}>
        <TableHeader>
          <TableRow>
            {columns.map((column) => {
              const active = state && column.sort && state.sort === column.sort;
              const Icon = active ? (state.order === 'asc' ? ArrowUp : ArrowDown) : ArrowUpDown;
              return (
                <TableHead
                  key={column.key}
                  className={cn(column.align === 'right' && 'text-right', column.wide && ON_WIDER)}
                  aria-sort={active ? (state.order === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {column.sort && onSort ? (
                    <button
                      type="button"
                      className="inline-flex items-center gap-1 uppercase hover:text-foreground"
                      onClick={() => column.sort && onSort(column.sort)}
                      data-testid={`sort-${testId}-${column.key}`}
                    >
                      {column.header}
                      <Icon className={cn('size-3.5', !active && 'opacity-40')} aria-hidden="true" />
                    </button>
                  ) : (
                    column.header
                  )}
                </TableHead>
              );
            })}
          </TableRow>
        </TableHeader>
        <TableBody className={cn(loading && 'opacity-60')}>
          {rows.map((row) => {
            const href = rowHref?.(row);
            return (
              <TableRow
                key={rowKey(row)}
                className={cn(href && 'cursor-pointer')}
                onClick={href && onOpen ? () => onOpen(href) : undefined}
                data-testid={`row-${testId}-${rowKey(row)}`}
              >
                {columns.map((column, index) => (
                  <TableCell
                    key={column.key}
                    className={cn(
                      column.align === 'right' && 'text-right tabular-nums',
                      column.wide && ON_WIDER,
                    )}
                  >
                    {index === linkIndex && href ? (
                      <a
                        href={href}
                        className="font-medium hover:underline"
                        onClick={(event) => {
                          if (!onOpen || event.metaKey || event.ctrlKey) return;
                          event.preventDefault();
                          event.stopPropagation();
                          onOpen(href);
                        }}
                      >
                        {column.cell(row)}
                      </a>
                    ) : (
                      column.cell(row)
                    )}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Card>
  );
}
