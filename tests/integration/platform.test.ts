import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { seedDemoUsers } from '../../src/server/demo/users';
import { startTestApp, type TestApp } from '../support/app';
import { createTestDatabase, DATABASE_KINDS } from '../support/databases';
import { activePlan, deviceInStock, verifiedCustomer } from '../support/origination';

describe.each(DATABASE_KINDS)('platform on %s', (kind) => {
  const opened: TestApp[] = [];
  afterAll(async () => {
    for (const app of opened) await app.close();
  });
  const start = async (options?: Parameters<typeof startTestApp>[1]) => {
    const app = await startTestApp(kind, options);
    opened.push(app);
    return app;
  };

  it('answers /api/health 503 until ready, and every other API call 503 meanwhile', async () => {
    const t = await start({ ready: false });
    const client = t.client();
    expect((await client.get('/api/health')).statusCode).toBe(503);
    expect((await client.get('/api/health')).json()).toEqual({ status: 'starting' });
    expect((await client.get('/api/user')).statusCode).toBe(503);
    t.app.readiness.ready = true;
    expect((await client.get('/api/health')).json()).toEqual({ status: 'ok' });
  });

  it('serves the web app with a history fallback and long-lived hashed assets', async () => {
    const webRoot = mkdtempSync(path.join(tmpdir(), 'web-'));
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log(1)');
    const t = await start({ webRoot });
    const client = t.client();
    for (const route of ['/', '/login', '/customers', '/crm/contacts/42', '/admin/users', '/anything/else']) {
      const response = await client.get(route);
      expect(response.statusCode, route).toBe(200);
      expect(response.headers['content-type'], route).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    const asset = await client.get('/assets/app-abc123.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await client.get('/api/nothing-here')).headers['content-type']).toMatch(/application\/json/);
    const headers = (await client.get('/')).headers;
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('publishes the OpenAPI document of every route', async () => {
    const t = await start();
    const response = await t.client().get('/api/docs/json');
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/login', '/api/register', '/api/user', '/api/invites']),
    );
  });

  it('applies migrations once: a second run does nothing', async () => {
    const { database, drop } = await createTestDatabase(kind);
    try {
      expect(await migrate(database)).toEqual([]);
      const [row] = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM schema_migrations`,
      );
      expect(Number(row?.n)).toBeGreaterThan(0);
    } finally {
      await drop();
    }
  });

  it('creates one demo user per role and the owner on an empty database, once', async () => {
    const t = await start();
    const credentials = await seedDemoUsers(t.app.ctx);
    expect(credentials.map((c) => (c.isOwner ? 'owner' : c.role))).toEqual([
      'owner',
      'admin',
      'manager',
      'finance',
      'collector',
      'agent',
      'viewer',
    ]);
    expect(new Set(credentials.map((c) => c.password)).size).toBe(credentials.length);
    const login = await t
      .client()
      .post('/api/login', { email: credentials[3]?.email, password: credentials[3]?.password });
    expect(login.statusCode).toBe(200);
    expect(await seedDemoUsers(t.app.ctx)).toEqual([]);
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('several instances on one PostgreSQL database', () => {
  it('migrate concurrently: one applies each migration, the others wait and find nothing to do', async () => {
    const empty = await createTestDatabase('postgres', { migrate: false });
    const instances = await Promise.all(
      [0, 1, 2].map(() => openDatabase({ url: empty.url, dataDir: 'unused', poolSize: 2 })),
    );
    try {
      const applied = await Promise.all(instances.map((db) => migrate(db)));
      const all = applied.flat();
      expect(all.length).toBeGreaterThan(0);
      expect(new Set(all).size).toBe(all.length);
    } finally {
      await Promise.all(instances.map((db) => db.close()));
      await empty.drop();
    }
  });

  it('ends a session on every instance when it is signed out on one', async () => {
    const shared = await createTestDatabase('postgres');
    const a = await startTestApp('postgres', { shared });
    const b = await startTestApp('postgres', { shared });
    try {
      const viewer = await a.signedIn('viewer');
      const onB = b.client();
      onB.cookies.set('sid', viewer.cookies.get('sid') ?? '');
      expect((await onB.get('/api/user')).statusCode).toBe(200); // now cached on B
      await viewer.post('/api/logout');
      await expect.poll(async () => (await onB.get('/api/user')).statusCode, { timeout: 3000 }).toBe(401);
    } finally {
      await a.close();
      await b.close();
      await shared.drop();
    }
  });

  it('updates the lists another instance has cached when a contract is made on one', async () => {
    const shared = await createTestDatabase('postgres');
    const a = await startTestApp('postgres', { shared });
    const b = await startTestApp('postgres', { shared });
    try {
      const [agent, manager, reviewer] = [
        await a.signedIn('agent'),
        await a.signedIn('manager'),
        await a.signedIn('manager'),
      ];
      const customer = await verifiedCustomer(a, agent, reviewer);
      const device = await deviceInStock(manager);
      const plan = await activePlan(manager);
      const onB = await b.signedIn('viewer');
      const lists = async () => [
        (await onB.get('/api/contracts')).json().total,
        (await onB.get('/api/devices?status=reserved')).json().total,
      ];
      expect(await lists()).toEqual([0, 0]); // now cached on B
      const created = await agent.post('/api/contracts', {
        customerId: customer.id,
        deviceId: device.id,
        planId: plan.id,
        deposit: 25_000,
        term: 4,
      });
      expect(created.statusCode, created.body).toBe(201);
      await expect.poll(lists, { timeout: 3000 }).toEqual([1, 1]);
    } finally {
      await a.close();
      await b.close();
      await shared.drop();
    }
  });
});
