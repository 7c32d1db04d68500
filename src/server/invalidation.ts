import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { Executor } from './context';

const CHANNEL = 'cache_invalidate';

type Handler = (key: string) => void;

/**
 * Per-instance caches (sessions, unread counts) stay correct across instances through one
 * PostgreSQL NOTIFY channel (PGlite has it too). `publish` evicts locally at once and sends the
 * notification in the caller's transaction, so other instances (and this one, again) evict
 * when it commits — never before the change is visible.
 */
export class InvalidationBus {
  private readonly handlers = new Map<string, Handler[]>();
  private stopListening: (() => Promise<void>) | undefined;

  async start(database: Database): Promise<void> {
    this.stopListening = await database.listen(CHANNEL, (payload) => this.dispatch(payload));
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
  }

  /** `namespace` must not contain ':'. */
  on(namespace: string, handler: Handler): void {
    this.handlers.set(namespace, [...(this.handlers.get(namespace) ?? []), handler]);
  }

  /** Evicts here at once; other instances (and this one, again) evict when the transaction commits. */
  async publish(executor: Executor, namespace: string, key: string): Promise<void> {
    await executor.execute(sql`SELECT ${this.notification(namespace, key)}`);
  }

  /**
   * `publish` without its own statement: evicts here at once and returns the `pg_notify(...)`
   * call to run in the statement that makes the change (as a selected column), saving a round
   * trip on hot writes. It must run, in that transaction, or other instances are not told.
   */
  notification(namespace: string, key: string): SQL {
    const payload = `${namespace}:${key}`;
    this.dispatch(payload);
    return sql`pg_notify(${CHANNEL}, ${payload})`;
  }

  private dispatch(payload: string): void {
    const separator = payload.indexOf(':');
    if (separator < 0) return;
    const handlers = this.handlers.get(payload.slice(0, separator)) ?? [];
    for (const handler of handlers) handler(payload.slice(separator + 1));
  }
}
