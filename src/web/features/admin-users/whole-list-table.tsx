import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ActionTableHeader } from '@/web/components/action-table';
import { Table, TableBody } from '@/web/components/ui/table';
import { errorMessage } from '@/web/lib/queryClient';
import { TableSkeleton } from './table-skeleton';

/**
 * An admin table read whole (a staff's users and invites are short lists, so not the paged
 * DataTable): a skeleton, the error or the empty message, else a row per item, each row ending in
 * its actions.
 */
export function WholeListTable<T>({
  query,
  label,
  skeletonRows,
  empty,
  headings,
  testId,
  row,
}: {
  query: UseQueryResult<T[] | null>;
  /** Plural, capitalised: "Invites". */
  label: string;
  skeletonRows?: number;
  empty: ReactNode;
  /** The visible headings; the actions column's heading is for screen readers. */
  headings: readonly string[];
  testId: string;
  row: (item: T) => ReactNode;
}) {
  if (query.isLoading) return <TableSkeleton label={`Loading ${label.toLowerCase()}…`} rows={skeletonRows} />;
  if (query.error) {
    return (
      <p role="alert" className="p-6 text-destructive text-sm">
        {label} could not be loaded: {errorMessage(query.error)}
      </p>
    );
  }
  const list = query.data ?? [];
  if (list.length === 0) return empty;
  return (
    <Table data-testid={testId}>
      <ActionTableHeader headings={headings} actions="Actions" />
      <TableBody>{list.map(row)}</TableBody>
    </Table>
  );
}
