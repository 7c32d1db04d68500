import { type AnyColumn, and, asc, desc, type SQL, sql, type Table } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type LIST_BASE_KEYS,
  type ListEndpoint,
  type ListQuerySchema,
  listFilterNames,
  type Page,
} from '../contracts/lists';
import type { RoleHolder } from '../contracts/roles';
import { queryRows } from '../db/client';
import { arrearsDay } from './business-date';
import { type InstanceCache, instanceCache, rowTagOf, tagOf } from './cache';
import type { AppContext } from './context';
import { unprocessable } from './errors';
import { CSV_EXPORT_LIMIT, type CsvColumn, offsetOf, toCsv } from './lists';
import { organisation } from './organisation';

/**
 * One list endpoint, declared once (decision 010): the query schema it accepts (shared with the
 * web, `listQuery`), the SQL of each filter and sort, the rows, the CSV export and the caches all
 * come from here, so no list can drift from the convention of src/contracts/lists.ts.
 */
export interface ListDefinition<S extends ListQuerySchema, Item> extends ListSource {
  /**
   * Its endpoint (src/contracts): the path, the query schema it accepts (shared with the web,
   * `listQuery`) and the page schema each cached page is checked against once, when it is made.
   */
  endpoint: ListEndpoint<S, Item>;
  /** The search box (`q`, already trimmed and not empty). */
  search?: (q: string) => SQL | undefined;
  /** Every filter of the schema, as conditions (the type demands one per filter). */
  filters: {
    [K in FilterName<S>]-?: (
      value: NonNullable<z.output<S>[K]>,
      env: ListEnv,
      query: z.output<S>,
    ) => Condition;
  };
  /**
   * Every sort of the schema as index-friendly columns. The tie-break is appended in the same
   * direction (so each sort is one index read forwards or backwards), unless the sort is `unique`.
   */
  sorts: { [K in Extract<z.output<S>['sort'], string>]: Sort };
  tieBreak: AnyColumn;
  /** The rows of one page (or of the export) for a condition and an order. */
  rows: (request: RowsRequest<z.output<S>>) => Promise<Item[]>;
  csv: CsvExport<Item>;
  /** What the viewer changes in a row (masked PII): part of the page cache key. */
  variant?: (viewer: Viewer) => string;
  /**
   * Tables a filter reads beyond `counts`: a total with that filter is evicted by their writes
   * too, a total without it is not (a payment moves a contract's figures, not the list's count).
   */
  filterReads?: { [K in FilterName<S>]?: readonly Table[] };
  /**
   * The table (of `shows`) of which each row shows one row, and that row's key: a write to some
   * of its rows (`rowsChanged`) evicts only the pages showing them, and those whose sort
   * (`Sort.reads`) or filters (`filterReads`) read the table.
   */
  rowsOf?: { table: Table; key: (item: Item) => string };
}

/** Where a list's rows come from and how they are cached, whatever its items. */
export interface ListSource {
  /** Names the list's caches (`<name>_pages`, `<name>_totals`). */
  name: string;
  /** Every table a row shows, or a search or filter reads: a write to one evicts the pages. */
  shows: readonly Table[];
  /**
   * The tables every total reads (the count, the search and the filters without `filterReads`):
   * a write to one evicts the totals. By default `shows`.
   */
  counts?: readonly Table[];
  filterReads?: Readonly<Record<string, readonly Table[] | undefined>>;
  rowsOf?: { table: Table };
  /** The number of matches (`query`: the parsed query); the default counts the rows of `shows[0]`. */
  count?: (
    ctx: AppContext,
    where: SQL | undefined,
    query: Readonly<Record<string, unknown>>,
  ) => Promise<number>;
  /**
   * Per-instance caches (decision 005). Without them the rows and the total are read each time.
   * No `totalsTtlMs`: the total is read with each page made. `pages.version`: for rows written
   * too often for eviction to keep anything (payments), the version of what the rows show in the
   * reader's snapshot, read before each page: a page is kept for its version, and its readers
   * share it until a write moves the version (decision 048). The other tables of `shows` evict
   * as ever.
   */
  cache?: {
    totalsTtlMs?: number;
    pages?: { ttlMs: number; maxEntries: number; version?: (ctx: AppContext) => Promise<string> };
  };
}

export type Viewer = RoleHolder | null | undefined;
type Condition = SQL | readonly SQL[] | undefined;
type FilterName<S extends ListQuerySchema> = Exclude<keyof z.output<S>, (typeof LIST_BASE_KEYS)[number]>;

/** What filters and rows may depend on besides the query: part of every cache key. */
export interface ListEnv {
  timeZone: string;
  /** Days past due and buckets are of the business date (decision 054). */
  businessDate: string;
  /** The organisation's bucket bounds (`delinquencyBuckets`). */
  buckets: readonly number[];
}

export interface Sort {
  columns: readonly (AnyColumn | SQL)[];
  /** Rows without a value come last whichever way the list is sorted. */
  nullsLast?: boolean;
  /** The columns alone order every row (a unique number): no tie-break is needed. */
  unique?: boolean;
  /**
   * The columns run against the sort (days past due, highest first, are the days arrears began,
   * earliest first); the tie-break still follows it, as the index stores it (decision 054).
   */
  reversed?: boolean;
  /** Tables the order reads that a page's rows show only a few rows of (`rowsOf`). */
  reads?: readonly Table[];
}

export interface RowsRequest<Q = unknown> {
  ctx: AppContext;
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
  viewer: Viewer;
  /** The list's query, for rows whose shape follows a filter (a journal entry's lines of one contract). */
  query: Q;
  env: ListEnv;
  /** The rows of a CSV export: every detail, where a page may show a part (a batch entry's lines). */
  exporting: boolean;
}

export interface CsvExport<Item> {
  filename: string;
  /** What the rows are, for the message of an export that is too large. */
  noun: string;
  /** The most items one export returns; beyond it the export asks for narrower filters. */
  limit?: number | undefined;
  /** The CSV rows of the items (several per item: a journal entry's lines). */
  render: (items: readonly Item[]) => string;
}

type CsvNames = Pick<CsvExport<unknown>, 'filename' | 'noun' | 'limit'>;

/** A CSV export whose lines are the items themselves. */
export function csvOf<Item>(names: CsvNames, columns: readonly CsvColumn<Item>[]): CsvExport<Item> {
  return { ...names, render: (items) => toCsv(items, columns) };
}

/** A CSV export with several lines per item (`linesOf`). */
export function csvOfLines<Item, Line>(
  names: CsvNames,
  linesOf: (item: Item) => Line[],
  columns: readonly CsvColumn<Line>[],
): CsvExport<Item> {
  return { ...names, render: (items) => toCsv(items.flatMap(linesOf), columns) };
}

/** Checks at start-up what the types cannot: the filters named are exactly the schema's. */
export function defineList<S extends ListQuerySchema, Item>(
  definition: ListDefinition<S, Item>,
): ListDefinition<S, Item> {
  const declared = Object.keys(definition.filters).sort();
  const schema = listFilterNames(definition.endpoint.query).sort();
  if (declared.join() !== schema.join())
    throw new Error(`List ${definition.name}: filters ${declared} do not match the schema's ${schema}`);
  return definition;
}

/** A parsed query: the schema's output, with the convention's parameters known in generic code. */
type Query<S extends ListQuerySchema> = z.output<S> & {
  q?: string | undefined;
  page: number;
  pageSize: number;
  order: 'asc' | 'desc';
  sort: string;
};

/** The WHERE of a query: the search and every filter given. */
export function whereOf<S extends ListQuerySchema, Item>(
  definition: ListDefinition<S, Item>,
  query: Query<S>,
  env: ListEnv,
): SQL | undefined {
  const conditions: SQL[] = [];
  const search = query.q ? definition.search?.(query.q) : undefined;
  if (search) conditions.push(search);
  for (const name of Object.keys(definition.filters) as FilterName<S>[]) {
    const value = query[name];
    if (!given(value)) continue;
    const condition = definition.filters[name](value as never, env, query);
    if (condition) conditions.push(...(Array.isArray(condition) ? condition : [condition as SQL]));
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** ORDER BY for the query's sort and order, the tie-break in the same direction. */
export function orderOf<S extends ListQuerySchema, Item>(
  definition: ListDefinition<S, Item>,
  query: Query<S>,
): SQL[] {
  const sort: Sort = (definition.sorts as Record<string, Sort>)[query.sort] ?? { columns: [] };
  const direction = query.order === 'asc' ? asc : desc;
  const along = sort.reversed ? (query.order === 'asc' ? desc : asc) : direction;
  const nulls = sort.nullsLast ? sql` NULLS LAST` : sql``;
  const columns = sort.columns.map((column) => sql`${along(column as AnyColumn)}${nulls}`);
  return sort.unique ? columns : [...columns, sql`${direction(definition.tieBreak)}${nulls}`];
}

/**
 * The key of a total: the search, every filter of the schema (by name, so a filter added to the
 * schema is in the key without anyone listing it) and what filters depend on (the time zone).
 */
export function totalKeyOf<S extends ListQuerySchema, Item>(
  definition: ListDefinition<S, Item>,
  query: Query<S>,
  env: ListEnv,
): string {
  const filters = Object.keys(definition.filters)
    .sort()
    .map((name) => [name, query[name as keyof Query<S>] ?? null]);
  return JSON.stringify([query.q ?? null, filters, env]);
}

/** The key of a page: the whole query but its format, the viewer's variant and the time zone. */
export function pageKeyOf<S extends ListQuerySchema, Item>(
  definition: ListDefinition<S, Item>,
  query: Query<S>,
  env: ListEnv,
  viewer: Viewer,
): string {
  const { format: _format, ...rest } = query as Query<S> & { format?: string };
  const entries = Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([definition.variant?.(viewer) ?? '', entries, env]);
}

/** The totals cache of a list, when it keeps one (decision 005). */
export function totalsCache(ctx: AppContext, definition: ListSource) {
  const ttlMs = definition.cache?.totalsTtlMs;
  return ttlMs !== undefined
    ? instanceCache<number>(ctx, `${definition.name}_totals`, ttlMs, {
        tables: definition.counts ?? definition.shows,
        taggingTables: [...new Set(Object.values(definition.filterReads ?? {}).flatMap((t) => t ?? []))],
      })
    : undefined;
}

/** Whether a query gives a value for a parameter (an empty one is not a filter). */
export const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/** The tables the query's given filters read beyond those every total reads (`filterReads`). */
function filterTablesOf<S extends ListQuerySchema, Item>(
  definition: ListDefinition<S, Item>,
  query: Query<S>,
): Table[] {
  const reads = (definition.filterReads ?? {}) as NonNullable<ListSource['filterReads']>;
  return [
    ...new Set(
      Object.entries(reads).flatMap(([name, tables]) =>
        given(query[name as keyof Query<S>]) ? (tables ?? []) : [],
      ),
    ),
  ];
}

/** The tags of a total: the tables its filters read beyond those every total reads. */
function totalTagsOf<S extends ListQuerySchema, Item>(
  definition: ListDefinition<S, Item>,
  query: Query<S>,
): string[] {
  return filterTablesOf(definition, query).map(tagOf);
}

/** The pages cache of a list, when it keeps pages (decision 005). */
export function pagesCache(ctx: AppContext, definition: ListSource): InstanceCache<CachedPage> | undefined {
  const pages = definition.cache?.pages;
  const rows = definition.rowsOf?.table;
  return pages
    ? instanceCache<CachedPage>(ctx, `${definition.name}_pages`, pages.ttlMs, {
        maxEntries: pages.maxEntries,
        tables: definition.shows.filter((table) => table !== rows),
        rowTables: rows ? [rows] : [],
      })
    : undefined;
}

/** A page as sent, with the tags it was kept with (the rows of `rowsOf` it shows). */
interface CachedPage {
  bytes: Buffer;
  tags: readonly string[];
}

/**
 * The tags of a page: each row of `rowsOf` it shows, and the table itself when the page's order
 * or one of its filters reads it (then a write to any of its rows may move the page).
 */
function pageTagsOf<S extends ListQuerySchema, Item>(
  definition: ListDefinition<S, Item>,
  query: Query<S>,
  items: readonly Item[],
): string[] {
  const rows = definition.rowsOf;
  if (!rows) return [];
  const sort = (definition.sorts as Record<string, Sort>)[query.sort];
  const filtered = filterTablesOf(definition, query).includes(rows.table);
  const tags = items.map((item) => rowTagOf(rows.table, rows.key(item)));
  return sort?.reads?.includes(rows.table) || filtered ? [...tags, tagOf(rows.table)] : tags;
}

async function countOf(
  ctx: AppContext,
  definition: ListSource,
  where: SQL | undefined,
  query: Readonly<Record<string, unknown>>,
): Promise<number> {
  if (definition.count) return definition.count(ctx, where, query);
  const [source] = definition.shows;
  const [row] = await queryRows<{ n: number }>(
    ctx.db,
    sql`SELECT count(*)::int AS n FROM ${source}${where ? sql` WHERE ${where}` : sql``}`,
  );
  return Number(row?.n ?? 0);
}

async function envOf(ctx: AppContext): Promise<ListEnv> {
  const [org, day] = await Promise.all([organisation(ctx, ctx.db), arrearsDay(ctx, ctx.db)]);
  return { timeZone: org.timeZone, businessDate: day.date, buckets: day.buckets };
}

/** One page of the list: its rows and the number of matches (cached per filter set). */
export async function listPage<S extends ListQuerySchema, Item>(
  ctx: AppContext,
  definition: ListDefinition<S, Item>,
  query: Query<S>,
  viewer: Viewer,
): Promise<Page<Item>> {
  const env = await envOf(ctx);
  const where = whereOf(definition, query, env);
  const totals = totalsCache(ctx, definition);
  const total = () => countOf(ctx, definition, where, query);
  const [items, matches] = await Promise.all([
    definition.rows({
      ctx,
      where,
      orderBy: orderOf(definition, query),
      limit: query.pageSize,
      offset: offsetOf(query.page, query.pageSize),
      viewer,
      query,
      env,
      exporting: false,
    }),
    totals ? totals.get(totalKeyOf(definition, query, env), total, totalTagsOf(definition, query)) : total(),
  ]);
  return { items, total: matches, page: query.page, pageSize: query.pageSize };
}

/**
 * A page as the JSON bytes the API sends, checked against the response schema once; lists with a
 * pages cache keep it per instance until a table they show changes.
 */
export async function listPageJson<S extends ListQuerySchema, Item>(
  ctx: AppContext,
  definition: ListDefinition<S, Item>,
  query: Query<S>,
  viewer: Viewer,
): Promise<Buffer> {
  const make = async (): Promise<CachedPage> => {
    const page = await listPage(ctx, definition, query, viewer);
    const bytes = Buffer.from(JSON.stringify(definition.endpoint.response.parse(page)));
    return { bytes, tags: pageTagsOf(definition, query, page.items) };
  };
  const pages = pagesCache(ctx, definition);
  if (!pages) return (await make()).bytes;
  const version = await definition.cache?.pages?.version?.(ctx);
  const key = pageKeyOf(definition, query, await envOf(ctx), viewer);
  const cached = await pages.get(key, make, (page) => page.tags, version);
  return cached.bytes;
}

/** Every matching row in the list's order as CSV, or 422 EXPORT_TOO_LARGE past the export limit. */
export async function listCsv<S extends ListQuerySchema, Item>(
  ctx: AppContext,
  definition: ListDefinition<S, Item>,
  query: Query<S>,
  viewer: Viewer,
): Promise<string> {
  const limit = definition.csv.limit ?? CSV_EXPORT_LIMIT;
  const env = await envOf(ctx);
  const items = await definition.rows({
    ctx,
    where: whereOf(definition, query, env),
    orderBy: orderOf(definition, query),
    limit: limit + 1,
    offset: 0,
    viewer,
    query,
    env,
    exporting: true,
  });
  if (items.length > limit) {
    throw unprocessable(
      `More than ${limit.toLocaleString('en-US')} ${definition.csv.noun} match; narrow the filters to export`,
      'EXPORT_TOO_LARGE',
    );
  }
  return definition.csv.render(items);
}
