import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totp } from '../../src/server/modules/auth/totp';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

describe.each(DATABASE_KINDS)('profile on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('changes names at once, and the email only with the current password', async () => {
    const agent = await t.signedIn('agent');
    const renamed = await agent.patch('/api/user/profile', {
      firstName: 'Wanjiru',
      lastName: 'Mwangi',
      email: agent.user.email,
    });
    expect(renamed.json()).toMatchObject({ firstName: 'Wanjiru', lastName: 'Mwangi' });
    expect((await agent.get('/api/user')).json().firstName).toBe('Wanjiru');

    const noPassword = await agent.patch('/api/user/profile', {
      firstName: 'W',
      lastName: 'M',
      email: 'new.address@example.com',
    });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().errors[0].field).toBe('currentPassword');
    const wrong = await agent.patch('/api/user/profile', {
      firstName: 'W',
      lastName: 'M',
      email: 'new.address@example.com',
      currentPassword: 'not my password',
    });
    expect(wrong.json().message).toBe('Current password is incorrect');
    const moved = await agent.patch('/api/user/profile', {
      firstName: 'W',
      lastName: 'M',
      email: 'New.Address@example.com',
      currentPassword: TEST_PASSWORD,
    });
    expect(moved.json().email).toBe('new.address@example.com');
    const taken = await (await t.signedIn('viewer')).patch('/api/user/profile', {
      firstName: 'A',
      lastName: 'B',
      email: 'new.address@example.com',
      currentPassword: TEST_PASSWORD,
    });
    expect(taken.statusCode).toBe(409);
  });

  it('changes the password and ends the user’s other sessions, keeping this one', async () => {
    const agent = await t.signedIn('agent');
    const elsewhere = t.client();
    await elsewhere.post('/api/login', { email: agent.user.email, password: TEST_PASSWORD });
    expect((await agent.get('/api/user/sessions')).json()).toHaveLength(2);

    const same = await agent.post('/api/user/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: TEST_PASSWORD,
    });
    expect(same.statusCode).toBe(400);
    const changed = await agent.post('/api/user/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'a brand new passphrase',
    });
    expect(changed.statusCode).toBe(200);
    expect((await agent.get('/api/user')).statusCode).toBe(200);
    expect((await elsewhere.get('/api/user')).statusCode).toBe(401);
    expect(
      (await t.client().post('/api/login', { email: agent.user.email, password: 'a brand new passphrase' }))
        .statusCode,
    ).toBe(200);
  });

  it('lists sessions without exposing their tokens, and signs out the others', async () => {
    const agent = await t.signedIn('agent');
    const other = t.client();
    await other.post('/api/login', { email: agent.user.email, password: TEST_PASSWORD });
    const sessions = (await agent.get('/api/user/sessions')).json();
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(JSON.stringify(sessions)).not.toContain(agent.cookies.get('sid'));
    expect((await agent.post('/api/user/sessions/revoke-others')).json()).toEqual({ revoked: 1 });
    expect((await other.get('/api/user')).statusCode).toBe(401);
    expect((await agent.get('/api/user')).statusCode).toBe(200);
  });

  it('enrols two-factor with a code, then requires it at sign-in, and accepts each recovery code once', async () => {
    const manager = await t.signedIn('manager');
    expect((await manager.get('/api/user/two-factor')).json()).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    expect((await manager.post('/api/user/two-factor/enable', { code: '123456' })).statusCode).toBe(422);

    const setup = (await manager.post('/api/user/two-factor/setup')).json();
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\/.+\?secret=[A-Z2-7]+&issuer=/);
    const wrongCode = totp(setup.secret, new Date(t.clock.now().getTime() + 5 * 60_000));
    const wrong = await manager.post('/api/user/two-factor/enable', { code: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].field).toBe('code');

    const enabled = await manager.post('/api/user/two-factor/enable', {
      code: totp(setup.secret, t.clock.now()),
    });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await manager.get('/api/user/two-factor')).json()).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });

    const credentials = { email: manager.user.email, password: TEST_PASSWORD };
    expect((await t.client().post('/api/login', credentials)).json().code).toBe('TOTP_REQUIRED');
    t.clock.advance(30_000);
    expect(
      (await t.client().post('/api/login', { ...credentials, totp: totp(setup.secret, t.clock.now()) }))
        .statusCode,
    ).toBe(200);

    const recovery = recoveryCodes[0];
    expect(
      (await t.client().post('/api/login', { ...credentials, totp: recovery.toUpperCase() })).statusCode,
    ).toBe(200);
    expect((await t.client().post('/api/login', { ...credentials, totp: recovery })).statusCode).toBe(401);
    expect((await manager.get('/api/user/two-factor')).json().recoveryCodesLeft).toBe(9);

    const fresh = await manager.post('/api/user/two-factor/recovery-codes', {
      currentPassword: TEST_PASSWORD,
    });
    expect(fresh.json().recoveryCodes).toHaveLength(10);
    expect((await t.client().post('/api/login', { ...credentials, totp: recoveryCodes[1] })).statusCode).toBe(
      401,
    );

    expect(
      (await manager.post('/api/user/two-factor/disable', { currentPassword: 'wrong' })).statusCode,
    ).toBe(400);
    expect(
      (await manager.post('/api/user/two-factor/disable', { currentPassword: TEST_PASSWORD })).statusCode,
    ).toBe(200);
    expect((await t.client().post('/api/login', credentials)).statusCode).toBe(200);
  });
});
