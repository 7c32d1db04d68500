import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

const FIFTEEN_MINUTES = 15 * 60_000;

describe.each(DATABASE_KINDS)('sign-in throttling on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('refuses an account with 429 after 5 failures within 15 minutes, even with the right password, from any address', async () => {
    const viewer = await t.signedIn('viewer');
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await t
        .client()
        .post('/api/login', { email: viewer.user.email, password: `wrong ${attempt}` });
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const blocked = await t
      .client()
      .post('/api/login', { email: viewer.user.email, password: TEST_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed sign-in attempts/);
    expect(blocked.headers['retry-after']).toBe('900');
    // The admin sign-in shares the count.
    expect(
      (await t.client().post('/api/admin-login', { email: viewer.user.email, password: TEST_PASSWORD }))
        .statusCode,
    ).toBe(429);

    t.clock.advance(FIFTEEN_MINUTES + 1000);
    expect(
      (await t.client().post('/api/login', { email: viewer.user.email, password: TEST_PASSWORD })).statusCode,
    ).toBe(200);
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
