import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

describe.each(DATABASE_KINDS)('activity tracking on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const today = () => t.clock.now().toISOString().slice(0, 10);

  it('stores events of a signed-in user and refuses them signed out', async () => {
    const agent = await t.signedIn('agent');
    const event = { type: 'PAGE_VISIT', page: '/contracts/12', timestamp: new Date().toISOString() };
    expect((await agent.post('/api/activity/track', event)).statusCode).toBe(204);
    expect((await t.client().post('/api/activity/track', event)).statusCode).toBe(401);
    const bad = await agent.post('/api/activity/track', { type: 'PAGE_TELEPORT' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('type');
  });

  it('accepts the unload beacon, which sends its CSRF token in the query string', async () => {
    const agent = await t.signedIn('agent');
    const token = await agent.csrf();
    const beacon = await agent.post(
      `/api/activity/track?csrf=${encodeURIComponent(token)}`,
      {
        type: 'PAGE_UNLOAD',
        page: '/',
        timeSpent: 12,
        timestamp: new Date().toISOString(),
      },
      { csrf: false },
    );
    expect(beacon.statusCode).toBe(204);
    const forged = await agent.post(
      '/api/activity/track?csrf=forged',
      { type: 'PAGE_UNLOAD' },
      { csrf: false },
    );
    expect(forged.statusCode).toBe(403);
  });

  it('sums visits and time per section and per person for administrators only', async () => {
    const admin = await t.signedIn('admin');
    const section = async (name: string) =>
      (await admin.get(`/api/activity/usage?from=${today()}&to=${today()}`))
        .json()
        .sections.find((s: { section: string }) => s.section === name) ?? { visits: 0, seconds: 0 };
    const before = { collections: await section('Collections'), dashboard: await section('Dashboard') };
    const collector = await t.signedIn('collector');
    const send = (event: object) => collector.post('/api/activity/track', event);
    await send({ type: 'PAGE_VISIT', page: '/collections' });
    await send({ type: 'PAGE_VISIT', page: '/collections/queue' });
    await send({ type: 'PAGE_EXIT', page: '/collections', timeSpent: 90 });
    await send({ type: 'HEARTBEAT', page: '/collections', timeSpent: 30 });
    await send({ type: 'PAGE_VISIT', page: '/' });
    await send({ type: 'PAGE_UNLOAD', page: '/', timeSpent: 15 });

    const manager = await t.signedIn('manager');
    expect((await manager.get(`/api/activity/usage?from=${today()}&to=${today()}`)).statusCode).toBe(403);
    const usage = (await admin.get(`/api/activity/usage?from=${today()}&to=${today()}`)).json();
    const collections = await section('Collections');
    const dashboard = await section('Dashboard');
    expect([
      collections.visits - before.collections.visits,
      collections.seconds - before.collections.seconds,
    ]).toEqual([2, 90]);
    expect([
      dashboard.visits - before.dashboard.visits,
      dashboard.seconds - before.dashboard.seconds,
    ]).toEqual([1, 15]);
    expect(usage.people.find((p: { userId: string }) => p.userId === collector.user.id)).toMatchObject({
      visits: 3,
      seconds: 105,
    });

    const reversed = await admin.get('/api/activity/usage?from=2026-12-31&to=2026-01-01');
    expect(reversed.statusCode).toBe(400);
    expect((await admin.get('/api/activity/usage?from=yesterday&to=today')).statusCode).toBe(400);
  });
});
