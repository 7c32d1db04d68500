import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, devices, deviceTokens } from '../../src/db/schema';
import { encodeToken, type TokenType } from '../../src/domain';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

type Client = TestClient & { user: { id: string } };

/** shared/reference/openpaygo-vectors.md: each row from count 1. */
const KEY = 'bc41ec9530f6dac86b1a29ab82edc5fb';
const STARTING_CODE = 516959010;
const VECTORS: Array<{ type: TokenType; days?: number; count: number; token: string }> = [
  { type: 'ADD_TIME', days: 1, count: 2, token: '588224011' },
  { type: 'ADD_TIME', days: 2, count: 2, token: '639704012' },
  { type: 'ADD_TIME', days: 5, count: 2, token: '177073015' },
  { type: 'ADD_TIME', days: 995, count: 2, token: '944829005' },
  { type: 'SET_TIME', days: 1, count: 3, token: '380589011' },
  { type: 'SET_TIME', days: 995, count: 3, token: '586420005' },
  { type: 'DISABLE_PAYG', count: 3, token: '190942008' },
  { type: 'COUNTER_SYNC', count: 3, token: '160440009' },
];

describe.each(DATABASE_KINDS)('OpenPAYGO tokens on %s', (kind) => {
  let t: TestApp;
  let manager: Client;
  let collector: Client;
  let viewer: Client;
  let modelId: string;
  let serial = 0;

  beforeAll(async () => {
    t = await startTestApp(kind);
    manager = await t.signedIn('manager');
    collector = await t.signedIn('collector');
    viewer = await t.signedIn('viewer');
    const model = await manager.post('/api/device-models', {
      make: 'PayGo',
      model: 'Solar 80',
      category: 'solar_home_system',
      retailPrice: 900_000,
      controlKind: 'openpaygo',
    });
    modelId = model.json().id;
  });
  afterAll(() => t.close());

  /** `derived`: no starting code given, so the server derives it from the key. */
  async function newDevice(startingCode: number | 'derived' = STARTING_CODE): Promise<{ id: string }> {
    serial += 1;
    const response = await manager.post('/api/devices', {
      serialNumber: `OPG-${serial}`,
      modelId,
      control: { kind: 'openpaygo', secretKey: KEY, ...(startingCode === 'derived' ? {} : { startingCode }) },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  const issue = (deviceId: string, body: Record<string, unknown>, client: TestClient = manager) =>
    client.post(`/api/devices/${deviceId}/tokens`, body);

  it('reproduces the reference vectors (device at count 1) exactly as API.md describes', async () => {
    for (const vector of VECTORS) {
      const device = await newDevice();
      await t.app.ctx.db.update(devices).set({ openpaygoCount: 1 }).where(eq(devices.id, device.id));
      const response = await issue(device.id, {
        type: vector.type,
        ...(vector.days === undefined ? {} : { days: vector.days }),
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        token: vector.token,
        type: vector.type,
        value: vector.days ?? null,
        count: vector.count,
      });
      const [row] = await t.app.ctx.db.select().from(devices).where(eq(devices.id, device.id));
      expect(row?.openpaygoCount).toBe(vector.count);
    }
  });

  it('continues the sequence from count 0: ADD_TIME to the next even count, the others to the next odd one', async () => {
    const device = await newDevice('derived');
    const steps: Array<{ type: TokenType; days?: number }> = [
      { type: 'ADD_TIME', days: 7 },
      { type: 'ADD_TIME', days: 30 },
      { type: 'SET_TIME', days: 14 },
      { type: 'ADD_TIME', days: 1 },
      { type: 'COUNTER_SYNC' },
      { type: 'DISABLE_PAYG' },
    ];
    let count = 0;
    const issued: string[] = [];
    for (const step of steps) {
      const response = await issue(device.id, step);
      expect(response.statusCode, response.body).toBe(201);
      const expected = encodeToken({
        secretKey: KEY,
        count,
        type: step.type,
        ...(step.days === undefined ? {} : { value: step.days }),
      });
      expect(response.json()).toMatchObject({ token: expected.token, count: expected.newCount });
      expect(response.json().token).toMatch(/^\d{9}$/);
      count = expected.newCount;
      issued.push(expected.token);
    }
    expect(count).toBe(9);
    const listed = await collector.get(`/api/devices/${device.id}/tokens`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().map((row: { count: number }) => row.count)).toEqual([9, 7, 6, 5, 4, 2]);
    expect(listed.json().map((row: { token: string }) => row.token)).toEqual([...issued].reverse());
    expect(listed.json()[0]).toMatchObject({
      type: 'DISABLE_PAYG',
      value: null,
      issuedBy: { id: manager.user.id },
      issuedAt: expect.any(String),
      contractId: null,
    });
    expect(listed.body.toLowerCase()).not.toContain(KEY);
    expect((await manager.get(`/api/devices/${device.id}`)).json().control.count).toBe(9);
    const audit = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, device.id), eq(auditLog.action, 'device.token')))
      .orderBy(asc(auditLog.id));
    expect(audit.map((row) => row.after)).toEqual(
      listed
        .json()
        .reverse()
        .map((row: { id: string; type: string; value: number | null; count: number }) => ({
          tokenId: row.id,
          type: row.type,
          value: row.value,
          count: row.count,
        })),
    );
    expect(JSON.stringify(audit)).not.toMatch(new RegExp(issued.join('|')));
  });

  it('never gives two concurrent requests the same count', async () => {
    const device = await newDevice();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => issue(device.id, { type: 'ADD_TIME', days: 3 })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const counts = responses.map((r) => r.json().count).sort((a: number, b: number) => a - b);
    expect(counts).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
    expect(new Set(responses.map((r) => r.json().token)).size).toBe(10);
    const rows = await t.app.ctx.db.select().from(deviceTokens).where(eq(deviceTokens.deviceId, device.id));
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row.token).toBe(
        encodeToken({
          secretKey: KEY,
          startingCode: STARTING_CODE,
          count: row.count - 2,
          type: 'ADD_TIME',
          value: 3,
        }).token,
      );
    }
  });

  it('checks the days per type, and refuses units that are not OpenPAYGO or do not exist', async () => {
    const device = await newDevice();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'ADD_TIME' }, 'ADD_TIME needs the number of days'],
      [{ type: 'ADD_TIME', days: 0 }, 'ADD_TIME needs more than 0 days'],
      [{ type: 'SET_TIME', days: 996 }, 'days must be at most 995'],
      [{ type: 'DISABLE_PAYG', days: 3 }, 'DISABLE_PAYG takes no days'],
    ];
    for (const [body, message] of cases) {
      const response = await issue(device.id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().errors).toEqual([{ field: 'days', message }]);
    }
    // A unit without a time divider counts whole days (decision 029).
    const half = await issue(device.id, { type: 'ADD_TIME', days: 1.5 });
    expect(half.statusCode).toBe(422);
    expect(half.json().errors).toEqual([
      {
        field: 'days',
        message:
          'This unit counts time in steps of 1 day (time divider 1): 1.5 days is not a whole number of steps',
      },
    ]);
    expect((await issue(device.id, { type: 'UNLOCK' })).json().errors[0].field).toBe('type');
    expect((await issue(device.id, { type: 'SET_TIME', days: 0 })).statusCode).toBe(201);
    const plain = await manager.post('/api/device-models', {
      make: 'Plain',
      model: 'TV',
      category: 'tv',
      retailPrice: 1,
      controlKind: 'none',
    });
    const tv = (
      await manager.post('/api/devices', { serialNumber: 'PLAIN-TV-1', modelId: plain.json().id })
    ).json();
    const refused = await issue(tv.id, { type: 'ADD_TIME', days: 1 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('This unit is not controlled by OpenPAYGO; it takes no tokens');
    expect((await issue('00000000-0000-4000-8000-000000000000', { type: 'COUNTER_SYNC' })).statusCode).toBe(
      404,
    );
    const rows = await t.app.ctx.db.select().from(deviceTokens).where(eq(deviceTokens.deviceId, device.id));
    expect(rows.map((row) => row.count)).toEqual([1]);
  });

  it('lets device control issue tokens, collectors read them, and nobody else', async () => {
    const device = await newDevice();
    expect((await issue(device.id, { type: 'ADD_TIME', days: 1 }, collector)).statusCode).toBe(403);
    expect((await issue(device.id, { type: 'ADD_TIME', days: 1 }, viewer)).statusCode).toBe(403);
    expect((await viewer.get(`/api/devices/${device.id}/tokens`)).statusCode).toBe(403);
    expect((await collector.get(`/api/devices/${device.id}/tokens`)).json()).toEqual([]);
  });
});
