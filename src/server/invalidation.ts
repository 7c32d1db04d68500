import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { Executor } from './context';
import { afterCommit } from './transaction';

/** The NOTIFY channel every instance listens on (payload `namespace:key`). */
export const INVALIDATION_CHANNEL = 'cache_invalidate';

type Handler = (key: string) => void;

/**
 * Per-instance caches (sessions, unread counts, lists) stay correct across instances through one
 * PostgreSQL NOTIFY channel (PGlite has it too). `publish` evicts here at once; other instances
 * (and this one, again) evict once the change is committed, never before it is visible.
 *
 * A transaction that calls NOTIFY takes a database-wide lock at commit and holds it through the
 * WAL flush, so notifying transactions commit one at a time (decision 024). So in a transaction
 * opened by `withTransaction` nothing is sent in it: at its commit this instance evicts again and
 * the payload joins a process-wide set, sent by one flush at a time in a single autocommit
 * statement for everything pending (300 payments evicting the contracts table send it once).
 * Other instances evict a moment after the commit. Any other executor (autocommit, a transaction
 * opened directly) notifies in its own transaction, as before: those paths are not hot.
 */
export class InvalidationBus {
  private readonly handlers = new Map<string, Handler[]>();
  private stopListening: (() => Promise<void>) | undefined;
  private database: Database | undefined;
  private log: Pick<FastifyBaseLogger, 'warn' | 'error'> | undefined;
  private readonly pending = new Set<string>();
  private flushing: Promise<void> | undefined;

  async start(database: Database, log: Pick<FastifyBaseLogger, 'warn' | 'error'>): Promise<void> {
    this.database = database;
    this.log = log;
    this.stopListening = await database.listen(INVALIDATION_CHANNEL, (payload) => this.dispatch(payload));
  }

  /** Sends what committed transactions left pending, then stops listening: call before the database closes. */
  async stop(): Promise<void> {
    await this.flushed();
    await this.stopListening?.();
  }

  /** Resolves once every payload pending now (and any added meanwhile) has been sent. */
  async flushed(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** `namespace` must not contain ':'. */
  on(namespace: string, handler: Handler): void {
    this.handlers.set(namespace, [...(this.handlers.get(namespace) ?? []), handler]);
  }

  /**
   * Evicts here at once; every instance evicts again once the transaction of `executor` commits
   * (at once if `executor` is not in a transaction). Inside `withTransaction` it sends no
   * statement at all, so hot writes call it freely.
   */
  async publish(executor: Executor, namespace: string, key: string): Promise<void> {
    const payload = `${namespace}:${key}`;
    this.dispatch(payload);
    if (afterCommit(executor, () => this.committed(payload))) return;
    await executor.execute(sql`SELECT pg_notify(${INVALIDATION_CHANNEL}, ${payload})`);
  }

  private committed(payload: string): void {
    // A read here between the early eviction and the commit may have cached the old value.
    this.dispatch(payload);
    this.pending.add(payload);
    this.flushing ??= this.flush();
  }

  /** The one flush in flight: sends everything pending, again while more arrived meanwhile. */
  private async flush(): Promise<void> {
    // Commits settling in this turn of the event loop join the first statement.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.pending.size) {
        const payloads = [...this.pending];
        this.pending.clear();
        await this.send(payloads);
      }
    } finally {
      this.flushing = undefined;
    }
  }

  /**
   * One autocommit statement on the pool (on PGlite it waits for any open transaction: its one
   * connection runs a query only between transactions). Retried once; if that fails too, other
   * instances keep the old values until their caches' time-to-live ends.
   */
  private async send(payloads: string[]): Promise<void> {
    const database = this.database;
    if (!database) return;
    const statement = sql`SELECT pg_notify(${INVALIDATION_CHANNEL}, p) FROM unnest(${sql.param(payloads)}::text[]) AS p`;
    try {
      await database.db.execute(statement);
    } catch (error) {
      this.log?.warn(
        { err: error, payloads: payloads.length },
        'sending cache invalidations failed; retrying',
      );
      try {
        await database.db.execute(statement);
      } catch (retryError) {
        this.log?.error({ err: retryError, payloads: payloads.length }, 'cache invalidations were not sent');
      }
    }
  }

  private dispatch(payload: string): void {
    const separator = payload.indexOf(':');
    if (separator < 0) return;
    const handlers = this.handlers.get(payload.slice(0, separator)) ?? [];
    for (const handler of handlers) handler(payload.slice(separator + 1));
  }
}
