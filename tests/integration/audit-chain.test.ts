import { existsSync, rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { type AuditEntry, SYSTEM_ACTOR, writeAudit } from '../../src/server/audit';
import { sealAuditChain, sealLegacyAuditRows } from '../../src/server/audit-sealer';
import {
  checkpointFile,
  recordAuditCheckpoint,
  verifyAuditChain,
} from '../../src/server/modules/audit/chain';
import { auditCheckpointJob } from '../../src/server/modules/audit/checkpoint-job';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { refusal } from '../support/records';

// Any action will do: the chain covers every row alike.
const entry = (n: number): AuditEntry => ({
  action: 'organisation.update',
  entityType: 'organisation',
  entityId: String(n),
  after: { n, note: 'ünïcødé ✓', nested: { b: 1, a: [1.5, null] } },
});

async function ids(t: TestApp): Promise<number[]> {
  const rows = await queryRows<{ id: string | number }>(
    t.app.ctx.db,
    sql`SELECT id FROM audit_log ORDER BY id`,
  );
  return rows.map((row) => Number(row.id));
}

/**
 * What an insider with SQL (the table owner, or a superuser) but without the app secret can do:
 * switch the append-only triggers off, change the tables, and switch them back on.
 */
async function asInsider(t: TestApp, ...tamper: string[]): Promise<void> {
  const run = (statement: string) => t.app.ctx.db.execute(sql.raw(statement));
  await run('ALTER TABLE audit_log DISABLE TRIGGER USER');
  await run('ALTER TABLE audit_checkpoints DISABLE TRIGGER USER');
  try {
    for (const statement of tamper) await run(statement);
  } finally {
    await run('ALTER TABLE audit_log ENABLE TRIGGER USER');
    await run('ALTER TABLE audit_checkpoints ENABLE TRIGGER USER');
  }
}

/** Recomputes the hash of every row from `fromId` on, as the sha256 chain of migration 0002 was. */
const RECOMPUTE_FROM = (fromId: number) => `
  DO $$
  DECLARE r record; previous text;
  BEGIN
    SELECT hash INTO previous FROM audit_log WHERE id < ${fromId} ORDER BY id DESC LIMIT 1;
    FOR r IN SELECT * FROM audit_log WHERE id >= ${fromId} ORDER BY id LOOP
      UPDATE audit_log SET prev_hash = previous,
        hash = audit_hash(previous, audit_payload(r.at, r.actor_id, r.actor_label, r.action, r.entity_type,
                                                  r.entity_id, r.before, r.after, r.ip, r.request_id))
      WHERE id = r.id RETURNING hash INTO previous;
    END LOOP;
  END $$;`;

describe.each(DATABASE_KINDS)('audit hash chain on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('links every row to the one before with a keyed hash and verifies the whole chain', async () => {
    await t.signedIn('admin'); // a sign-in writes audit rows too
    for (let n = 0; n < 5; n++) await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(n));
    const result = await verifyAuditChain(t.app.ctx);
    expect(result).toMatchObject({ ok: true, firstBrokenId: null });
    expect(result.rows).toBeGreaterThanOrEqual(6);
    expect(result.lastHash).toMatch(/^[0-9a-f]{64}$/);
    // Not the plain sha256 that anyone with SQL could recompute.
    const [row] = await queryRows<{ hash: string; plain: string }>(
      t.app.ctx.db,
      sql`SELECT hash, audit_hash(prev_hash, audit_payload(at, actor_id, actor_label, action, entity_type,
                 entity_id, before, after, ip, request_id)) AS plain FROM audit_log ORDER BY id DESC LIMIT 1`,
    );
    expect(row?.hash).not.toBe(row?.plain);
  });

  it('keeps one unbroken chain under concurrent writers', async () => {
    await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        t.app.ctx.db.transaction(async (tx) => {
          await writeAudit(tx, SYSTEM_ACTOR, entry(100 + n));
        }),
      ),
    );
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
  });

  it('rolls back with the transaction it belongs to', async () => {
    const before = (await verifyAuditChain(t.app.ctx)).rows;
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await writeAudit(tx, SYSTEM_ACTOR, entry(999));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const after = await verifyAuditChain(t.app.ctx);
    expect(after.rows).toBe(before);
    expect(after.ok).toBe(true);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of the log and its checkpoints', async () => {
    await recordAuditCheckpoint(t.app.ctx);
    const [first] = await ids(t);
    const refused = [
      `UPDATE audit_log SET actor_label = 'someone else' WHERE id = ${first}`,
      `UPDATE audit_log SET hash = hash WHERE id = ${first}`,
      `UPDATE audit_log SET chain_version = 1 WHERE id = ${first}`,
      `DELETE FROM audit_log WHERE id = ${first}`,
      'TRUNCATE audit_log',
      'UPDATE audit_checkpoints SET rows = 0',
      'DELETE FROM audit_checkpoints',
      'TRUNCATE audit_checkpoints',
    ];
    for (const statement of refused)
      expect(await refusal(t.app.ctx.db, sql.raw(statement)), statement).toMatch(
        /is append-only: \w+ refused/,
      );
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
  });
});

describe.each(DATABASE_KINDS)('audit tampering detected by GET /api/audit/verify on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let rowIds: number[];
  beforeEach(async () => {
    t = await startTestApp(kind);
    admin = await t.signedIn('admin');
    for (let n = 0; n < 8; n++) await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(n));
    rowIds = await ids(t);
    expect((await admin.get('/api/audit/verify')).json()).toMatchObject({ ok: true });
  });
  afterEach(() => t.close());

  const verify = async () => (await admin.get('/api/audit/verify')).json();

  it('an edited row, with every later hash recomputed', async () => {
    const victim = rowIds[3] as number;
    await asInsider(
      t,
      `UPDATE audit_log SET after = '{"n": 3, "note": "nothing to see"}' WHERE id = ${victim}`,
      RECOMPUTE_FROM(victim),
    );
    expect(await verify()).toMatchObject({
      ok: false,
      firstBrokenId: victim,
      reason: 'its content was changed',
    });
  });

  it('a row deleted in the middle, with or without relinking the next one', async () => {
    const victim = rowIds[4] as number;
    const next = rowIds[5] as number;
    await asInsider(t, `DELETE FROM audit_log WHERE id = ${victim}`);
    expect(await verify()).toMatchObject({
      ok: false,
      firstBrokenId: next,
      reason: 'a row before it was removed or reordered',
    });
    await asInsider(t, RECOMPUTE_FROM(next));
    expect(await verify()).toMatchObject({
      ok: false,
      firstBrokenId: next,
      reason: 'its content was changed',
    });
  });

  it('rows cut from the end after a checkpoint, by the table and by the data directory', async () => {
    expect(await auditCheckpointJob.run(t.app.ctx, {})).toMatchObject({ rows: rowIds.length, recorded: 1 });
    const last = rowIds.at(-1) as number;
    await asInsider(t, `DELETE FROM audit_log WHERE id >= ${rowIds.at(-3)}`);
    const cut = await verify();
    expect(cut).toMatchObject({ ok: false, firstBrokenId: last, rows: rowIds.length - 3 });
    expect(cut.reason).toMatch(/counted by the checkpoint of .* were removed/);
    // A broken chain is never checkpointed, so a later run cannot bless the cut.
    await expect(auditCheckpointJob.run(t.app.ctx, {})).rejects.toThrow(/broken/);

    // Removing the checkpoints too is not enough: the data directory keeps the newest one.
    await asInsider(t, 'DELETE FROM audit_checkpoints');
    expect(existsSync(checkpointFile(t.app.ctx))).toBe(true);
    expect(await verify()).toMatchObject({ ok: false, firstBrokenId: last });
  });

  it('the table alone catches a cut, and a checkpoint not signed with the key', async () => {
    await recordAuditCheckpoint(t.app.ctx);
    rmSync(checkpointFile(t.app.ctx));
    await asInsider(t, `DELETE FROM audit_log WHERE id = ${rowIds.at(-1)}`);
    expect(await verify()).toMatchObject({ ok: false, firstBrokenId: rowIds.at(-1) });

    // With neither the checkpoints nor the file a cut at the end is out of reach: that is why the
    // newest checkpoint is kept outside the database too.
    await asInsider(t, 'TRUNCATE audit_checkpoints');
    expect(await verify()).toMatchObject({ ok: true });
    await t.app.ctx.db.execute(sql`
      INSERT INTO audit_checkpoints (at, rows, last_id, last_hash, mac)
      SELECT now(), count(*), max(id), (SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1), repeat('0', 64)
      FROM audit_log`);
    expect((await verify()).reason).toMatch(/is not signed with the app key/);
  });
});

describe.each(DATABASE_KINDS)('rows chained with plain sha256 before the keyed chain on %s', (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(kind);
    // Rows as migration 0002 chained them (chain_version 1), before any keyed row.
    await t.app.ctx.db.execute(
      sql.raw(`
      DO $$
      DECLARE previous text; current_hash text; v_at timestamptz;
      BEGIN
        FOR n IN 1..5 LOOP
          v_at := date_trunc('milliseconds', clock_timestamp());
          current_hash := audit_hash(previous, audit_payload(v_at, NULL, 'system', 'organisation.update',
            'organisation', n::text, NULL, jsonb_build_object('n', n), NULL, NULL));
          INSERT INTO audit_log (at, actor_label, action, entity_type, entity_id, after, prev_hash, hash, chain_version)
          VALUES (v_at, 'system', 'organisation.update', 'organisation', n::text, jsonb_build_object('n', n),
                  previous, current_hash, 1);
          previous := current_hash;
        END LOOP;
      END $$;`),
    );
  });
  afterEach(() => t.close());

  const versions = async () =>
    (
      await queryRows<{ v: number }>(
        t.app.ctx.db,
        sql`SELECT DISTINCT chain_version AS v FROM audit_log ORDER BY v`,
      )
    ).map((row) => Number(row.v));

  it('are reported until sealed, then sealed once with the key at start', async () => {
    expect(await verifyAuditChain(t.app.ctx)).toMatchObject({
      ok: false,
      reason: 'it predates the keyed chain and was never sealed with the app key',
    });
    await sealLegacyAuditRows(t.app.ctx.db);
    expect(await versions()).toEqual([2]);
    expect(await verifyAuditChain(t.app.ctx)).toMatchObject({ ok: true, rows: 5 });
    await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(6));
    expect(await verifyAuditChain(t.app.ctx)).toMatchObject({ ok: true, rows: 6 });
  });

  it('are sealed before the first keyed row when nothing sealed them before', async () => {
    await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(6));
    await sealAuditChain(t.app.ctx.db, { wait: true });
    // Sealed with the key (2), then the new row with its write seal (3, decision 023).
    expect(await versions()).toEqual([2, 3]);
    expect(await verifyAuditChain(t.app.ctx)).toMatchObject({ ok: true, rows: 6 });
  });

  it('are not sealed when their sha256 chain was already broken, nor changed while sealed', async () => {
    const [first] = await ids(t);
    expect(
      await refusal(
        t.app.ctx.db,
        sql`UPDATE audit_log SET chain_version = 2, actor_label = 'someone else' WHERE id = ${first}`,
      ),
    ).toMatch(/append-only/);
    await t.app.ctx.db.execute(sql`INSERT INTO audit_log (action, entity_type, chain_version, prev_hash, hash)
                                   VALUES ('organisation.update', 'organisation', 1, 'forged', 'forged')`);
    await sealLegacyAuditRows(t.app.ctx.db);
    expect(await versions()).toEqual([1]);
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(false);
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

    // Rows are sealed within a second of commit (decision 023); verifying seals them at once.
    expect((await admin.get('/api/audit/verify')).json()).toMatchObject({ ok: true });
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
