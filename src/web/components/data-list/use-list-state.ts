import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { endpointUrl } from '@/contracts/endpoint';
import { type ListEndpoint, type ListQuerySchema, listFilterNames, listSortNames } from '@/contracts/lists';

/**
 * The state of a server-side list (src/contracts/lists.ts: q, filters, sort, order, page), kept in
 * the address bar so a filtered list can be bookmarked, shared, and survives Back. Empty values
 * are dropped; any change other than the page goes back to page 1.
 */
export interface ListState {
  q: string;
  sort: string;
  order: 'asc' | 'desc';
  page: number;
  filters: Record<string, string>;
}

export interface ListDefaults {
  sort: string;
  order?: 'asc' | 'desc';
  /** Filter names the list understands; other address-bar parameters are ignored. */
  filters?: readonly string[];
  /** Sort names the list understands; another in the address bar falls back to `sort`. */
  sorts?: readonly string[];
}

/** The defaults of a list's page from its query schema (the API's), with the page's own first view. */
export function listDefaultsOf(
  schema: ListQuerySchema,
  initial: { sort?: string | undefined; order?: 'asc' | 'desc' | undefined } = {},
): ListDefaults {
  const api = schema.parse({}) as { sort: string; order: 'asc' | 'desc' };
  return {
    sort: initial.sort ?? api.sort,
    order: initial.order ?? api.order,
    filters: listFilterNames(schema),
    sorts: listSortNames(schema),
  };
}

const RESERVED = new Set(['q', 'sort', 'order', 'page']);

export function parseListState(search: string, defaults: ListDefaults): ListState {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const order = params.get('order');
  const filters: Record<string, string> = {};
  for (const name of defaults.filters ?? []) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return {
    q: params.get('q') ?? '',
    sort: sortOf(params.get('sort'), defaults),
    order: order === 'asc' || order === 'desc' ? order : (defaults.order ?? 'desc'),
    page: Number.isInteger(page) && page > 0 ? page : 1,
    filters,
  };
}

function sortOf(sort: string | null, defaults: ListDefaults): string {
  if (!sort || (defaults.sorts && !defaults.sorts.includes(sort))) return defaults.sort;
  return sort;
}

/** The API query for a state (page size fixed by the caller). */
export function listQueryOf(state: ListState, pageSize = 50): Record<string, string> {
  const query: Record<string, string> = {};
  if (state.q.trim()) query.q = state.q.trim();
  for (const [name, value] of Object.entries(state.filters))
    if (value && !RESERVED.has(name)) query[name] = value;
  return {
    ...query,
    sort: state.sort,
    order: state.order,
    page: String(state.page),
    pageSize: String(pageSize),
  };
}

/** The CSV export address for the same search and filters (every matching row, not just the page). */
export function csvHref(endpoint: ListEndpoint, state: ListState): string {
  const { page: _page, pageSize: _pageSize, ...query } = listQueryOf(state);
  return endpointUrl(endpoint, { query: { ...query, format: 'csv' } });
}

export interface ListStateApi {
  state: ListState;
  setSearch(q: string): void;
  setFilter(name: string, value: string): void;
  /** Sort by a column: the same column again flips the order. */
  sortBy(column: string): void;
  setPage(page: number): void;
  clear(): void;
}

export function useListState(defaults: ListDefaults): ListStateApi {
  const search = useSearch();
  const [location, navigate] = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: defaults are a constant per list
  const state = useMemo(() => parseListState(search, defaults), [search]);

  const go = useCallback(
    (next: ListState) => {
      // Parameters the list does not own (a page's ?tab=) stay as they are.
      const params = new URLSearchParams(search);
      for (const name of [...RESERVED, ...(defaults.filters ?? [])]) params.delete(name);
      if (next.q) params.set('q', next.q);
      for (const [name, value] of Object.entries(next.filters)) if (value) params.set(name, value);
      if (next.sort !== defaults.sort) params.set('sort', next.sort);
      if (next.order !== (defaults.order ?? 'desc')) params.set('order', next.order);
      if (next.page > 1) params.set('page', String(next.page));
      const query = params.toString();
      navigate(query ? `${location}?${query}` : location, { replace: true });
    },
    [search, location, navigate, defaults.sort, defaults.order, defaults.filters],
  );

  return {
    state,
    setSearch: (q) => go({ ...state, q, page: 1 }),
    setFilter: (name, value) => go({ ...state, filters: { ...state.filters, [name]: value }, page: 1 }),
    sortBy: (column) =>
      go({
        ...state,
        sort: column,
        order: state.sort === column ? (state.order === 'asc' ? 'desc' : 'asc') : 'asc',
        page: 1,
      }),
    setPage: (page) => go({ ...state, page }),
    clear: () => go({ q: '', sort: defaults.sort, order: defaults.order ?? 'desc', page: 1, filters: {} }),
  };
}
