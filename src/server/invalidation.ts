import { sql } from 'drizzle-orm';
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

  async publish(executor: Executor, namespace: string, key: string): Promise<void> {
    const payload = `${namespace}:${key}`;
    this.dispatch(payload);
    await executor.execute(sql`SELECT pg_notify(${CHANNEL}, ${payload})`);
  }

  private dispatch(payload: string): void {
    const separator = payload.indexOf(':');
    if (separator < 0) return;
    const handlers = this.handlers.get(payload.slice(0, separator)) ?? [];
    for (const handler of handlers) handler(payload.slice(separator + 1));
  }
}
