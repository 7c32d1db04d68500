import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

const MINUTE = 60_000;

describe.each(DATABASE_KINDS)('session expiry on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { SESSION_IDLE_MINUTES: '30', SESSION_ABSOLUTE_HOURS: '2' } });
  });
  afterAll(() => t.close());

  it('ends a session left idle longer than the idle limit', async () => {
    const viewer = await t.signedIn('viewer');
    t.clock.advance(29 * MINUTE);
    expect((await viewer.get('/api/user')).statusCode).toBe(200);
    t.clock.advance(30 * MINUTE + 1000);
    expect((await viewer.get('/api/user')).statusCode).toBe(401);
    // And it stays ended.
    t.clock.advance(-50 * MINUTE);
    expect((await viewer.get('/api/user')).statusCode).toBe(401);
    t.clock.advance(50 * MINUTE);
  });

  it('keeps an active session alive, but never past the absolute limit', async () => {
    const viewer = await t.signedIn('viewer');
    for (let elapsed = 20; elapsed <= 100; elapsed += 20) {
      t.clock.advance(20 * MINUTE);
      expect((await viewer.get('/api/user')).statusCode, `after ${elapsed} minutes`).toBe(200);
    }
    t.clock.advance(19 * MINUTE);
    expect((await viewer.get('/api/user')).statusCode, 'after 119 minutes').toBe(200);
    t.clock.advance(2 * MINUTE);
    expect((await viewer.get('/api/user')).statusCode).toBe(401);
  });

  it('purges expired sessions from the database', async () => {
    await t.signedIn('viewer');
    t.clock.advance(3 * 60 * MINUTE);
    expect(await t.app.ctx.sessions.purgeExpired()).toBeGreaterThan(0);
  });
});
