import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

describe.each(DATABASE_KINDS)('sign-in throttling on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('holds back unknown addresses after 5 failures on an account (30 s, doubling), never the owner at an address they signed in from', async () => {
    const viewer = await t.signedIn('viewer');
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await t
        .client()
        .post('/api/login', { email: viewer.user.email, password: `wrong ${attempt}` });
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const stranger = await t
      .client()
      .post('/api/login', { email: viewer.user.email, password: TEST_PASSWORD });
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json().message).toMatch(/Too many failed sign-in attempts/);
    expect(stranger.headers['retry-after']).toBe('30');
    // The admin sign-in shares the count.
    expect(
      (await t.client().post('/api/admin-login', { email: viewer.user.email, password: TEST_PASSWORD }))
        .statusCode,
    ).toBe(429);
    // The owner, from the address they signed in from before, is not locked out by strangers.
    expect(
      (await viewer.post('/api/login', { email: viewer.user.email, password: TEST_PASSWORD })).statusCode,
    ).toBe(200);
    // Once the delay has passed, a new address may try again; each further failure doubles it.
    for (let attempt = 6; attempt <= 7; attempt++) {
      t.clock.advance(61_000);
      expect(
        (await t.client().post('/api/login', { email: viewer.user.email, password: 'wrong' })).statusCode,
      ).toBe(401);
    }
  });

  it('tells the owner once when failures reach the throttle', async () => {
    const owner = await t.signedIn('agent');
    for (let attempt = 1; attempt <= 6; attempt++)
      await t.client().post('/api/login', { email: owner.user.email, password: `wrong ${attempt}` });
    const list = (await owner.get('/api/notifications')).json();
    const warnings = (list.items ?? list).filter(
      (n: { title: string }) => n.title === 'Failed sign-ins to your account',
    );
    expect(warnings).toHaveLength(1);
  });

  it('throttles current-password checks like sign-in: the sixth try within 15 minutes is 429', async () => {
    const user = await t.signedIn('agent');
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await user.post('/api/user/password', {
        currentPassword: `wrong ${attempt}`,
        newPassword: 'a fresh passphrase here',
      });
      expect(wrong.statusCode, `attempt ${attempt}`).toBe(400);
    }
    const blocked = await user.post('/api/user/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'a fresh passphrase here',
    });
    expect(blocked.statusCode).toBe(429);
  });

  it('refuses an address with 429 after 5 failures across different accounts', async () => {
    const attacker = t.client();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await attacker.post('/api/login', {
        email: `guess${attempt}@example.com`,
        password: 'wrong password',
      });
      expect(response.statusCode).toBe(401);
    }
    const viewer = await t.signedIn('viewer');
    const blocked = await attacker.post('/api/login', { email: viewer.user.email, password: TEST_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    // Another address is not affected.
    expect(
      (await t.client().post('/api/login', { email: viewer.user.email, password: TEST_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('counts only the last 15 minutes, and a success clears the account count', async () => {
    const viewer = await t.signedIn('viewer');
    for (let attempt = 1; attempt <= 4; attempt++) {
      await t.client().post('/api/login', { email: viewer.user.email, password: 'wrong password' });
    }
    expect(
      (await t.client().post('/api/login', { email: viewer.user.email, password: TEST_PASSWORD })).statusCode,
    ).toBe(200);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await t.client().post('/api/login', { email: viewer.user.email, password: 'wrong password' });
    }
    // 4 failures after the success: not yet throttled.
    expect(
      (await t.client().post('/api/login', { email: viewer.user.email, password: TEST_PASSWORD })).statusCode,
    ).toBe(200);
  });
});
