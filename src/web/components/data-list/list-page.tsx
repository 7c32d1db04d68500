import type { LucideIcon } from 'lucide-react';
import { type ReactNode, useMemo } from 'react';
import { useLocation } from 'wouter';
import type { ListEndpoint, ListQuerySchema, Page } from '@/contracts/lists';
import { errorMessage } from '@/web/lib/queryClient';
import { type Column, DataTable, ListStates } from './data-table';
import { FilterSelect } from './filter-select';
import { ListToolbar } from './list-toolbar';
import { Pagination } from './pagination';
import { LIST_PAGE_SIZE, useList } from './use-list';
import { csvHref, type ListState, type ListStateApi, listDefaultsOf, useListState } from './use-list-state';

/** A select filter of the toolbar: one of the schema's filters and its choices. */
export interface FilterControl {
  name: string;
  label: string;
  allLabel: string;
  /**
   * value -> label. Choices an organisation configures (regions, buckets) come from the server:
   * the page reads them with its own query and passes them here.
   */
  options: ReadonlyArray<readonly [string, string]>;
  testId: string;
  /** Shown only when there is something to choose. */
  hideWhenEmpty?: boolean;
  /**
   * A value in the address bar that the choices lack stays selectable (free text: regions), named
   * by this function when given (a link's minimum days past due), else shown as it is.
   */
  keepCurrent?: boolean | ((value: string) => string);
}

interface ListPageProps<T> {
  /** The list's endpoint (src/contracts): its query's filters and sorts are what the address bar may hold. */
  endpoint: ListEndpoint<ListQuerySchema, T>;
  /** The page's first view when it differs from the API's default. */
  initial?: { sort?: string; order?: 'asc' | 'desc' };
  /** Plural, capitalised: "Contracts" (table name, loading and error texts). */
  label: string;
  testId: string;
  searchPlaceholder: string;
  filters?: readonly FilterControl[];
  /** More toolbar controls (date ranges), given the list state. */
  toolbar?: (list: ListStateApi) => ReactNode;
  /** Between the toolbar and the rows (scope chips, sort buttons). */
  header?: (list: ListStateApi) => ReactNode;
  /** The API query for a state, when the page adds to it (a filter implied by another). */
  queryOf?: (state: ListState) => ListState;
  pageSize?: number;
  /** What to say when nothing matches, and when there is nothing at all. */
  empty: { filtered: string; none: ReactNode };
  emptyIcon?: LucideIcon;
  /** The rows as a table... */
  columns?: ReadonlyArray<Column<T>>;
  rowKey?: (row: T) => string;
  rowHref?: (row: T) => string;
  /** ...or drawn by the page (journal entries as cards). */
  renderItems?: (items: readonly T[], fetching: boolean) => ReactNode;
}

/**
 * Every server-side list page (src/contracts/lists.ts): search, filters, sort, pages and CSV export,
 * all kept in the address bar, with loading, error and empty states. Driven by the list's query
 * schema, so the page offers no filter or sort the API would refuse.
 */
export function ListPage<T>(props: ListPageProps<T>) {
  const { endpoint, initial, label, testId, pageSize = LIST_PAGE_SIZE } = props;
  const schema = endpoint.query;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the endpoint and first view are constants per list
  const defaults = useMemo(() => listDefaultsOf(schema, initial), [schema]);
  const list = useListState(defaults);
  const { state } = list;
  const [, navigate] = useLocation();
  const query = props.queryOf ? props.queryOf(state) : state;
  const page = useList<T>(endpoint, query, pageSize);
  const filtered = !!state.q || Object.values(state.filters).some(Boolean);
  const error = page.error ? `${label} could not be loaded: ${errorMessage(page.error)}` : null;
  const empty = filtered ? props.empty.filtered : props.empty.none;

  return (
    <div className="grid min-w-0 grid-cols-1">
      <ListToolbar
        search={state.q}
        onSearch={list.setSearch}
        placeholder={props.searchPlaceholder}
        csvHref={csvHref(endpoint, query)}
        onClear={filtered ? list.clear : undefined}
        testId={testId}
      >
        {props.filters?.map((filter) =>
          filter.hideWhenEmpty && filter.options.length === 0 ? null : (
            <FilterSelect
              key={filter.name}
              label={filter.label}
              allLabel={filter.allLabel}
              value={state.filters[filter.name] ?? ''}
              onChange={(value) => list.setFilter(filter.name, value)}
              options={
                filter.keepCurrent
                  ? withCurrent(filter.options, state.filters[filter.name], filter.keepCurrent)
                  : filter.options
              }
              testId={filter.testId}
            />
          ),
        )}
        {props.toolbar?.(list)}
      </ListToolbar>
      {props.header?.(list)}
      {props.renderItems ? (
        <ListStates
          label={label}
          loading={page.isLoading}
          error={error}
          empty={page.data?.items.length ? null : empty}
          emptyIcon={props.emptyIcon}
          testId={testId}
        >
          {page.data && props.renderItems(page.data.items, page.isFetching)}
        </ListStates>
      ) : (
        <DataTable
          label={label}
          columns={props.columns ?? []}
          rows={page.data?.items}
          rowKey={props.rowKey ?? ((row) => (row as { id: string }).id)}
          loading={page.isFetching}
          error={error}
          state={state}
          onSort={list.sortBy}
          rowHref={props.rowHref}
          onOpen={navigate}
          empty={empty}
          testId={testId}
        />
      )}
      {page.data && <PageNav page={page.data} onPage={list.setPage} testId={testId} />}
    </div>
  );
}

function PageNav<T>({ page, onPage, testId }: { page: Page<T>; onPage(page: number): void; testId: string }) {
  return (
    <Pagination
      page={page.page}
      pageSize={page.pageSize}
      total={page.total}
      onPage={onPage}
      testId={testId}
    />
  );
}

/** A value from the address bar stays selectable even when the choices (from the server) lack it. */
function withCurrent(
  options: ReadonlyArray<readonly [string, string]>,
  current: string | undefined,
  labelOf: true | ((value: string) => string),
): ReadonlyArray<readonly [string, string]> {
  if (!current || options.some(([value]) => value === current)) return options;
  return [...options, [current, labelOf === true ? current : labelOf(current)]];
}
