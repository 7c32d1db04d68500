import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { sealLegacyAuditRows } from '../../src/server/audit-sealer';
import { arrearsDay } from '../../src/server/business-date';
import { loadDemoBook } from '../../src/server/demo/load';
import type { DemoTemplate } from '../../src/server/demo/template';
import { resetDemoPasswords } from '../../src/server/demo/users';
import { verifyAuditChain } from '../../src/server/modules/audit/chain';
import { bucketOn, dpdOn } from '../../src/server/modules/contracts/figures';
import { OPENPAYGO_KEY_PURPOSE } from '../../src/server/modules/devices/service';
import { fileStorage } from '../../src/server/storage';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS, type TestDatabase } from '../support/databases';
import { demoBookDatabase, demoTemplate } from '../support/demo-book';

// The app's own template (dist/), built by the first file to need it when no start has built it
// for this code yet (minutes, once per change of the migrations or the demo's code), then loaded as a start does.
const DAY_MS = 86_400_000;

let template: DemoTemplate;
// A build on a fresh clone took 480-560 s of a slow day's loaded machine, and more than 600 s
// once beside a browser: the limit is there to stop a hung build, not a slow one.
beforeAll(async () => {
  template = await demoTemplate();
}, 1_500_000);

describe.each(DATABASE_KINDS)('a start from the demo template on %s', (kind) => {
  let t: TestApp;
  let db: TestDatabase;
  beforeAll(async () => {
    // As a new data directory (PGlite) or a new PostgreSQL database starts.
    db = await demoBookDatabase(kind, template);
    t = await startTestApp(kind, { shared: db });
    // Started three days and a bit after the template was built: the book must still look live.
    t.clock.advance(3 * DAY_MS + 2 * 3_600_000);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await db.drop();
  });
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(t.app.ctx.db, query);
  // Days past due and buckets are of the business date (decision 054).
  const arrearsOn = async () => {
    const day = await arrearsDay(t.app.ctx, t.app.ctx.db);
    return { dpd: dpdOn(day.date), bucket: bucketOn(day.buckets, day.date) };
  };

  it('has the whole book at once: payments, PAR30, paid-off contracts, suspense and a reversal', async () => {
    expect(await loadDemoBook(t.app.ctx, async () => template)).toBe(true);
    const { dpd } = await arrearsOn();
    const [book] = await rows<{
      posted: number;
      paidOff: number;
      suspense: number;
      pending: number;
      par30: number;
    }>(sql`SELECT
        (SELECT count(*)::int FROM payments WHERE status = 'posted' AND method <> 'deposit') AS posted,
        (SELECT count(*)::int FROM contracts WHERE status = 'paid_off') AS "paidOff",
        (SELECT count(*)::int FROM payments WHERE status = 'suspense') AS suspense,
        (SELECT count(*)::int FROM payment_corrections WHERE status = 'pending') AS pending,
        (SELECT 100.0 * sum(outstanding_principal) FILTER (WHERE ${dpd} > 30) / sum(outstanding_principal)
         FROM contracts c JOIN contract_figures f ON f.contract_id = c.id WHERE status IN ('active', 'defaulted'))::float AS par30`);
    expect(book?.posted).toBeGreaterThan(500);
    expect(book?.paidOff).toBeGreaterThan(0);
    expect(book?.suspense).toBe(5);
    expect(book?.pending).toBe(1);
    expect(book?.par30).toBeGreaterThanOrEqual(8);
    expect(book?.par30).toBeLessThanOrEqual(20);
    const [books] = await rows<{ debit: string; credit: string }>(
      sql`SELECT sum(debit)::text AS debit, sum(credit)::text AS credit FROM journal_lines`,
    );
    expect(books?.debit).toBe(books?.credit);
  });

  it('moves the book to today: the newest payment is hours old, none is in the future', async () => {
    const [latest] = await rows<{ at: string; day: string; due: string }>(
      sql`SELECT max(received_at)::text AS at, max(value_date)::text AS day,
                 (SELECT max(due_date)::text FROM contract_installments) AS due FROM payments`,
    );
    const age = t.clock.now().getTime() - new Date(latest?.at ?? 0).getTime();
    expect(age).toBeGreaterThan(0);
    // The newest payment was about a day old or less at the build; unshifted, three days older.
    expect(age).toBeLessThan(3 * DAY_MS);
    expect(latest?.day && latest.day <= t.clock.now().toISOString().slice(0, 10)).toBe(true);
    // Schedules run on into the future, as a live book's do.
    expect(latest?.due && latest.due > t.clock.now().toISOString().slice(0, 10)).toBe(true);
  });

  it('is keyed with this instance: the audit chain seals whole, device keys and KYC files open', async () => {
    await sealLegacyAuditRows(t.app.ctx.db);
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
    const [device] = await rows<{ secret: string }>(
      sql`SELECT openpaygo_secret AS secret FROM devices WHERE openpaygo_secret IS NOT NULL LIMIT 1`,
    );
    expect(t.app.ctx.keyring.decrypt(OPENPAYGO_KEY_PURPOSE, device?.secret ?? '')).toMatch(/^[0-9a-f]{32}$/);
    const [document] = await rows<{ key: string }>(sql`SELECT storage_key AS key FROM kyc_documents LIMIT 1`);
    expect(await fileStorage(t.app.ctx).get(document?.key ?? '')).not.toBeNull();
  });

  it('gives the demo users their passwords, and signs them in to the book', async () => {
    const credentials = await resetDemoPasswords(t.app.ctx, { seedEmpty: false });
    expect(credentials).toHaveLength(7);
    const manager = credentials.find((credential) => credential.role === 'manager');
    const client = t.client();
    const login = await client.post('/api/login', { email: manager?.email, password: manager?.password });
    expect(login.statusCode).toBe(200);
    const contracts = await client.get('/api/contracts?status=active');
    expect(contracts.statusCode).toBe(200);
    expect(contracts.json<{ total: number }>().total).toBeGreaterThan(20);
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
  });

  it('opens aged by a year of closes: buckets, defaults, locks, a worked queue, a repossession, snapshots', async () => {
    const client = t.client();
    const manager = (await resetDemoPasswords(t.app.ctx, { seedEmpty: false })).find(
      (credential) => credential.role === 'manager',
    );
    expect(
      (await client.post('/api/login', { email: manager?.email, password: manager?.password })).statusCode,
    ).toBe(200);

    // The dashboard's figures from the snapshots: the last closed date's, with a month behind it.
    const kpis = (await client.get('/api/dashboard/kpis')).json<{
      lastClosedDate: string | null;
      points: Array<{
        businessDate: string;
        par30Ratio: number;
        defaultedCount: number;
        lockedCount: number | null;
      }>;
    }>();
    expect(kpis.lastClosedDate).not.toBeNull();
    expect(kpis.points.length).toBeGreaterThanOrEqual(30);
    const latest = kpis.points.at(-1);
    expect(latest?.businessDate).toBe(kpis.lastClosedDate);
    expect(latest?.defaultedCount).toBeGreaterThan(0);
    expect(latest?.lockedCount).toBeGreaterThan(0);

    // Units locked by the closes, and unlocked again by the payments that cleared their arrears.
    const fleet = (await client.get('/api/device-control/fleet')).json<{
      cells: Array<{ lockState: string; units: number }>;
    }>();
    const locked = fleet.cells.filter((cell) => cell.lockState === 'locked').reduce((s, c) => s + c.units, 0);
    expect(locked).toBeGreaterThan(0);
    const queue = (await client.get('/api/collections/queue')).json<{ total: number }>();
    expect(queue.total).toBeGreaterThan(10);

    const { bucket } = await arrearsOn();
    const [aged] = await rows<{
      buckets: number;
      defaulted: number;
      unlocks: number;
      kept: number;
      broken: number;
      repossessions: string[];
      snapshots: number;
      fees: number;
    }>(sql`SELECT
        (SELECT count(DISTINCT ${bucket})::int FROM contracts c JOIN contract_figures f ON f.contract_id = c.id WHERE status IN ('active', 'defaulted')) AS buckets,
        (SELECT count(*)::int FROM contracts WHERE status = 'defaulted') AS defaulted,
        (SELECT count(*)::int FROM device_commands WHERE kind = 'unlock' AND state = 'acknowledged') AS unlocks,
        (SELECT count(*)::int FROM collection_promises WHERE state = 'kept') AS kept,
        (SELECT count(*)::int FROM collection_promises WHERE state = 'broken') AS broken,
        (SELECT array_agg(status ORDER BY status) FROM repossessions) AS repossessions,
        (SELECT count(*)::int FROM portfolio_snapshots) AS snapshots,
        (SELECT count(*)::int FROM contract_installments WHERE late_fee_on IS NOT NULL) AS fees`);
    expect(aged?.buckets).toBeGreaterThanOrEqual(4);
    expect(aged?.defaulted).toBeGreaterThan(0);
    expect(aged?.unlocks).toBeGreaterThan(0);
    expect(aged?.kept).toBeGreaterThan(0);
    expect(aged?.broken).toBeGreaterThan(0);
    // Long-defaulted units brought back over the year, and one approved still to collect.
    expect(aged?.repossessions.filter((status) => status === 'approved')).toEqual(['approved']);
    expect(aged?.repossessions).toContain('recovered');
    expect(aged?.snapshots).toBeGreaterThanOrEqual(365);
    expect(aged?.fees).toBeGreaterThan(0);

    // Two months of auto-debit: debits posted, a short balance retried, a closed account's mandate paused.
    const debits = (await client.get('/api/auto-debit/summary')).json<{
      successRate: number | null;
      mandates: { active: number; paused: number };
    }>();
    expect(debits.mandates.active).toBeGreaterThan(5);
    expect(debits.mandates.paused).toBeGreaterThanOrEqual(1);
    expect(debits.successRate).toBeGreaterThan(0.5);
    const [debited] = await rows<{ posted: number; retried: number }>(sql`SELECT
        (SELECT count(*)::int FROM payments WHERE method = 'auto_debit' AND status = 'posted') AS posted,
        (SELECT count(*)::int FROM debit_attempts WHERE attempt > 1) AS retried`);
    expect(debited?.posted).toBeGreaterThan(20);
    expect(debited?.retried).toBeGreaterThan(0);

    // OpenPAYGO units whose time ran out by the last close are recorded locked, and only they.
    const [solar] = await rows<{
      ran_out_unlocked: number;
      ran_out_locked: number;
      running_locked: number;
    }>(sql`
      WITH units AS (
        SELECT d.lock_state, d.active_until <= o.last_closed_date AS ran_out
        FROM devices d CROSS JOIN organisation_settings o
        WHERE d.control_kind = 'openpaygo' AND d.status = 'assigned'
          AND EXISTS (SELECT 1 FROM contracts c WHERE c.device_id = d.id AND c.status IN ('active', 'defaulted')))
      SELECT count(*) FILTER (WHERE ran_out AND lock_state <> 'locked')::int AS ran_out_unlocked,
             count(*) FILTER (WHERE ran_out AND lock_state = 'locked')::int AS ran_out_locked,
             count(*) FILTER (WHERE NOT ran_out AND lock_state = 'locked')::int AS running_locked
      FROM units`);
    expect(solar).toMatchObject({ ran_out_unlocked: 0, running_locked: 0 });
    expect(solar?.ran_out_locked).toBeGreaterThan(0);
  });

  it('loads once: a second start finds the book and leaves it alone', async () => {
    expect(await loadDemoBook(t.app.ctx, async () => template)).toBe(false);
  });
});
