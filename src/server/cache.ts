import type { AppContext } from './context';

/**
 * A per-instance cache of values loaded from the database, with a time-to-live as a safety net
 * and exact eviction through the invalidation bus: `ctx.bus.publish(executor, namespace, key)`
 * (key '*' clears the namespace) in the transaction that changes the data.
 */
export class InstanceCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = await load();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, at: now });
    return value;
  }

  evict(key: string): void {
    if (key === '*') this.entries.clear();
    else this.entries.delete(key);
  }
}

const registry = new WeakMap<AppContext, Map<string, InstanceCache<unknown>>>();

export interface CacheOptions {
  /** Beyond this many entries the cache starts over rather than grow (large values: keep it low). */
  maxEntries?: number;
  /** Other namespaces whose changes clear this cache too (data it shows from other areas). */
  clearedBy?: readonly string[];
}

/** The app instance's cache for a namespace, created (and subscribed to the bus) on first use. */
export function instanceCache<V>(
  ctx: AppContext,
  namespace: string,
  ttlMs: number,
  options: CacheOptions = {},
): InstanceCache<V> {
  let caches = registry.get(ctx);
  if (!caches) {
    caches = new Map();
    registry.set(ctx, caches);
  }
  let cache = caches.get(namespace);
  if (!cache) {
    const created = new InstanceCache<unknown>(ttlMs, options.maxEntries);
    ctx.bus.on(namespace, (key) => created.evict(key));
    for (const other of options.clearedBy ?? []) ctx.bus.on(other, () => created.evict('*'));
    caches.set(namespace, created);
    cache = created;
  }
  return cache as InstanceCache<V>;
}
