import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deviceMetrics, devices, deviceTokens } from '../../src/db/schema';
import { decodeToken, encodeToken, metricsAnswer, readMetricsRequest } from '../../src/domain';
import vectors from '../../src/domain/openpaygo/fixtures/metrics.json';
import { OPENPAYGO_KEY_PURPOSE } from '../../src/server/modules/devices/service';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activeContract } from '../support/origination';

/** The official library's keys and requests (src/domain/openpaygo/fixtures/metrics.json). */
const KEY = 'bc41ec9530f6dac86b1a29ab82edc5fb';
const KEY2 = 'dac86b1a29ab82edc5fbbc41ec9530f6';
const STARTING_CODE = 516959010;
const payload = (name: string) => {
  const row = vectors.requests.find((r) => r.name === name);
  if (!row) throw new Error(`No vector ${name}`);
  return row.payload;
};

/** Issue 14 §4, OpenPAYGO complete: the time divider, Metrics, and starting code 0. */
describe.each(DATABASE_KINDS)('OpenPAYGO Metrics, time divider and starting code on %s', (kind) => {
  let t: TestApp;
  let manager: TestClient;
  let viewer: TestClient;
  let agent: TestClient;
  let device: TestClient;
  let modelId: string;
  let unitId: string;
  let unit2Id: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    manager = await t.signedIn('manager');
    viewer = await t.signedIn('viewer');
    agent = await t.signedIn('agent');
    device = t.client();
    const model = await manager.post('/api/device-models', {
      make: 'PayGo',
      model: 'Metrics 50',
      category: 'solar_home_system',
      retailPrice: 900_000,
      controlKind: 'openpaygo',
    });
    modelId = model.json().id;
    const created = await manager.post('/api/devices', {
      serialNumber: 'SN-1001',
      modelId,
      control: { kind: 'openpaygo', secretKey: KEY, startingCode: STARTING_CODE, timeDivider: 24 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().control).toMatchObject({ timeDivider: 24, startingCode: STARTING_CODE });
    unitId = created.json().id;
    const second = await manager.post('/api/devices', {
      serialNumber: 'SN-2002',
      modelId,
      control: { kind: 'openpaygo', secretKey: KEY2 },
    });
    unit2Id = second.json().id;
  });
  afterAll(() => t.close());

  const send = (text: string) =>
    device.post('/api/openpaygo/device_data', undefined, {
      raw: text,
      csrf: false,
      headers: { 'content-type': 'application/json' },
    });

  describe('Metrics', () => {
    it('accepts a signed request, records it and answers with the tokens after its count, signed', async () => {
      // Two tokens: hours on this unit (divider 24).
      const first = await manager.post(`/api/devices/${unitId}/tokens`, { type: 'ADD_TIME', days: 1.5 });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toMatchObject({ value: 36, days: 1.5, timeDivider: 24, count: 2 });
      expect(first.json().token).toBe(
        encodeToken({ secretKey: KEY, startingCode: STARTING_CODE, count: 0, type: 'ADD_TIME', value: 36 })
          .token,
      );
      const second = await manager.post(`/api/devices/${unitId}/tokens`, { type: 'ADD_TIME', days: 2 });
      expect(second.json()).toMatchObject({ value: 48, count: 4 });

      // The official library's request says token_count 4 (no token after it) under simple auth.
      const simple = await send(payload('simple auth'));
      expect(simple.statusCode, simple.body).toBe(201);
      const request = readMetricsRequest(payload('simple auth'));
      expect(simple.json()).toEqual(metricsAnswer(request, {}, KEY));

      // Timestamp auth with token_count 4: nothing after it... issue one more, then it is sent.
      const third = await manager.post(`/api/devices/${unitId}/tokens`, { type: 'ADD_TIME', days: 1 });
      const timed = await send(payload('timestamp auth'));
      expect(timed.statusCode, timed.body).toBe(201);
      expect(timed.json().tkl).toEqual([third.json().token]);
      expect(timed.json()).toEqual(
        metricsAnswer(readMetricsRequest(payload('timestamp auth')), { tokens: [third.json().token] }, KEY),
      );

      const rows = await t.app.ctx.db
        .select()
        .from(deviceMetrics)
        .where(eq(deviceMetrics.deviceId, unitId))
        .orderBy(desc(deviceMetrics.requestTimestamp));
      expect(rows[0]).toMatchObject({
        authMethod: 'ta',
        requestTimestamp: 1700000600,
        data: { token_count: 4, tampered: false, firmware_version: '1.14.2', battery_v: 12.5 },
        tokensSent: 1,
      });
      const audit = await t.app.ctx.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'device.metrics'))
        .orderBy(desc(auditLog.id));
      expect(audit[0]).toMatchObject({ entityId: unitId, actorLabel: 'openpaygo-metrics' });
    });

    it('counter auth, and the active-until time and seconds left when asked, signed', async () => {
      expect((await send(payload('counter auth'))).statusCode).toBe(201);
      await t.app.ctx.db.update(devices).set({ activeUntil: '2030-01-02' }).where(eq(devices.id, unitId));
      const until = await send(payload('data auth, text outside ASCII'));
      expect(until.statusCode, until.body).toBe(201);
      // The organisation's default time zone: the start of 2 January 2030 there.
      expect(until.json().auts).toBeGreaterThan(Date.UTC(2030, 0, 1, 0) / 1000);
      expect(until.json().auts).toBeLessThan(Date.UTC(2030, 0, 2, 12) / 1000);
      expect(until.json()).toEqual(
        metricsAnswer(
          readMetricsRequest(payload('data auth, text outside ASCII')),
          { activeUntil: until.json().auts },
          KEY,
        ),
      );
      const left = await send(payload('recursive data auth, seconds left requested'));
      expect(left.statusCode, left.body).toBe(201);
      const secondsLeft = left.json().asl;
      expect(secondsLeft).toBeGreaterThan(0);
      expect(left.json()).toEqual(
        metricsAnswer(
          readMetricsRequest(payload('recursive data auth, seconds left requested')),
          { secondsLeft },
          KEY,
        ),
      );
    });

    it('reads condensed data with the format in the request (recursive data auth)', async () => {
      const response = await send(payload('recursive data auth, condensed, inline format'));
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().tkl).toEqual([]);
      const [row] = await t.app.ctx.db
        .select()
        .from(deviceMetrics)
        .where(eq(deviceMetrics.deviceId, unit2Id));
      expect(row?.data).toEqual({ token_count: 2, battery_v: 0.00001 });
      expect(row?.history).toEqual([
        { panel_v: 1e16, load_w: 0, timestamp: 1700002400 },
        { panel_v: 100, load_w: 7, timestamp: 1700006000 },
      ]);
    });

    it('refuses replays, bad signatures and malformed requests clearly, never with a 500', async () => {
      const recorded = async () => (await t.app.ctx.db.select().from(deviceMetrics)).length;
      const before = await recorded();
      const replay = await send(payload('timestamp auth'));
      expect(replay.statusCode).toBe(409);
      expect(replay.json()).toMatchObject({ code: 'METRICS_REPLAY', errors: [{ field: 'timestamp' }] });
      expect(replay.json().message).toMatch(/not after the last accepted .*replay/);
      const counted = await send(payload('counter auth'));
      expect(counted.statusCode).toBe(409);
      expect(counted.json().errors[0].field).toBe('request_count');

      const forged = JSON.parse(payload('recursive data auth, no data')) as Record<string, unknown>;
      forged.timestamp = 1800000000;
      const bad = await send(JSON.stringify(forged));
      expect(bad.statusCode).toBe(401);
      expect(bad.json()).toMatchObject({ code: 'METRICS_SIGNATURE_INVALID', errors: [{ field: 'auth' }] });

      const { auth: _, ...unsigned } = forged;
      expect((await send(JSON.stringify(unsigned))).json()).toMatchObject({
        code: 'METRICS_SIGNATURE_INVALID',
        message: expect.stringMatching(/not signed/),
      });
      const unknown = await send(JSON.stringify({ ...forged, serial_number: 'NOPE-1' }));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('METRICS_UNKNOWN_DEVICE');

      // A format only known by its id is not registered here.
      const byId = await send(payload('data auth, condensed'));
      expect(byId.statusCode).toBe(400);
      expect(byId.json().message).toMatch(/Data format 7 is not registered/);

      for (const text of [
        '',
        'not json',
        '[]',
        '{"sn": 5}',
        '{"sn":"SN-1001","a":"zz00"}',
        '{"sn":"SN-1001","ts":-1,"a":"ta00"}',
        '{"sn":"SN-1001","ts":99999999999999,"a":"ta00"}',
        '{"sn":"SN-1001","d":"text","a":"sa00"}',
        `{"sn":"SN-1001","d":{"x":"\\u0000"},"a":"sa00"}`,
        '{"sn":"SN-1001","ts":1,"d":{"a":1e999},"a":"da00"}',
        `{"sn":"SN-1001","d":${'['.repeat(100)}${']'.repeat(100)},"a":"sa00"}`,
      ]) {
        const response = await send(text);
        expect(response.statusCode, `${text}: ${response.body}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${text}: ${response.body}`).toBeLessThan(500);
        expect(response.json().message).toEqual(expect.any(String));
      }
      // An older timestamp than the last accepted one is a replay too.
      expect((await send(payload('recursive data auth, no data'))).statusCode).toBe(409);
      expect(await recorded()).toBe(before);
    });

    it("shows the unit's readings on its page", async () => {
      const response = await viewer.get(`/api/devices/${unitId}/metrics`);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.requests.length).toBeGreaterThanOrEqual(5);
      expect(body.latest).toEqual(
        expect.arrayContaining([
          // The counter-auth request had no timestamp: it is timed by its reception, the newest.
          expect.objectContaining({ name: 'battery_v', value: 12.5 }),
          expect.objectContaining({ name: 'active_seconds_left_requested', value: true }),
          expect.objectContaining({ name: 'firmware_version', value: '1.14.2' }),
        ]),
      );
      expect((await viewer.get('/api/devices/00000000-0000-4000-8000-000000000000/metrics')).statusCode).toBe(
        404,
      );
    });
  });

  describe('time divider', () => {
    it('is validated and edited on OpenPAYGO units only', async () => {
      for (const timeDivider of [0, 996, 1.5]) {
        const response = await manager.patch(`/api/devices/${unit2Id}`, { timeDivider });
        expect(response.statusCode).toBe(400);
        expect(response.json().errors[0]).toMatchObject({ field: 'timeDivider' });
      }
      const set = await manager.patch(`/api/devices/${unit2Id}`, { timeDivider: 60 });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().control.timeDivider).toBe(60);
      const tooMany = await manager.post(`/api/devices/${unit2Id}/tokens`, { type: 'ADD_TIME', days: 17 });
      expect(tooMany.statusCode).toBe(422);
      expect(tooMany.json().errors[0]).toMatchObject({
        field: 'days',
        message: expect.stringMatching(/at most 16 days/),
      });
      const plain = await manager.post('/api/device-models', {
        make: 'Plain',
        model: 'Phone 1',
        category: 'smartphone',
        retailPrice: 10_000,
        controlKind: 'none',
      });
      const phone = await manager.post('/api/devices', { serialNumber: 'PH-1', modelId: plain.json().id });
      const refused = await manager.patch(`/api/devices/${phone.json().id}`, { timeDivider: 24 });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors[0].field).toBe('timeDivider');
    });

    it('a payment on a unit with a divider issues days × divider in its token', async () => {
      const checker = await t.signedIn('manager');
      const contract = await activeContract(t, { agent, manager, reviewer: checker }, 'openpaygo');
      const deviceId = contract.device.id as string;
      expect((await manager.patch(`/api/devices/${deviceId}`, { timeDivider: 24 })).statusCode).toBe(200);
      const paid = await agent.post('/api/payments', {
        contractId: contract.id,
        amount: 32_000,
        method: 'cash',
      });
      expect(paid.statusCode, paid.body).toBe(201);
      const effect = paid.json().payment.token;
      expect(effect.days).toBeGreaterThan(20);
      expect(effect.days).toBeLessThanOrEqual(41);
      const [unit] = await t.app.ctx.db.select().from(devices).where(eq(devices.id, deviceId));
      const [row] = await t.app.ctx.db
        .select()
        .from(deviceTokens)
        .where(eq(deviceTokens.deviceId, deviceId))
        .orderBy(desc(deviceTokens.count))
        .limit(1);
      expect(row).toMatchObject({ token: effect.token, value: effect.days * 24, timeDivider: 24 });
      const key = t.app.ctx.keyring.decrypt(OPENPAYGO_KEY_PURPOSE, unit?.openpaygoSecret as string);
      const decoded = decodeToken(effect.token, {
        secretKey: key,
        startingCode: Number(unit?.openpaygoStartingCode),
        lastCount: (row?.count ?? 0) - 2,
      });
      expect(decoded).toMatchObject({ status: 'valid', type: 'ADD_TIME', value: effect.days * 24 });
    });
  });

  describe('starting code 0', () => {
    it('is refused on the unit form API with a message naming the field', async () => {
      for (const startingCode of [0, '0', '000000000']) {
        const response = await manager.post('/api/devices', {
          serialNumber: `ZERO-${String(startingCode).length}`,
          modelId,
          control: { kind: 'openpaygo', secretKey: KEY, startingCode },
        });
        expect(response.statusCode).toBe(400);
        expect(response.json().errors).toEqual([
          { field: 'control.startingCode', message: expect.stringMatching(/Starting code 0 cannot be used/) },
        ]);
      }
    });

    it('is refused at import, row by row', async () => {
      const csv = [
        'serial_number,model_sku,make,model,imei,openpaygo_secret_key,openpaygo_starting_code,openpaygo_time_divider',
        `IMP-1,,PayGo,Metrics 50,,${KEY},0,`,
        `IMP-2,,PayGo,Metrics 50,,${KEY},000,24`,
        `IMP-3,,PayGo,Metrics 50,,${KEY},123,0`,
        `IMP-4,,PayGo,Metrics 50,,${KEY},123,24`,
      ].join('\n');
      const dry = await manager.post('/api/devices/import', { csv, dryRun: true });
      expect(dry.statusCode, dry.body).toBe(200);
      expect(dry.json()).toMatchObject({ rows: 4, valid: 1 });
      expect(dry.json().errors).toEqual([
        {
          row: 2,
          field: 'openpaygo_starting_code',
          message: expect.stringMatching(/Starting code 0 cannot be used/),
        },
        {
          row: 3,
          field: 'openpaygo_starting_code',
          message: expect.stringMatching(/Starting code 0 cannot be used/),
        },
        { row: 4, field: 'openpaygo_time_divider', message: expect.stringMatching(/from 1 to 995/) },
      ]);
      const refused = await manager.post('/api/devices/import', { csv });
      expect(refused.statusCode).toBe(422);
      const good = await manager.post('/api/devices/import', {
        csv: csv
          .split('\n')
          .filter((_, i) => i === 0 || i === 4)
          .join('\n'),
      });
      expect(good.statusCode, good.body).toBe(201);
      const [imported] = await t.app.ctx.db.select().from(devices).where(eq(devices.serialNumber, 'IMP-4'));
      expect(imported).toMatchObject({ openpaygoStartingCode: '123', openpaygoTimeDivider: 24 });
    });
  });
});
