import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceCache } from '../../src/server/cache';
import { INVALIDATION_CHANNEL } from '../../src/server/invalidation';
import { afterCommit, savepoint, withTransaction } from '../../src/server/transaction';
import { startTestApp, type TestApp } from '../support/app';
import { createTestDatabase, DATABASE_KINDS } from '../support/databases';
import { signal } from '../support/signal';

/**
 * Decision 024: a transaction opened by withTransaction sends no NOTIFY of its own; what it
 * published is sent after its commit, coalesced with every other commit's, in one autocommit
 * statement at a time. Other instances stand in as a second LISTEN session on the database.
 */
describe.each(DATABASE_KINDS)('cache invalidation on %s', (kind) => {
  let t: TestApp;
  let stopListening: () => Promise<void>;
  const heard: string[] = [];
  let sentinels = 0;
  beforeAll(async () => {
    t = await startTestApp(kind);
    stopListening = await t.db.database.listen(INVALIDATION_CHANNEL, (payload) => heard.push(payload));
  });
  afterAll(async () => {
    await stopListening();
    await t.close();
  });

  /**
   * Waits until the listener has heard everything sent so far: the pending flush first, then a
   * marker sent after it (notifications arrive in commit order), so what was not heard by then
   * never will be.
   */
  async function settled(): Promise<void> {
    await t.app.ctx.bus.flushed();
    sentinels += 1;
    const marker = `test-sentinel:${sentinels}`;
    await t.app.ctx.bus.publish(t.app.ctx.db, 'test-sentinel', String(sentinels));
    await expect.poll(() => heard.includes(marker), { timeout: 5000 }).toBe(true);
  }

  it('evicts here at once and again at commit, and tells other sessions after the commit', async () => {
    const evicted: string[] = [];
    t.app.ctx.bus.on('test-commit', (key) => evicted.push(key));
    await withTransaction(t.app.ctx, async (ctx) => {
      await ctx.bus.publish(ctx.tx, 'test-commit', 'a');
      expect(evicted).toEqual(['a']);
      expect(afterCommit(ctx.tx, () => {})).toBe(true);
    });
    expect(evicted).toEqual(['a', 'a']);
    await settled();
    expect(heard.filter((payload) => payload === 'test-commit:a')).toHaveLength(1);
  });

  it('sends nothing for a transaction that rolls back, savepoints included', async () => {
    const evicted: string[] = [];
    t.app.ctx.bus.on('test-rollback', (key) => evicted.push(key));
    await expect(
      withTransaction(t.app.ctx, async (ctx) => {
        await ctx.bus.publish(ctx.tx, 'test-rollback', 'a');
        await savepoint(ctx, (inner) => inner.bus.publish(inner.tx, 'test-rollback', 'b'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(evicted).toEqual(['a', 'b']); // the early evictions only, which are harmless
    await settled();
    expect(heard.filter((payload) => payload.startsWith('test-rollback:'))).toEqual([]);
  });

  it('sends a handful of notifications, not one per transaction, for 200 concurrent commits', async () => {
    const before = heard.length;
    await Promise.all(
      Array.from({ length: 200 }, () =>
        withTransaction(t.app.ctx, async (ctx) => {
          await ctx.tx.execute(sql`SELECT 1`);
          await ctx.bus.publish(ctx.tx, 'test-burst', '*');
        }),
      ),
    );
    await settled();
    const burst = heard.slice(before).filter((payload) => payload === 'test-burst:*');
    expect(burst.length).toBeGreaterThanOrEqual(1);
    expect(burst.length).toBeLessThanOrEqual(10);
  });

  it('still notifies in the statement outside withTransaction (autocommit, or a transaction opened directly)', async () => {
    await t.app.ctx.bus.publish(t.app.ctx.db, 'test-direct', 'autocommit');
    await t.app.ctx.db.transaction(async (tx) => {
      expect(afterCommit(tx, () => {})).toBe(false);
      await t.app.ctx.bus.publish(tx, 'test-direct', 'transaction');
    });
    await expect
      .poll(() => heard.filter((payload) => payload.startsWith('test-direct:')).sort(), { timeout: 5000 })
      .toEqual(['test-direct:autocommit', 'test-direct:transaction']);
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('cache invalidation across two instances', () => {
  it('evicts instance B’s cache once instance A’s transaction has committed', async () => {
    const shared = await createTestDatabase('postgres');
    const a = await startTestApp('postgres', { shared });
    const b = await startTestApp('postgres', { shared });
    try {
      let loads = 0;
      const cacheOnB = instanceCache<number>(b.app.ctx, 'test-shared', 60_000);
      const readOnB = () => cacheOnB.get('k', async () => ++loads);
      expect(await readOnB()).toBe(1); // now cached on B
      const release = signal();
      const published = signal();
      const committing = withTransaction(a.app.ctx, async (ctx) => {
        await ctx.bus.publish(ctx.tx, 'test-shared', 'k');
        published.fire();
        await release.fired;
      });
      await published.fired;
      // A marker sent after the publish reaches B while A's transaction is still open: B still
      // serves its cached value, the change not being visible yet.
      const markerOnB = new Promise<void>((resolve) => b.app.ctx.bus.on('test-marker', () => resolve()));
      await a.app.ctx.bus.publish(a.app.ctx.db, 'test-marker', 'sent');
      await markerOnB;
      expect(await readOnB()).toBe(1);
      release.fire();
      await committing;
      await expect.poll(readOnB, { timeout: 5000 }).toBe(2);
    } finally {
      await a.close();
      await b.close();
      await shared.drop();
    }
  });
});
