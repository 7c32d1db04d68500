import { getTableName, type Table } from 'drizzle-orm';
import type { AppServices, Executor } from './context';
import type { InvalidationBus } from './invalidation';

/**
 * A per-instance cache of values loaded from the database, with a time-to-live as a safety net
 * and exact eviction through the invalidation bus: `ctx.bus.publish(executor, namespace, key)`
 * (key '*' clears the namespace) in the transaction that changes the data.
 */
/** What a value depends on besides its key: tags known before the load, or read off the value. */
export type Tags<V> = readonly string[] | ((value: V) => readonly string[]);

interface Entry<V> {
  value: V;
  at: number;
  tags: readonly string[];
  version: string | undefined;
}

export class InstanceCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** The keys of the entries kept with each tag, so a tag's eviction finds them without a scan. */
  private readonly tagged = new Map<string, Set<string>>();
  /** Loads under way, each with the generation and the tag evictions it started after. */
  private readonly loading = new Map<
    string,
    { value: Promise<V>; generation: number; evictions: number; version: string | undefined }
  >();
  /**
   * Raised by every eviction of a key or of everything. A load that started before one may hold
   * what was evicted (it read before the commit): its value goes to its own callers but is not
   * kept, and no later reader joins it.
   */
  private generation = 0;
  /**
   * Tag evictions so far, and the count at each tag's last one: a load is kept unless one of its
   * tags (known only once it has loaded, for a page the rows it shows) was evicted after it began.
   */
  private evictions = 0;
  private readonly lastEvicted = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  /**
   * The cached value, or `load`'s. Readers missing the same key at once share one load (under a
   * flow of writes every reader misses, and eight readers of one page would read it eight times).
   * `tags`: what else the value depends on, each evicted on its own (`evictTagged`). `version`:
   * of what the value was loaded from, read by the caller just before (decision 048): a kept value
   * or a load under way of another version is not used, and the key keeps one value, the last.
   */
  async get(key: string, load: () => Promise<V>, tags: Tags<V> = [], version?: string): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs && hit.version === version) return hit.value;
    const flight = this.loading.get(key);
    if (
      flight &&
      flight.generation === this.generation &&
      flight.evictions === this.evictions &&
      flight.version === version
    )
      return flight.value;
    const generation = this.generation;
    const evictions = this.evictions;
    const value = load();
    this.loading.set(key, { value, generation, evictions, version });
    try {
      const loaded = await value;
      const kept = typeof tags === 'function' ? tags(loaded) : tags;
      const current =
        generation === this.generation && kept.every((tag) => (this.lastEvicted.get(tag) ?? 0) <= evictions);
      if (current) this.keep(key, { value: loaded, at: now, tags: kept, version });
      return loaded;
    } finally {
      if (this.loading.get(key)?.value === value) this.loading.delete(key);
      this.forgetOldEvictions();
    }
  }

  evict(key: string): void {
    this.generation += 1;
    if (key === '*') {
      this.entries.clear();
      this.tagged.clear();
    } else this.entries.delete(key);
  }

  /** Evicts the entries kept with `tag`, and keeps no load under way that turns out to depend on it. */
  evictTagged(tag: string): void {
    this.evictions += 1;
    this.lastEvicted.set(tag, this.evictions);
    for (const key of this.tagged.get(tag) ?? []) this.entries.delete(key);
    this.tagged.delete(tag);
  }

  private keep(key: string, entry: Entry<V>): void {
    if (this.entries.size >= this.maxEntries) {
      this.entries.clear();
      this.tagged.clear();
    }
    this.entries.set(key, entry);
    for (const tag of entry.tags) {
      let keys = this.tagged.get(tag);
      if (!keys) {
        keys = new Set();
        this.tagged.set(tag, keys);
      }
      keys.add(key);
    }
  }

  /** Tag evictions older than every load under way can no longer refuse a value: forgotten. */
  private forgetOldEvictions(): void {
    if (this.lastEvicted.size < 10_000) return;
    let oldest = this.evictions;
    for (const flight of this.loading.values()) oldest = Math.min(oldest, flight.evictions);
    for (const [tag, at] of this.lastEvicted) if (at <= oldest) this.lastEvicted.delete(tag);
  }
}

// Keyed by the instance's bus, not its context: a transaction's context is a copy of the app's
// (TxContext), and each copy must find the same caches, not subscribe new ones.
const registry = new WeakMap<InvalidationBus, Map<string, InstanceCache<unknown>>>();

export interface CacheOptions {
  /** Beyond this many entries the cache starts over rather than grow (large values: keep it low). */
  maxEntries?: number;
  /**
   * Every table whose rows the cached values show, search or filter on: a write to any of them
   * (`tablesChanged`) clears the whole cache. A list's definition names them once (`shows`).
   */
  tables?: readonly Table[];
  /**
   * Tables only some values depend on (a list total whose filter reads them): a write to one
   * evicts the values got with its name among their tags (`tagOf`), and spares the others.
   */
  taggingTables?: readonly Table[];
  /**
   * Tables whose rows the values show a few of (a list page): a write to one row, published with
   * its key (`rowsChanged`), evicts only the values tagged with that row (`rowTagOf`) and those
   * tagged with the table itself (a page whose order or filter reads it); a write published for
   * the whole table clears the cache.
   */
  rowTables?: readonly Table[];
}

/**
 * The one map from tables to caches is kept by the bus: a cache subscribes to `table.<name>` for
 * each table it shows, and a write publishes the tables it changed. A writer names only its own
 * tables and never needs to know which lists (in which areas) show them.
 */
const tableNamespace = (table: Table) => `table.${getTableName(table)}`;

/** The tag of a value that depends on `table` as a whole (its cache's `taggingTables` or `rowTables`). */
export const tagOf = tableNamespace;

/** The tag of a value that shows the row `key` of `table` (one of its cache's `rowTables`). */
export const rowTagOf = (table: Table, key: string) => `${tableNamespace(table)}:${key}`;

/**
 * Call in the transaction of a write: evicts here now and on every instance at commit. Inside
 * `withTransaction` it costs no statement (decision 024), so hot writes call it too.
 */
export async function tablesChanged(ctx: AppServices, executor: Executor, ...tables: Table[]): Promise<void> {
  for (const table of tables) await ctx.bus.publish(executor, tableNamespace(table), '*');
}

/**
 * `tablesChanged` for some rows of one table, named by their keys: caches that show a few rows of
 * it (`rowTables`) evict only what shows those rows; others treat it as a write to the table.
 */
export async function rowsChanged(
  ctx: AppServices,
  executor: Executor,
  table: Table,
  keys: readonly string[],
): Promise<void> {
  for (const key of new Set(keys)) await ctx.bus.publish(executor, tableNamespace(table), key);
}

/** The app instance's cache for a namespace, created (and subscribed to the bus) on first use. */
export function instanceCache<V>(
  ctx: AppServices,
  namespace: string,
  ttlMs: number,
  options: CacheOptions = {},
): InstanceCache<V> {
  let caches = registry.get(ctx.bus);
  if (!caches) {
    caches = new Map();
    registry.set(ctx.bus, caches);
  }
  let cache = caches.get(namespace);
  if (!cache) {
    const created = new InstanceCache<unknown>(ttlMs, options.maxEntries);
    ctx.bus.on(namespace, (key) => created.evict(key));
    for (const table of options.tables ?? []) ctx.bus.on(tableNamespace(table), () => created.evict('*'));
    for (const table of options.taggingTables ?? [])
      ctx.bus.on(tableNamespace(table), () => created.evictTagged(tableNamespace(table)));
    for (const table of options.rowTables ?? [])
      ctx.bus.on(tableNamespace(table), (key) => {
        if (key === '*') return created.evict('*');
        created.evictTagged(tableNamespace(table));
        created.evictTagged(rowTagOf(table, key));
      });
    caches.set(namespace, created);
    cache = created;
  }
  return cache as InstanceCache<V>;
}
