import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '@/contracts/lists';
import { apiJson } from '@/web/lib/queryClient';
import { type ListState, listQueryString } from './use-list-state';

export const LIST_PAGE_SIZE = 50;

/**
 * One page of a list endpoint for the current state. The previous page stays on screen while the
 * next loads (no flashing empty table), and the query key starts with the endpoint so a mutation
 * can invalidate every page of it at once.
 */
export function useList<T>(endpoint: string, state: ListState, pageSize = LIST_PAGE_SIZE) {
  const url = `${endpoint}?${listQueryString(state, pageSize)}`;
  return useQuery({
    queryKey: [endpoint, 'list', url],
    queryFn: () => apiJson<Page<T>>('GET', url),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
