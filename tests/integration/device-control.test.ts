import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterFailedAttempt, retryDelaySeconds } from '../../src/contracts/device-control';
import { queryRows } from '../../src/db/client';
import { addDays } from '../../src/domain';
import { deliverDueCommands, type Providers } from '../../src/server/modules/devices/control/delivery';
import { openPaygoProvider } from '../../src/server/modules/devices/control/openpaygo';
import type { CommandProvider } from '../../src/server/modules/devices/control/provider';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/databases';
import { FakeLockApi } from '../support/fake-lock-api';
import { activeContract, deviceInStock } from '../support/origination';

const SECRET = 'lock-api-shared-secret-for-tests';
const SECOND = 1000;

describe('back-off', () => {
  it('doubles the wait after each failed attempt, capped at an hour, and fails after the last', () => {
    expect([1, 2, 3, 4].map((n) => retryDelaySeconds(n, 30))).toEqual([30, 60, 120, 240]);
    expect(retryDelaySeconds(30, 30)).toBe(3600);
    const now = new Date('2026-01-01T00:00:00Z');
    expect(afterFailedAttempt(2, 5, 30, now)).toEqual({
      state: 'queued',
      nextAttemptAt: new Date('2026-01-01T00:01:00Z'),
    });
    expect(afterFailedAttempt(5, 5, 30, now)).toEqual({ state: 'failed', nextAttemptAt: null });
  });
});

/** Issue 14 §4: device commands delivered with retries and back-off, every attempt visible. */
describe.each(DATABASE_KINDS)('device control on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let collector: TestClient;
  let manager: TestClient & { user: { id: string } };
  let checker: TestClient;
  let admin: TestClient;
  const fake = new FakeLockApi(SECRET);

  const settings = {
    provider: 'simulator',
    simulatorLatencyMs: 0,
    simulatorFailureRate: 0,
    maxAttempts: 3,
    retryBaseSeconds: 30,
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { env: { BUSINESS_DATE_CONTROL: 'true' } });
    agent = await t.signedIn('agent');
    collector = await t.signedIn('collector');
    manager = await t.signedIn('manager');
    checker = await t.signedIn('manager');
    admin = await t.signedIn('admin');
    await fake.start();
    expect((await admin.put('/api/device-control/settings', settings)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await fake.stop();
    await t.close();
  });

  const deliver = (providers?: Providers) => deliverDueCommands(t.app.ctx, providers ? { providers } : {});
  const lockUnit = () => deviceInStock(manager, { control: 'lock_api' });
  const history = async (deviceId: string) => (await manager.get(`/api/devices/${deviceId}/commands`)).json();
  const audit = (action: string) =>
    queryRows<{ actor_id: string | null; entity_id: string | null; after: Record<string, unknown> }>(
      t.app.ctx.db,
      sql`SELECT actor_id, entity_id, after FROM audit_log WHERE action = ${action} ORDER BY id`,
    );

  it('checks the permission and the reason of a manual command, audits it, and refuses what the unit cannot take', async () => {
    const unit = await lockUnit();
    const body = { kind: 'lock', reason: 'Customer asked to lock the stolen phone' };
    expect((await collector.post(`/api/devices/${unit.id}/commands`, body)).statusCode).toBe(403);
    const noReason = await manager.post(`/api/devices/${unit.id}/commands`, { kind: 'lock', reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toContainEqual({ field: 'reason', message: 'Give the reason' });
    const queued = await manager.post(`/api/devices/${unit.id}/commands`, body);
    expect(queued.statusCode, queued.body).toBe(201);
    expect(queued.json()).toMatchObject({ kind: 'lock', state: 'queued', reason: body.reason, attempts: 0 });
    const again = await manager.post(`/api/devices/${unit.id}/commands`, body);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('COMMAND_PENDING');
    const rows = await audit('device.command');
    expect(rows.at(-1)).toMatchObject({
      actor_id: manager.user.id,
      entity_id: unit.id,
      after: { commandId: queued.json().id, kind: 'lock', reason: body.reason },
    });

    const solar = await deviceInStock(manager, { control: 'openpaygo' });
    const refused = await manager.post(`/api/devices/${solar.id}/commands`, body);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('COMMAND_NOT_SUPPORTED');
    const plain = await deviceInStock(manager);
    expect((await manager.post(`/api/devices/${plain.id}/commands`, body)).statusCode).toBe(422);

    // The simulator (the default provider) acknowledges; the unit's lock state follows, audited.
    const run = await deliver();
    expect(run.acknowledged).toBeGreaterThanOrEqual(1);
    expect((await manager.get(`/api/devices/${unit.id}`)).json().lockState).toBe('locked');
    const [command] = await history(unit.id);
    expect(command).toMatchObject({ state: 'acknowledged', provider: 'simulator', attempts: 1 });
    expect(command.attemptLog).toMatchObject([
      { attempt: 1, provider: 'simulator', outcome: 'acknowledged' },
    ]);
    expect((await audit('device.lock_state')).at(-1)).toMatchObject({
      entity_id: unit.id,
      after: { lockState: 'locked', commandId: command.id },
    });
  });

  it('retries a failing provider with exponential back-off, shows every failure, and fails after the last attempt', async () => {
    await admin.put('/api/device-control/settings', { ...settings, simulatorFailureRate: 1 });
    const unit = await lockUnit();
    const queued = await manager.post(`/api/devices/${unit.id}/commands`, {
      kind: 'lock',
      reason: 'Arrears, by hand',
    });
    const id = queued.json().id;
    const command = async () => (await manager.get(`/api/device-control/commands/${id}`)).json();

    const start = t.clock.now().getTime();
    await deliver();
    let seen = await command();
    expect(seen).toMatchObject({
      state: 'queued',
      attempts: 1,
      lastError: expect.stringContaining('Simulated'),
    });
    expect(Date.parse(seen.nextAttemptAt) - start).toBe(30 * SECOND);
    expect(seen.attemptLog).toMatchObject([
      { attempt: 1, outcome: 'failed', error: expect.stringContaining('Simulated') },
    ]);

    // Not due yet: nothing happens.
    await deliver();
    expect((await command()).attempts).toBe(1);

    t.clock.advance(30 * SECOND);
    await deliver();
    seen = await command();
    expect(seen).toMatchObject({ state: 'queued', attempts: 2 });
    expect(Date.parse(seen.nextAttemptAt) - t.clock.now().getTime()).toBe(60 * SECOND);

    t.clock.advance(60 * SECOND);
    await deliver();
    seen = await command();
    expect(seen).toMatchObject({ state: 'failed', attempts: 3, nextAttemptAt: null });
    expect(seen.completedAt).not.toBeNull();
    expect(seen.attemptLog.map((a: { outcome: string }) => a.outcome)).toEqual([
      'failed',
      'failed',
      'failed',
    ]);
    expect((await manager.get(`/api/devices/${unit.id}`)).json().lockState).toBe('unknown');
    // Those who send commands hear of it.
    const notices = (await manager.get('/api/notifications')).json();
    expect(JSON.stringify(notices)).toContain(`The lock for ${unit.serialNumber} failed after 3 attempts`);

    // Visible in the log's filters and the fleet's backlog.
    const failed = (
      await manager.get(`/api/device-control/commands?state=failed&deviceId=${unit.id}`)
    ).json();
    expect(failed.items.map((c: { id: string }) => c.id)).toEqual([id]);
    const fleet = (await manager.get('/api/device-control/fleet')).json();
    expect(fleet.commands.failed).toBeGreaterThanOrEqual(1);
    // The fleet is counted per status too, so units with customers are told apart from the stock.
    const status = (await manager.get(`/api/devices/${unit.id}`)).json().status;
    expect(fleet.cells).toContainEqual({
      controlKind: 'lock_api',
      lockState: 'unknown',
      status,
      units: expect.any(Number),
    });
    await admin.put('/api/device-control/settings', settings);
  });

  it('signs every request to the lock API, retries its failure, and takes its signed acknowledgement', async () => {
    expect(
      (
        await manager.put('/api/device-control/settings', {
          ...settings,
          provider: 'lock_api',
          lockApiUrl: fake.url,
        })
      ).statusCode,
    ).toBe(403);
    const noUrl = await admin.put('/api/device-control/settings', { ...settings, provider: 'lock_api' });
    expect(noUrl.statusCode).toBe(400);
    expect(noUrl.json().errors).toContainEqual({
      field: 'lockApiUrl',
      message: 'The lock API needs its URL',
    });
    const noSecret = await admin.put('/api/device-control/settings', {
      ...settings,
      provider: 'lock_api',
      lockApiUrl: fake.url,
    });
    expect(noSecret.statusCode).toBe(400);
    expect(noSecret.json().errors).toEqual([
      { field: 'lockApiSecret', message: 'The lock API needs its signing secret' },
    ]);
    const saved = await admin.put('/api/device-control/settings', {
      ...settings,
      provider: 'lock_api',
      lockApiUrl: fake.url,
      lockApiSecret: SECRET,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      provider: 'lock_api',
      lockApiUrl: fake.url,
      lockApiSecretSet: true,
    });
    expect(saved.body).not.toContain(SECRET);
    const [stored] = await queryRows<{ lock_api_secret: string }>(
      t.app.ctx.db,
      sql`SELECT lock_api_secret FROM device_control_settings`,
    );
    expect(stored?.lock_api_secret).toMatch(/^v1\./);
    const settingsAudit = (await audit('device_control.settings')).at(-1);
    expect(settingsAudit?.after).toMatchObject({ provider: 'lock_api', secretChanged: true });
    expect(JSON.stringify(settingsAudit)).not.toContain(SECRET);

    const test = await admin.post('/api/device-control/settings/test');
    expect(test.json()).toMatchObject({ ok: true, provider: 'lock_api' });

    // A failure of the provider is retried; both requests are signed, each attempt its own key.
    const unit = await lockUnit();
    await t.app.ctx.db.execute(sql`UPDATE devices SET lock_state = 'locked' WHERE id = ${unit.id}`);
    const id = (
      await manager.post(`/api/devices/${unit.id}/commands`, { kind: 'unlock', reason: 'Paid at the shop' })
    ).json().id;
    fake.failNext = 1;
    await deliver();
    const first = (await manager.get(`/api/device-control/commands/${id}`)).json();
    expect(first.state).toBe('queued');
    expect(first.attemptLog[0]).toMatchObject({ outcome: 'failed', provider: 'lock_api' });
    expect(first.attemptLog[0].error).toContain('503');
    expect(first.attemptLog[0].response).toMatchObject({ httpStatus: 503 });
    t.clock.advance(30 * SECOND);
    await deliver();
    expect((await manager.get(`/api/device-control/commands/${id}`)).json().state).toBe('acknowledged');
    expect((await manager.get(`/api/devices/${unit.id}`)).json().lockState).toBe('unlocked');
    const mine = fake.commands.filter((request) => request.body.commandId === id);
    expect(mine.map((request) => [request.body.command, request.idempotencyKey])).toEqual([
      ['unlock', `${id}:1`],
      ['unlock', `${id}:2`],
    ]);
    expect(fake.requests.every((request) => request.signatureValid)).toBe(true);
    expect(mine[0]?.body.device?.serialNumber).toBe(unit.serialNumber);

    // Accepted now, acknowledged later by a signed callback.
    fake.mode = 'accept';
    const other = await lockUnit();
    const lockId = (
      await manager.post(`/api/devices/${other.id}/commands`, { kind: 'lock', reason: 'Arrears' })
    ).json().id;
    await deliver();
    const accepted = (await manager.get(`/api/device-control/commands/${lockId}`)).json();
    expect(accepted.state).toBe('sent');
    expect(accepted.attemptLog).toMatchObject([{ outcome: 'accepted' }]);
    const callback = (body: string, signature: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/device-control/ack',
        headers: { 'content-type': 'application/json', 'x-signature': signature },
        payload: body,
      });
    const ack = fake.acknowledgement(lockId, 'acknowledged', t.clock.now());
    const forged = await callback(ack.body.replace('acknowledged', 'failed'), ack.signature);
    expect(forged.statusCode).toBe(401);
    expect((await callback(ack.body, 'nonsense')).statusCode).toBe(401);
    const good = await callback(ack.body, ack.signature);
    expect(good.statusCode, good.body).toBe(200);
    expect((await callback(ack.body, ack.signature)).statusCode).toBe(200);
    const done = (await manager.get(`/api/device-control/commands/${lockId}`)).json();
    expect(done.state).toBe('acknowledged');
    expect(done.attemptLog).toMatchObject([{ outcome: 'acknowledged' }]);
    expect((await manager.get(`/api/devices/${other.id}`)).json().lockState).toBe('locked');
    fake.mode = 'acknowledge';

    // A wrong secret: the provider refuses the signature, and the attempt says so.
    await admin.put('/api/device-control/settings', {
      ...settings,
      provider: 'lock_api',
      lockApiUrl: fake.url,
      lockApiSecret: 'not-the-shared-secret-at-all',
    });
    const third = await lockUnit();
    const badId = (
      await manager.post(`/api/devices/${third.id}/commands`, { kind: 'lock', reason: 'Arrears' })
    ).json().id;
    await deliver();
    const refused = (await manager.get(`/api/device-control/commands/${badId}`)).json();
    expect(refused.attemptLog[0].error).toContain('401');
    await admin.put('/api/device-control/settings', settings);
    // Leave nothing due for the next tests.
    t.clock.advance(3600 * SECOND);
    await deliver();
  });

  it('never delivers one command twice when two workers run at once', async () => {
    const units = await Promise.all(Array.from({ length: 8 }, () => lockUnit()));
    const bulk = await manager.post('/api/device-control/bulk', {
      kind: 'lock',
      deviceIds: units.map((unit) => unit.id),
      reason: 'Concurrency check',
    });
    expect(bulk.json().queued).toBe(8);
    const delivered: string[] = [];
    const counting: CommandProvider = {
      name: 'simulator',
      async deliver(request) {
        delivered.push(request.commandId);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { outcome: 'acknowledged', response: {} };
      },
    };
    const providers: Providers = { lock: counting, openpaygo: openPaygoProvider(t.app.ctx) };
    const runs = await Promise.all([
      deliverDueCommands(t.app.ctx, { providers, batch: 2 }),
      deliverDueCommands(t.app.ctx, { providers, batch: 2 }),
      deliverDueCommands(t.app.ctx, { providers, batch: 3 }),
    ]);
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(delivered.length).toBe(8);
    expect(runs.reduce((sum, run) => sum + run.acknowledged, 0)).toBe(8);
    const states = await queryRows<{ state: string; attempts: number }>(
      t.app.ctx.db,
      sql`SELECT state, attempts FROM device_commands WHERE device_id = ANY(${sql.param(units.map((u) => u.id))}::text[])`,
    );
    expect(states.every((row) => row.state === 'acknowledged' && row.attempts === 1)).toBe(true);
  });

  it('bulk locks only the units that can take it, with a reason, permission-checked and audited once', async () => {
    const free = await lockUnit();
    const locked = await lockUnit();
    await t.app.ctx.db.execute(sql`UPDATE devices SET lock_state = 'locked' WHERE id = ${locked.id}`);
    const solar = await deviceInStock(manager, { control: 'openpaygo' });
    const deviceIds = [free.id, locked.id, solar.id];
    expect(
      (await collector.post('/api/device-control/bulk', { kind: 'lock', deviceIds, reason: 'Arrears' }))
        .statusCode,
    ).toBe(403);
    const noReason = await manager.post('/api/device-control/bulk', { kind: 'lock', deviceIds });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors.map((e: { field: string }) => e.field)).toContain('reason');
    expect(
      (await manager.post('/api/device-control/bulk', { kind: 'release', deviceIds, reason: 'x y z' }))
        .statusCode,
    ).toBe(400);

    const res = await manager.post('/api/device-control/bulk', {
      kind: 'lock',
      deviceIds,
      reason: 'Region-wide arrears',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().queued).toBe(1);
    expect(res.json().skipped).toEqual(
      expect.arrayContaining([
        { deviceId: locked.id, serialNumber: locked.serialNumber, reason: 'Already locked' },
        {
          deviceId: solar.id,
          serialNumber: solar.serialNumber,
          reason: 'Controlled by OpenPAYGO, not a lock API',
        },
      ]),
    );
    const row = (await audit('device.command_bulk')).at(-1);
    expect(row).toMatchObject({
      actor_id: manager.user.id,
      after: { kind: 'lock', reason: 'Region-wide arrears', queued: [free.id] },
    });
    const log = (
      await manager.get(`/api/device-control/commands?kind=lock&state=queued&deviceId=${free.id}`)
    ).json();
    expect(log.items).toMatchObject([
      { reason: 'Region-wide arrears', device: { serialNumber: free.serialNumber } },
    ]);
    await deliver();
    expect((await manager.get(`/api/devices/${free.id}`)).json().lockState).toBe('locked');
  });

  it('issues OpenPAYGO tokens and release for token and release commands, into the unit’s token history', async () => {
    const solar = await deviceInStock(manager, { control: 'openpaygo' });
    // Its time ran out (as a close records it, decision 050): the token given by hand runs it again.
    await t.app.ctx.db.execute(
      sql`UPDATE devices SET lock_state = 'locked', active_until = '2020-01-01' WHERE id = ${solar.id}`,
    );
    const missingDays = await manager.post(`/api/devices/${solar.id}/commands`, {
      kind: 'token',
      reason: 'Goodwill',
    });
    expect(missingDays.statusCode).toBe(400);
    const token = await manager.post(`/api/devices/${solar.id}/commands`, {
      kind: 'token',
      reason: 'Goodwill',
      days: 7,
    });
    expect(token.statusCode, token.body).toBe(201);
    await deliver();
    const [command] = await history(solar.id);
    expect(command).toMatchObject({ kind: 'token', days: 7, state: 'acknowledged', provider: 'openpaygo' });
    expect(command.attemptLog[0].response).toMatchObject({
      type: 'ADD_TIME',
      days: 7,
      delivery: { channel: 'token_history' },
    });
    const tokens = (await manager.get(`/api/devices/${solar.id}/tokens`)).json();
    expect(tokens).toMatchObject([{ type: 'ADD_TIME', value: 7, issuedBy: { id: manager.user.id } }]);
    const businessDate = (await manager.get('/api/business-date')).json().businessDate;
    expect((await manager.get(`/api/devices/${solar.id}`)).json()).toMatchObject({
      lockState: 'unlocked',
      activeUntil: addDays(businessDate, 7),
    });

    await manager.post(`/api/devices/${solar.id}/commands`, { kind: 'release', reason: 'Paid off in cash' });
    await deliver();
    const after = (await manager.get(`/api/devices/${solar.id}/tokens`)).json();
    expect(after.map((row: { type: string }) => row.type)).toEqual(['DISABLE_PAYG', 'ADD_TIME']);
    expect((await manager.get(`/api/devices/${solar.id}`)).json().lockState).toBe('unlocked');
  });

  it('queues an unlock in the request of the payment that clears arrears, and delivery unlocks the unit', async () => {
    const contract = await activeContract(t, { agent, manager, reviewer: checker }, 'lock_api');
    const now = (await admin.get('/api/business-date')).json();
    const later = new Date(Date.parse(`${now.businessDate}T00:00:00Z`) + 40 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect((await admin.put('/api/business-date', { businessDate: later })).statusCode).toBe(200);
    // Close of business (step 3) locks it: the lock is delivered.
    await deliver();
    const lockState = (await manager.get(`/api/devices/${contract.device.id}`)).json().lockState;
    if (lockState !== 'locked')
      await t.app.ctx.db.execute(
        sql`UPDATE devices SET lock_state = 'locked' WHERE id = ${contract.device.id}`,
      );
    const paid = await agent.post('/api/payments', {
      contractId: contract.id,
      amount: 40_000,
      method: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const queued = await queryRows<{ kind: string; state: string; source_id: string }>(
      t.app.ctx.db,
      sql`SELECT kind, state, source_id FROM device_commands WHERE device_id = ${contract.device.id} AND kind = 'unlock'`,
    );
    expect(queued).toEqual([{ kind: 'unlock', state: 'queued', source_id: paid.json().payment.id }]);
    // The receipt names the command and the unit it went to.
    const unlock = await queryRows<{ id: string }>(
      t.app.ctx.db,
      sql`SELECT id FROM device_commands WHERE device_id = ${contract.device.id} AND kind = 'unlock'`,
    );
    const receipt = { id: unlock[0]?.id, kind: 'unlock', deviceId: contract.device.id };
    expect(paid.json().payment.deviceCommand).toEqual(receipt);
    expect(
      (await manager.get(`/api/payments/${paid.json().payment.id}`)).json().payment.deviceCommand,
    ).toEqual(receipt);
    await deliver();
    expect((await manager.get(`/api/devices/${contract.device.id}`)).json().lockState).toBe('unlocked');
    const commands = await history(contract.device.id);
    expect(commands[0]).toMatchObject({ kind: 'unlock', state: 'acknowledged', sourceType: 'payment' });
  });
});

// Two app instances on one PostgreSQL database (PGlite is one process's own): each delivers.
describe.runIf(DATABASE_KINDS.includes('postgres'))('device command delivery on two instances', () => {
  let shared: TestDatabase;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    shared = await createTestDatabase('postgres');
    first = await startTestApp('postgres', { shared });
    second = await startTestApp('postgres', { shared });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await shared.drop();
  });

  it('delivers each command exactly once when both instances run at the same moment', async () => {
    const manager = await first.signedIn('manager');
    const units = await Promise.all(
      Array.from({ length: 12 }, () => deviceInStock(manager, { control: 'lock_api' })),
    );
    const bulk = await manager.post('/api/device-control/bulk', {
      kind: 'lock',
      deviceIds: units.map((unit) => unit.id),
      reason: 'Two instances',
    });
    expect(bulk.json().queued).toBe(12);
    const delivered: string[] = [];
    const counting = (app: TestApp): Providers => ({
      lock: {
        name: 'simulator',
        async deliver(request) {
          delivered.push(request.commandId);
          await new Promise((resolve) => setTimeout(resolve, 10));
          return { outcome: 'acknowledged', response: {} };
        },
      },
      openpaygo: openPaygoProvider(app.app.ctx),
    });
    await Promise.all([
      deliverDueCommands(first.app.ctx, { providers: counting(first), batch: 2 }),
      deliverDueCommands(second.app.ctx, { providers: counting(second), batch: 2 }),
    ]);
    expect(delivered).toHaveLength(12);
    expect(new Set(delivered).size).toBe(12);
    const attempts = await queryRows<{ n: number }>(
      first.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM device_command_attempts`,
    );
    expect(attempts[0]?.n).toBe(12);
  });
});
