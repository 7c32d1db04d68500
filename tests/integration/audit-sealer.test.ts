import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../src/db/client';
import { type AuditEntry, SYSTEM_ACTOR, writeAudit } from '../../src/server/audit';
import { AuditSealer, sealAuditChain } from '../../src/server/audit-sealer';
import { verifyAuditChain } from '../../src/server/modules/audit/chain';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { newestAuditId, refusal } from '../support/records';
import { signal } from '../support/signal';

// Rows are written unsealed and chained after commit (decision 023). The app's own sealer runs in
// the background here too; every check holds whichever sealer gets to a row first.

const entry = (n: number): AuditEntry => ({
  action: 'organisation.update',
  entityType: 'organisation',
  entityId: String(n),
  after: { n },
});

/** `count` rows written in one transaction, unsealed until a sealer gets to them. */
async function writeRows(t: TestApp, count: number, from = 0): Promise<void> {
  await t.app.ctx.db.transaction(async (tx) => {
    for (let n = 0; n < count; n++) await writeAudit(tx, SYSTEM_ACTOR, entry(from + n));
  });
}

interface SealState {
  rows: number;
  sealed: number;
  min: number | null;
  max: number | null;
}

async function sealState(t: TestApp): Promise<SealState> {
  const [row] = await queryRows<Record<keyof SealState, string | number | null>>(
    t.app.ctx.db,
    sql`SELECT count(*) AS rows, count(chain_seq) AS sealed, min(chain_seq) AS min, max(chain_seq) AS max
        FROM audit_log`,
  );
  const num = (value: string | number | null | undefined) =>
    value === null || value === undefined ? null : Number(value);
  return { rows: Number(row?.rows), sealed: Number(row?.sealed), min: num(row?.min), max: num(row?.max) };
}

/** Every row sealed, in places 1..n with none twice (the column is unique). */
async function expectContiguous(t: TestApp): Promise<void> {
  const state = await sealState(t);
  expect(state).toEqual({ rows: state.rows, sealed: state.rows, min: 1, max: state.rows });
}

async function chainSeqOf(t: TestApp, id: number): Promise<number | null> {
  const [row] = await queryRows<{ chain_seq: string | number | null }>(
    t.app.ctx.db,
    sql`SELECT chain_seq FROM audit_log WHERE id = ${id}`,
  );
  return row?.chain_seq === null || row?.chain_seq === undefined ? null : Number(row.chain_seq);
}

async function asInsider(t: TestApp, ...statements: string[]): Promise<void> {
  const run = (text: string) => t.app.ctx.db.execute(sql.raw(text));
  await run('ALTER TABLE audit_log DISABLE TRIGGER USER');
  try {
    for (const statement of statements) await run(statement);
  } finally {
    await run('ALTER TABLE audit_log ENABLE TRIGGER USER');
  }
}

describe.each(DATABASE_KINDS)('audit chain sealed after commit on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('writes one unsealed row, and its INSERT alone can ride in a statement of its own', async () => {
    await t.app.ctx.db.transaction(async (tx) => {
      await writeAudit(tx, SYSTEM_ACTOR, entry(1));
      // Before commit no sealer can see it: it is unsealed.
      const [own] = await queryRows<{ hash: string | null; chain_seq: string | null }>(
        tx,
        sql`SELECT hash, chain_seq FROM audit_log ORDER BY id DESC LIMIT 1`,
      );
      expect(own).toEqual({ hash: null, chain_seq: null });
    });
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
    await expectContiguous(t);
  });

  it('keeps one contiguous chain under 50 concurrent audited transactions', async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        t.app.ctx.db.transaction(async (tx) => {
          await tx.execute(sql`SELECT 1`);
          await writeAudit(tx, SYSTEM_ACTOR, entry(100 + n));
        }),
      ),
    );
    const result = await verifyAuditChain(t.app.ctx);
    expect(result).toMatchObject({ ok: true, firstBrokenId: null });
    await expectContiguous(t);
    expect(result.rows).toBe((await sealState(t)).rows);
  });

  it('seals a row committed late, with a lower id than rows already sealed, after them', async () => {
    // The id a transaction takes at its INSERT and commits only later, as a slow transaction does:
    // reserved now, and given back to the sequence once later rows are sealed.
    const sequence = sql`pg_get_serial_sequence('audit_log', 'id')`;
    const [reserved] = await queryRows<{ id: string | number }>(
      t.app.ctx.db,
      sql`SELECT nextval(${sequence}) AS id`,
    );
    const lateId = Number(reserved?.id);
    for (let n = 0; n < 3; n++) await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(200 + n));
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
    const sealedBefore = (await sealState(t)).max as number;
    await t.app.ctx.db.execute(sql`SELECT setval(${sequence}, ${lateId}, false)`);
    await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(299));
    await t.app.ctx.db.execute(sql`SELECT setval(${sequence}, (SELECT max(id) FROM audit_log))`);
    const result = await verifyAuditChain(t.app.ctx);
    expect(result.ok).toBe(true);
    expect(await chainSeqOf(t, lateId)).toBe(sealedBefore + 1);
    await expectContiguous(t);

    if (kind === 'postgres') {
      // The real thing: a transaction holds its audit row while others commit and are sealed.
      const release = signal();
      const inserted = signal();
      let slowId = 0;
      const slow = t.app.ctx.db.transaction(async (tx) => {
        await writeAudit(tx, SYSTEM_ACTOR, entry(300));
        const [own] = await queryRows<{ id: string | number }>(tx, sql`SELECT max(id) AS id FROM audit_log`);
        slowId = Number(own?.id);
        inserted.fire();
        await release.fired;
      });
      await inserted.fired;
      for (let n = 0; n < 3; n++) await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(301 + n));
      expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
      const sealedWhileHeld = (await sealState(t)).max as number;
      release.fire();
      await slow;
      expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
      expect(await chainSeqOf(t, slowId)).toBe(sealedWhileHeld + 1);
      await expectContiguous(t);
    }
  });

  it('seals each row once when several sealers run at once: no row twice, no fork', async () => {
    await writeRows(t, 1200, 1000);
    const results = await Promise.all([
      sealAuditChain(t.app.ctx.db),
      sealAuditChain(t.app.ctx.db),
      sealAuditChain(t.app.ctx.db, { wait: true }),
      sealAuditChain(t.app.ctx.db, { wait: true }),
    ]);
    // The app's background sealer may take some; together they never seal more than there was.
    expect(results.reduce((sum, result) => sum + result.sealed, 0)).toBeLessThanOrEqual(1200);
    // A waiting sealer returns only once what was committed before it is sealed.
    expect((await sealState(t)).sealed).toBe((await sealState(t)).rows);
    await expectContiguous(t);
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
  });

  it('catches a row changed after it was sealed, and rows put in another order', async () => {
    await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(400));
    await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(401));
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
    const [a, b] = (
      await queryRows<{ id: string | number; chain_seq: string | number }>(
        t.app.ctx.db,
        sql`SELECT id, chain_seq FROM audit_log ORDER BY chain_seq DESC LIMIT 2`,
      )
    ).map((row) => ({ id: Number(row.id), seq: Number(row.chain_seq) }));
    if (!a || !b) throw new Error('two sealed rows expected');

    await asInsider(t, `UPDATE audit_log SET after = '{"n": 0}' WHERE id = ${a.id}`);
    expect(await verifyAuditChain(t.app.ctx)).toMatchObject({
      ok: false,
      firstBrokenId: a.id,
      reason: 'its content was changed',
    });
    await asInsider(t, `UPDATE audit_log SET after = '{"n": 401}' WHERE id = ${a.id}`);
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);

    // Places are unique, so a swap goes through a free one.
    const swap = (first: { id: number; seq: number }, second: { id: number; seq: number }) => [
      `UPDATE audit_log SET chain_seq = -1 WHERE id = ${first.id}`,
      `UPDATE audit_log SET chain_seq = ${first.seq} WHERE id = ${second.id}`,
      `UPDATE audit_log SET chain_seq = ${second.seq} WHERE id = ${first.id}`,
    ];
    await asInsider(t, ...swap(a, b));
    expect(await verifyAuditChain(t.app.ctx)).toMatchObject({
      ok: false,
      firstBrokenId: a.id,
      reason: 'a row before it was removed or reordered',
    });
    await asInsider(t, ...swap({ id: a.id, seq: b.seq }, { id: b.id, seq: a.seq }));
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
  });
});

describe.each(DATABASE_KINDS)('the append-only trigger and sealing on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // Not ready: the app's sweep stays off. Its sealer still wakes on this process's writes, so a
    // test that needs rows left unsealed holds it (`pause`).
    t = await startTestApp(kind, { ready: false });
  });
  afterAll(() => t.close());

  it('lets an unsealed row be sealed once, content untouched, and refuses every other change', async () => {
    // The app's sealer is held: on a loaded machine its debounce (200 ms) could seal the two rows
    // while the refusals run, and this test's own sealing would then find none.
    const resume = await t.app.auditSealer.pause();
    try {
      await sealedOnceAndAppendOnly();
    } finally {
      resume();
    }
  });

  async function sealedOnceAndAppendOnly(): Promise<void> {
    await writeRows(t, 2);
    const unsealed = await newestAuditId(t.app.ctx.db);
    const refused = [
      `UPDATE audit_log SET actor_label = 'someone else' WHERE id = ${unsealed}`,
      `UPDATE audit_log SET hash = repeat('0', 64), chain_seq = 99, after = '{}' WHERE id = ${unsealed}`,
      `UPDATE audit_log SET hash = repeat('0', 64) WHERE id = ${unsealed}`,
      `DELETE FROM audit_log WHERE id = ${unsealed}`,
    ];
    for (const statement of refused)
      expect(await refusal(t.app.ctx.db, sql.raw(statement)), statement).toMatch(
        /is append-only: \w+ refused/,
      );

    expect((await sealAuditChain(t.app.ctx.db)).sealed).toBe(2);
    const refusedSealed = [
      `UPDATE audit_log SET hash = repeat('0', 64) WHERE id = ${unsealed}`,
      `UPDATE audit_log SET chain_seq = chain_seq + 1000 WHERE id = ${unsealed}`,
      `UPDATE audit_log SET hash = NULL, chain_seq = NULL WHERE id = ${unsealed}`,
      `UPDATE audit_log SET prev_hash = NULL WHERE id = ${unsealed}`,
      `DELETE FROM audit_log WHERE id = ${unsealed}`,
    ];
    for (const statement of refusedSealed)
      expect(await refusal(t.app.ctx.db, sql.raw(statement)), statement).toMatch(
        /is append-only: \w+ refused/,
      );
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
  }

  it('reports rows that waited too long to be sealed, loudly, once', async () => {
    // Written two minutes ago, as by an instance whose rows no sealer took since. The app's own
    // sealer is held meanwhile: on a loaded machine its debounce (200 ms) could seal them first,
    // and it reports them only in its log.
    const resume = await t.app.auditSealer.pause();
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() - 120_000);
        await writeRows(t, 3);
      } finally {
        vi.useRealTimers();
      }
      const oldest = (await newestAuditId(t.app.ctx.db)) - 2;
      const result = await verifyAuditChain(t.app.ctx);
      expect(result).toMatchObject({ ok: false, firstBrokenId: oldest });
      expect(result.reason).toMatch(/^3 row\(s\) waited more than 30 s to be sealed .*no sealer was running/);
      // They are sealed now; the chain itself holds.
      expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
    } finally {
      resume();
    }
  });

  it('seals what its process wrote when the app stops', async () => {
    // The app's own sealer stops first, so only this one hears of the write.
    await t.app.auditSealer.stop();
    const sealer = new AuditSealer(t.app.ctx.db, t.app.log, { debounceMs: 3_600_000, sweepMs: 3_600_000 });
    sealer.start();
    await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(600));
    expect((await sealState(t)).sealed).toBeLessThan((await sealState(t)).rows);
    await sealer.stop();
    const state = await sealState(t);
    expect(state.sealed).toBe(state.rows);
  });
});

describe.each(DATABASE_KINDS)('what SQL alone does to rows before they are chained, on %s', (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(kind);
    await writeRows(t, 3);
  });
  afterEach(() => t.close());

  it('catches a row edited before it was chained, by its write seal', async () => {
    // Edited in the writing transaction, so no sealer gets to the row first.
    await t.app.ctx.db.transaction(async (tx) => {
      await writeAudit(tx, SYSTEM_ACTOR, entry(10));
      await tx.execute(sql.raw('ALTER TABLE audit_log DISABLE TRIGGER USER'));
      await tx.execute(
        sql`UPDATE audit_log SET after = '{"n": 11}' WHERE id = (SELECT max(id) FROM audit_log)`,
      );
      await tx.execute(sql.raw('ALTER TABLE audit_log ENABLE TRIGGER USER'));
    });
    const edited = await newestAuditId(t.app.ctx.db);
    await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(12));
    expect(await verifyAuditChain(t.app.ctx)).toMatchObject({
      ok: false,
      firstBrokenId: edited,
      reason: 'it was not written by the app as it stands (changed or added before it was chained)',
    });
  });

  it('catches a row added with SQL, whatever seal it claims', async () => {
    // A row without a write seal, or an unchained one of the keyed chain before it, is refused.
    for (const statement of [
      `INSERT INTO audit_log (action, entity_type) VALUES ('user.update', 'user')`,
      `INSERT INTO audit_log (action, entity_type, chain_version, write_mac) VALUES ('user.update', 'user', 2, 'x')`,
    ])
      expect(await refusal(t.app.ctx.db, sql.raw(statement)), statement).toMatch(/audit_log_sealed_whole/);
    // One with another row's write seal is chained like any other, and reported.
    await t.app.ctx.db.execute(
      sql`INSERT INTO audit_log (at, action, entity_type, entity_id, write_mac)
          SELECT at, 'user.update', 'user', 'someone', write_mac FROM audit_log ORDER BY id DESC LIMIT 1`,
    );
    const forged = await newestAuditId(t.app.ctx.db);
    expect(await verifyAuditChain(t.app.ctx)).toMatchObject({
      ok: false,
      firstBrokenId: forged,
      reason: 'it was not written by the app as it stands (changed or added before it was chained)',
    });
  });

  it('catches a seal forged through the one UPDATE the trigger allows, once the chain reaches it', async () => {
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
    let forgedId = 0;
    // Forged in the writing transaction, so no sealer gets to the row first.
    await t.app.ctx.db.transaction(async (tx) => {
      await writeAudit(tx, SYSTEM_ACTOR, entry(500));
      const [row] = await queryRows<{ id: string | number }>(
        tx,
        sql`UPDATE audit_log SET chain_seq = (SELECT max(chain_seq) + 1 FROM audit_log),
                                 prev_hash = (SELECT hash FROM audit_log ORDER BY chain_seq DESC NULLS LAST LIMIT 1),
                                 hash = repeat('0', 64)
            WHERE id = (SELECT max(id) FROM audit_log) RETURNING id`,
      );
      forgedId = Number(row?.id);
    });
    await writeAudit(t.app.ctx.db, SYSTEM_ACTOR, entry(501));
    expect(await verifyAuditChain(t.app.ctx)).toMatchObject({
      ok: false,
      firstBrokenId: forgedId,
      reason: 'its content was changed',
    });
  });
});
