import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessions, users } from '../../src/db/schema';
import { totp } from '../../src/server/modules/auth/totp';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

const owner = {
  email: 'Owner@Example.com',
  password: 'a strong passphrase',
  firstName: 'Grace',
  lastName: 'Owino',
};

describe.each(DATABASE_KINDS)('auth on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  describe('registration', () => {
    it('makes the first user the owner, an admin, signed in at once', async () => {
      const client = t.client();
      const response = await client.post('/api/register', owner, { csrf: false });
      expect(response.statusCode).toBe(201);
      const user = response.json();
      expect(user).toMatchObject({
        email: 'owner@example.com',
        role: 'admin',
        isOwner: true,
        firstName: 'Grace',
      });
      expect(Object.keys(user).sort()).toEqual(['email', 'firstName', 'id', 'isOwner', 'lastName', 'role']);
      expect((await client.get('/api/user')).json()).toEqual(user);
    });

    it('refuses later registrations without an invite', async () => {
      const response = await t.client().post('/api/register', { ...owner, email: 'second@example.com' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'INVITE_REQUIRED' });
      expect(
        await t.app.ctx.db.select().from(users).where(eq(users.email, 'second@example.com')),
      ).toHaveLength(0);
    });

    it('registers with an invite, taking its role, and uses the invite once', async () => {
      const admin = await t.signedIn('admin');
      const invite = await admin.post('/api/invites', { role: 'collector' });
      expect(invite.statusCode).toBe(201);
      const { token, url } = invite.json();
      expect(url).toContain(`/register?invite=${token}`);

      const preview = await t.client().get(`/api/invites/lookup?token=${token}`);
      expect(preview.json()).toEqual({ email: null, role: 'collector' });

      const body = {
        email: 'collector.new@example.com',
        password: 'another passphrase',
        firstName: 'A',
        lastName: 'B',
        inviteToken: token,
      };
      const created = await t.client().post('/api/register', body);
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ role: 'collector', isOwner: false });

      const again = await t.client().post('/api/register', { ...body, email: 'other@example.com' });
      expect(again.statusCode).toBe(400);
      expect(again.json().errors).toEqual([
        { field: 'inviteToken', message: expect.stringContaining('invalid, used or expired') },
      ]);
    });

    it('holds an addressed invite to its email, and expires invites after 7 days', async () => {
      const admin = await t.signedIn('admin');
      const addressed = (
        await admin.post('/api/invites', { role: 'agent', email: 'named@example.com' })
      ).json();
      const wrong = await t.client().post('/api/register', {
        email: 'someone.else@example.com',
        password: 'another passphrase',
        firstName: 'A',
        lastName: 'B',
        inviteToken: addressed.token,
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errors[0]).toEqual({
        field: 'email',
        message: 'This invitation is for named@example.com',
      });

      const expiring = (await admin.post('/api/invites', { role: 'agent' })).json();
      t.clock.advance(7 * 24 * 3600_000 + 1000);
      const late = await t.client().post('/api/register', {
        email: 'late@example.com',
        password: 'another passphrase',
        firstName: 'A',
        lastName: 'B',
        inviteToken: expiring.token,
      });
      expect(late.statusCode).toBe(400);
      t.clock.advance(-(7 * 24 * 3600_000 + 1000));
    });

    it('refuses a duplicate email with 409, whatever its case', async () => {
      const admin = await t.signedIn('admin');
      const { token } = (await admin.post('/api/invites', { role: 'agent' })).json();
      const response = await t
        .client()
        .post('/api/register', { ...owner, email: 'OWNER@example.com', inviteToken: token });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe('An account with this email already exists');
    });

    it('gives a message per field for a bad registration', async () => {
      const response = await t
        .client()
        .post('/api/register', { email: 'not-an-email', password: 'short', firstName: '' });
      expect(response.statusCode).toBe(400);
      const fields = Object.fromEntries(
        response.json().errors.map((e: { field: string; message: string }) => [e.field, e.message]),
      );
      expect(fields).toMatchObject({
        email: 'Enter a valid email address',
        password: 'Password must be at least 10 characters',
        firstName: 'First name is required',
        lastName: 'Last name is required',
      });
    });

    it('refuses a common or guessable password, or one built on the name or e-mail, on registration and on change', async () => {
      const owner = await t.signedIn('admin');
      for (const password of ['aaaaaaaaaa', '1234567890', 'password12', 'Kamau Otieno 1990']) {
        const invite = (await owner.post('/api/invites', { role: 'agent' })).json();
        const response = await t.client().post('/api/register', {
          email: `weak${Math.random().toString(36).slice(2)}@example.com`,
          password,
          firstName: 'Kamau',
          lastName: 'Otieno',
          inviteToken: invite.token,
        });
        expect(response.statusCode, password).toBe(400);
        expect(response.json().errors[0].field, password).toBe('password');
      }
      const change = await owner.post('/api/user/password', {
        currentPassword: TEST_PASSWORD,
        newPassword: 'qwertyuiop123',
      });
      expect(change.statusCode).toBe(400);
      expect(change.json().errors[0].field).toBe('newPassword');
    });
  });

  describe('sign-in and sessions', () => {
    it('signs in with a cookie that is httpOnly and SameSite=Lax, and a new session id each time', async () => {
      const viewer = await t.signedIn('viewer');
      const firstToken = viewer.cookies.get('sid');
      const again = await viewer.post('/api/login', { email: viewer.user.email, password: TEST_PASSWORD });
      expect(again.statusCode).toBe(200);
      const cookie = String(again.headers['set-cookie'])
        .split(/,(?=\s*\w+=)/)
        .find((c) => c.trim().startsWith('sid='));
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i);
      expect(viewer.cookies.get('sid')).not.toBe(firstToken);
      // The old session was ended, not left alive beside the new one.
      const stale = t.client();
      stale.cookies.set('sid', firstToken ?? '');
      expect((await stale.get('/api/user')).statusCode).toBe(401);
      expect((await viewer.get('/api/user')).statusCode).toBe(200);
    });

    it('answers 401 with the exact message for a wrong password or unknown email', async () => {
      const viewer = await t.signedIn('viewer');
      for (const body of [
        { email: viewer.user.email, password: 'wrong password' },
        { email: 'nobody@example.com', password: 'wrong password' },
      ]) {
        const response = await t.client().post('/api/login', body);
        expect(response.statusCode).toBe(401);
        expect(response.json().message).toBe('Invalid email or password');
      }
    });

    it('accepts the email in any case and with surrounding spaces', async () => {
      const viewer = await t.signedIn('viewer');
      const response = await t
        .client()
        .post('/api/login', { email: `  ${viewer.user.email.toUpperCase()} `, password: TEST_PASSWORD });
      expect(response.statusCode).toBe(200);
    });

    it('ends the session at logout, and logout works without a session too', async () => {
      const viewer = await t.signedIn('viewer');
      const token = viewer.cookies.get('sid') ?? '';
      const out = await viewer.post('/api/logout');
      expect(out.statusCode).toBe(200);
      expect(viewer.cookies.has('sid')).toBe(false);
      const replay = t.client();
      replay.cookies.set('sid', token);
      expect((await replay.get('/api/user')).statusCode).toBe(401);
      expect((await t.client().post('/api/logout')).statusCode).toBe(200);
    });

    it('answers 401 to /api/user without a session or with a forged cookie', async () => {
      expect((await t.client().get('/api/user')).statusCode).toBe(401);
      const forged = t.client();
      forged.cookies.set('sid', 'x'.repeat(43));
      const response = await forged.get('/api/user');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
    });

    it('marks the cookie Secure when served over HTTPS behind a trusted proxy', async () => {
      const proxied = await startTestApp(kind, { env: { TRUST_PROXY: 'true' } });
      try {
        await proxied.client().post('/api/register', owner);
        const response = await proxied.client().post(
          '/api/login',
          { email: owner.email, password: owner.password },
          {
            headers: { 'x-forwarded-proto': 'https' },
          },
        );
        expect(response.statusCode).toBe(200);
        expect(String(response.headers['set-cookie'])).toMatch(/sid=[^;]+;.*Secure/i);
      } finally {
        await proxied.close();
      }
    });

    it('refuses a deactivated account and ends its sessions', async () => {
      const admin = await t.signedIn('admin');
      const agent = await t.signedIn('agent');
      const change = await admin.patch(`/api/users/${agent.user.id}`, { active: false });
      expect(change.statusCode).toBe(200);
      expect((await agent.get('/api/user')).statusCode).toBe(401);
      const login = await t.client().post('/api/login', { email: agent.user.email, password: TEST_PASSWORD });
      expect(login.statusCode).toBe(403);
      expect(login.json().code).toBe('ACCOUNT_DISABLED');
    });

    it('writes sign-ins, failures and sign-outs to the audit log', async () => {
      const viewer = await t.signedIn('viewer');
      await t.client().post('/api/login', { email: viewer.user.email, password: 'wrong password' });
      await viewer.post('/api/logout');
      const rows = await t.app.ctx.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.actorLabel, viewer.user.email))
        .orderBy(asc(auditLog.id));
      expect(rows.map((row) => row.action)).toEqual(['auth.login', 'auth.login_failed', 'auth.logout']);
    });
  });

  describe('admin sign-in', () => {
    it('admits admins and the owner, refuses other roles with 403', async () => {
      for (const role of ['viewer', 'agent', 'collector', 'finance', 'manager'] as const) {
        const member = await t.signedIn(role);
        const response = await t
          .client()
          .post('/api/admin-login', { email: member.user.email, password: TEST_PASSWORD });
        expect(response.statusCode, role).toBe(403);
        expect(response.json().code).toBe('ADMIN_ONLY');
      }
      const admin = await t.signedIn('admin');
      expect(
        (await t.client().post('/api/admin-login', { email: admin.user.email, password: TEST_PASSWORD }))
          .statusCode,
      ).toBe(200);
      const ownerLogin = await t
        .client()
        .post('/api/admin-login', { email: owner.email, password: owner.password });
      expect(ownerLogin.statusCode).toBe(200);
    });

    it('checks the password before the role, so roles are not revealed', async () => {
      const agent = await t.signedIn('agent');
      const response = await t
        .client()
        .post('/api/admin-login', { email: agent.user.email, password: 'wrong password' });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('two-factor', () => {
    it('requires a valid TOTP code when enrolled, and accepts each code once', async () => {
      const admin = await t.signedIn('admin');
      const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      await t.app.ctx.db
        .update(users)
        .set({ totpSecret: t.app.ctx.keyring.encrypt('totp', secret), totpEnabledAt: t.clock.now() })
        .where(eq(users.id, admin.user.id));
      const credentials = { email: admin.user.email, password: TEST_PASSWORD };

      const missing = await t.client().post('/api/admin-login', credentials);
      expect(missing.statusCode).toBe(401);
      expect(missing.json()).toMatchObject({ code: 'TOTP_REQUIRED', errors: [{ field: 'totp' }] });

      const wrongCode = totp(secret, new Date(t.clock.now().getTime() + 10 * 60_000));
      const wrong = await t.client().post('/api/admin-login', { ...credentials, totp: wrongCode });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().code).toBe('INVALID_TOTP');

      const code = totp(secret, t.clock.now());
      expect((await t.client().post('/api/login', { ...credentials, totp: code })).statusCode).toBe(200);
      const replay = await t.client().post('/api/login', { ...credentials, totp: code });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().code).toBe('INVALID_TOTP');
    });
  });

  it('keeps no session rows for a failed sign-in', async () => {
    const before = (await t.app.ctx.db.select().from(sessions)).length;
    await t.client().post('/api/login', { email: owner.email, password: 'not the password' });
    expect((await t.app.ctx.db.select().from(sessions)).length).toBe(before);
  });
});
