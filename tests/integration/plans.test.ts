import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

const plan = (code: string, extra: Record<string, unknown> = {}) => ({
  code,
  name: 'Daily solar plan',
  frequency: 'daily',
  allowedTerms: [365, 180],
  apr: 36,
  interestMethod: 'declining',
  minDepositPercent: 10,
  serviceFee: 500,
  ...extra,
});

describe.each(DATABASE_KINDS)('service plans on %s', (kind) => {
  let t: TestApp;
  let manager: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    manager = await t.signedIn('manager');
    admin = await t.signedIn('admin');
  });
  afterAll(() => t.close());

  it('creates a draft with defaults, sorted terms and the organisation currency', async () => {
    const created = await manager.post('/api/service-plans', plan('SOLAR-D1'));
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      version: 1,
      status: 'draft',
      allowedTerms: [180, 365],
      lateFeeKind: 'none',
      allocationStrategy: 'default',
      currency: 'USD',
      contracts: 0,
    });
    expect((await manager.post('/api/service-plans', plan('SOLAR-D1'))).statusCode).toBe(409);
  });

  it('validates fields and the rules between them', async () => {
    const bad = await manager.post(
      '/api/service-plans',
      plan('bad code', { allowedTerms: [], apr: -1, frequency: 'yearly' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['allowedTerms', 'apr', 'code', 'frequency']);
    const rules = await manager.post(
      '/api/service-plans',
      plan('RULES', {
        lateFeeKind: 'percent',
        lateFeeValue: 150,
        lockAfterDays: 30,
        defaultAfterDays: 10,
        minDepositPercent: 100,
      }),
    );
    expect(rules.statusCode).toBe(400);
    expect(
      rules
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['defaultAfterDays', 'lateFeeValue', 'minDepositPercent']);
    const unknownModel = await manager.post(
      '/api/service-plans',
      plan('MODELS', { eligibleModelIds: ['00000000-0000-4000-8000-000000000000'] }),
    );
    expect(unknownModel.json().errors[0].field).toBe('eligibleModelIds');
  });

  it('refuses an APR above the organisation cap, when creating and when activating', async () => {
    const draft = (await manager.post('/api/service-plans', plan('CAPPED', { apr: 48 }))).json();
    const settings = (await admin.get('/api/settings/organisation')).json();
    await admin.put('/api/settings/organisation', {
      name: settings.name,
      currency: settings.currency,
      timeZone: settings.timeZone,
      country: settings.country,
      delinquencyBuckets: settings.delinquencyBuckets,
      quietHoursStart: settings.quietHoursStart,
      quietHoursEnd: settings.quietHoursEnd,
      aprCap: 40,
    });
    const over = await manager.post('/api/service-plans', plan('OVER-CAP', { apr: 45 }));
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe("APR 45% is above the organisation's cap of 40%");
    expect((await manager.post(`/api/service-plans/${draft.id}/activate`)).statusCode).toBe(422);
    await admin.put('/api/settings/organisation', { ...settings, updatedAt: undefined, aprCap: null });
  });

  it('versions: editing an active plan makes the next version, activation retires the old one', async () => {
    const v1 = (await manager.post('/api/service-plans', plan('VERSIONS'))).json();
    await manager.post(`/api/service-plans/${v1.id}/activate`);
    const v2 = (
      await manager.patch(`/api/service-plans/${v1.id}`, { apr: 30, name: 'Cheaper solar' })
    ).json();
    expect(v2).toMatchObject({ version: 2, status: 'draft', apr: 30, familyId: v1.id });
    expect((await manager.patch(`/api/service-plans/${v1.id}`, { apr: 29 })).statusCode).toBe(409); // one draft at a time
    const changed = (await manager.patch(`/api/service-plans/${v2.id}`, { apr: 28 })).json();
    expect(changed).toMatchObject({ id: v2.id, version: 2, apr: 28 });
    expect((await manager.patch(`/api/service-plans/${v2.id}`, { code: 'RENAMED' })).statusCode).toBe(422);
    await manager.post(`/api/service-plans/${v2.id}/activate`);
    const detail = (await manager.get(`/api/service-plans/${v1.id}`)).json();
    expect(detail.versions.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
      [1, 'retired'],
      [2, 'active'],
    ]);
    const list = (await manager.get('/api/service-plans?q=versions')).json();
    expect(list.items.map((p: { version: number }) => p.version)).toEqual([2]);
    expect((await manager.get('/api/service-plans?q=versions&allVersions=true')).json().total).toBe(2);
    expect((await manager.post(`/api/service-plans/${v2.id}/retire`)).json().status).toBe('retired');
  });

  it('lets staff read plans but only managers change them', async () => {
    const viewer = await t.signedIn('viewer');
    expect((await viewer.get('/api/service-plans')).statusCode).toBe(200);
    expect((await viewer.post('/api/service-plans', plan('NOPE'))).statusCode).toBe(403);
    const csv = await viewer.get('/api/service-plans?format=csv');
    expect(csv.body.split('\r\n')[0]).toBe(
      'Code,Version,Name,Status,Frequency,Terms,APR %,Method,Min deposit %,Service fee (minor units),Contracts',
    );
  });
});
