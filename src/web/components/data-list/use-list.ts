import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ListEndpoint, ListQuerySchema } from '@/contracts/lists';
import { api } from '@/web/lib/api';
import { type ListState, listQueryOf } from './use-list-state';

export const LIST_PAGE_SIZE = 50;

/**
 * One page of a list endpoint for the current state. The previous page stays on screen while the
 * next loads (no flashing empty table), and the query key starts with the endpoint's path so a
 * mutation can invalidate every page of it at once.
 */
export function useList<T>(
  endpoint: ListEndpoint<ListQuerySchema, T>,
  state: ListState,
  pageSize = LIST_PAGE_SIZE,
) {
  const query = listQueryOf(state, pageSize);
  return useQuery({
    queryKey: [endpoint.path, 'list', query],
    queryFn: () => api(endpoint, { query }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
