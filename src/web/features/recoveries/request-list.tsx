import { keepPreviousData, type QueryKey, useQuery } from '@tanstack/react-query';
import { Inbox } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import type { Page } from '@/contracts/lists';
import { Pagination } from '@/web/components/data-list/pagination';
import { EmptyMessage } from '@/web/components/empty-message';
import { Card } from '@/web/components/ui/card';
import { Label } from '@/web/components/ui/label';
import { NativeSelect } from '@/web/components/ui/native-select';
import { Skeleton } from '@/web/components/ui/skeleton';
import { errorMessage } from '@/web/lib/queryClient';

export const PAGE_SIZE = 20;

/**
 * A queue of requests with a state filter, pagination, and loading, error and empty states: the
 * shell of the Repossessions and Write-offs tabs. `load` reads one page for the state chosen
 * (empty: every state).
 */
export function RequestList<S extends string, T extends { id: string }>({
  name,
  intro,
  states,
  labels,
  initialState,
  queryKey,
  load,
  row,
}: {
  name: string;
  intro: ReactNode;
  states: readonly S[];
  labels: Record<S, string>;
  initialState: S | '';
  queryKey: QueryKey;
  load: (query: { status?: S; page: number; pageSize: number }) => Promise<Page<T>>;
  row: (item: T) => ReactNode;
}) {
  const id = useId();
  const [state, setState] = useState<S | ''>(initialState);
  const [page, setPage] = useState(1);
  const query = { ...(state ? { status: state } : {}), page, pageSize: PAGE_SIZE };
  const list = useQuery({
    queryKey: [...queryKey, query],
    queryFn: () => load(query),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  const items = list.data?.items ?? [];
  const slug = name.toLowerCase().replace(/\s+/g, '-');
  return (
    <div className="grid min-w-0 grid-cols-1 gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="max-w-prose text-muted-foreground text-sm">{intro}</p>
        <div className="grid grid-cols-1 gap-1">
          <Label htmlFor={`${id}-state`}>State</Label>
          <NativeSelect
            id={`${id}-state`}
            className="w-52"
            value={state}
            onChange={(event) => {
              setState(event.target.value as S | '');
              setPage(1);
            }}
            data-testid={`select-${slug}-state`}
          >
            <option value="">Every state</option>
            {states.map((s) => (
              <option key={s} value={s}>
                {labels[s]}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      {list.isLoading ? (
        <div role="status" className="grid grid-cols-1 gap-2">
          <span className="sr-only">Loading {name.toLowerCase()}…</span>
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : list.error ? (
        <Card role="alert" className="p-4 text-destructive text-sm" data-testid={`error-${slug}`}>
          {name} could not be loaded: {errorMessage(list.error)}
        </Card>
      ) : items.length === 0 ? (
        <Card>
          <EmptyMessage icon={Inbox} testId={`empty-${slug}`}>
            {state
              ? `No ${name.toLowerCase()} ${labels[state].toLowerCase()}.`
              : `No ${name.toLowerCase()} yet.`}
          </EmptyMessage>
        </Card>
      ) : (
        <ul className="grid grid-cols-1 gap-2" data-testid={`list-${slug}`}>
          {items.map((item) => (
            <li key={item.id}>{row(item)}</li>
          ))}
        </ul>
      )}
      {list.data && (
        <Pagination page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} testId={slug} />
      )}
    </div>
  );
}
