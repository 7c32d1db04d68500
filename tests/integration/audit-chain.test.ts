import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { type AuditEntry, SYSTEM_ACTOR, verifyAuditChain, writeAudit } from '../../src/server/audit';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

describe.each(DATABASE_KINDS)('audit hash chain on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  // Any action will do: the chain covers every row alike.
  const entry = (n: number): AuditEntry => ({
    action: 'organisation.update',
    entityType: 'organisation',
    entityId: String(n),
    after: { n, note: 'ünïcødé ✓' },
  });

  it('links every row to the one before and verifies the whole chain', async () => {
    await t.signedIn('admin'); // a sign-in writes audit rows too
    for (let n = 0; n < 5; n++) await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(n));
    const result = await verifyAuditChain(t.app.ctx.db);
    expect(result).toMatchObject({ ok: true, firstBrokenId: null });
    expect(result.rows).toBeGreaterThanOrEqual(6);
    expect(result.lastHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps one unbroken chain under concurrent writers', async () => {
    await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        t.app.ctx.db.transaction(async (tx) => {
          await writeAudit(tx, SYSTEM_ACTOR, entry(100 + n));
        }),
      ),
    );
    expect((await verifyAuditChain(t.app.ctx.db)).ok).toBe(true);
  });

  it('rolls back with the transaction it belongs to', async () => {
    const before = (await verifyAuditChain(t.app.ctx.db)).rows;
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await writeAudit(tx, SYSTEM_ACTOR, entry(999));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const after = await verifyAuditChain(t.app.ctx.db);
    expect(after.rows).toBe(before);
    expect(after.ok).toBe(true);
  });

  it('detects an edited row and a deleted row', async () => {
    const [victim] = await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`SELECT id FROM audit_log ORDER BY id LIMIT 1 OFFSET 2`,
    );
    const id = Number(victim?.id);
    await t.app.ctx.db.execute(sql`UPDATE audit_log SET actor_label = 'someone else' WHERE id = ${id}`);
    expect(await verifyAuditChain(t.app.ctx.db)).toMatchObject({
      ok: false,
      firstBrokenId: id,
      reason: 'its content was changed',
    });
    await t.app.ctx.db.execute(sql`DELETE FROM audit_log WHERE id = ${id}`);
    const afterDelete = await verifyAuditChain(t.app.ctx.db);
    expect(afterDelete.ok).toBe(false);
    expect(afterDelete.firstBrokenId).toBeGreaterThan(id);
    expect(afterDelete.reason).toBe('a row before it was removed or reordered');
  });
});

describe.each(DATABASE_KINDS)('audit API on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('lists newest first with filters and pages, and verifies, for administrators only', async () => {
    const admin = await t.signedIn('admin');
    const agent = await t.signedIn('agent');
    await agent.post('/api/logout');
    expect((await (await t.signedIn('manager')).get('/api/audit')).statusCode).toBe(403);

    const all = (await admin.get('/api/audit?limit=2')).json();
    expect(all.rows).toHaveLength(2);
    expect(all.rows[0].id).toBeGreaterThan(all.rows[1].id);
    const next = (await admin.get(`/api/audit?limit=2&before=${all.nextBefore}`)).json();
    expect(next.rows[0].id).toBeLessThan(all.rows[1].id);

    const logouts = (
      await admin.get(
        `/api/audit?action=auth.logout&actor=${encodeURIComponent(agent.user.email.toUpperCase())}`,
      )
    ).json();
    expect(logouts.rows).toHaveLength(1);
    expect(logouts.rows[0]).toMatchObject({
      action: 'auth.logout',
      actorId: agent.user.id,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((await admin.get('/api/audit?actor=%25')).json().rows).toHaveLength(0);

    expect((await admin.get('/api/audit/verify')).json()).toMatchObject({ ok: true, firstBrokenId: null });
    expect((await admin.get('/api/audit?limit=0')).statusCode).toBe(400);
    expect((await admin.get('/api/audit?from=last-week')).statusCode).toBe(400);
  });
});
