import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/db/schema';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

describe.each(DATABASE_KINDS)('user administration on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('lists staff with their status, owner first, without secrets', async () => {
    const owner = await t.signedIn('admin', { isOwner: true });
    await t.signedIn('agent');
    const list = (await owner.get('/api/users')).json();
    expect(list[0]).toMatchObject({ isOwner: true, active: true, twoFactorEnabled: false });
    expect(JSON.stringify(list)).not.toMatch(/password|totpSecret|scrypt/);
  });

  it('changes a role, which takes effect on the next request of that user', async () => {
    const admin = await t.signedIn('admin');
    const agent = await t.signedIn('agent');
    expect((await agent.get('/api/users')).statusCode).toBe(403);
    const change = await admin.patch(`/api/users/${agent.user.id}`, { role: 'admin' });
    expect(change.statusCode).toBe(200);
    expect(change.json()).toMatchObject({ role: 'admin' });
    expect((await agent.get('/api/user')).json().role).toBe('admin');
    expect((await agent.get('/api/users')).statusCode).toBe(200);
    const audit = await t.app.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, agent.user.id));
    expect(audit.find((row) => row.action === 'user.update')).toMatchObject({
      before: { role: 'agent', active: true },
      after: { role: 'admin', active: true },
      actorId: admin.user.id,
    });
  });

  it('never demotes or deactivates the owner, and nobody changes themselves', async () => {
    const admin = await t.signedIn('admin');
    const list = (await admin.get('/api/users')).json();
    const owner = list.find((user: { isOwner: boolean }) => user.isOwner);
    const demote = await admin.patch(`/api/users/${owner.id}`, { role: 'viewer' });
    expect(demote.statusCode).toBe(422);
    expect(demote.json().message).toBe('The owner cannot be demoted or deactivated');
    const self = await admin.patch(`/api/users/${admin.user.id}`, { active: false });
    expect(self.statusCode).toBe(403);
  });

  it('answers 404 for an unknown user and 400 for an empty change', async () => {
    const admin = await t.signedIn('admin');
    expect(
      (await admin.patch('/api/users/00000000-0000-4000-8000-000000000000', { role: 'viewer' })).statusCode,
    ).toBe(404);
    const empty = await admin.patch(`/api/users/${admin.user.id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Nothing to change');
  });

  it('revokes an open invite once, lists statuses, and the revoked link no longer works', async () => {
    const admin = await t.signedIn('admin');
    const invite = (
      await admin.post('/api/invites', { role: 'finance', email: 'new.finance@example.com' })
    ).json();
    expect(invite.status).toBe('open');
    const revoked = await admin.post(`/api/invites/${invite.id}/revoke`);
    expect(revoked.json().status).toBe('revoked');
    expect((await admin.post(`/api/invites/${invite.id}/revoke`)).statusCode).toBe(409);
    expect((await t.client().get(`/api/invites/lookup?token=${invite.token}`)).statusCode).toBe(400);
    const listed = (await admin.get('/api/invites')).json();
    expect(listed.find((row: { id: string }) => row.id === invite.id)).toMatchObject({ status: 'revoked' });
    expect(JSON.stringify(listed)).not.toContain(invite.token);
  });

  it('refuses an invite for an email that already has an account', async () => {
    const admin = await t.signedIn('admin');
    const response = await admin.post('/api/invites', { role: 'agent', email: admin.user.email });
    expect(response.statusCode).toBe(409);
  });
  it('tells a user when an administrator changes their role, deactivates or reactivates them', async () => {
    const admin = await t.signedIn('admin');
    const agent = await t.signedIn('agent');
    expect((await admin.patch(`/api/users/${agent.user.id}`, { role: 'collector' })).statusCode).toBe(200);
    const [roleNotice] = (await agent.get('/api/notifications')).json();
    expect(roleNotice).toMatchObject({
      title: 'Your role was changed to Collector',
      type: 'warning',
      read: false,
    });
    expect(roleNotice.message).toContain('from Agent to Collector');
    expect((await agent.get('/api/notifications/unread-count')).json()).toEqual({ count: 1 });

    // Deactivated accounts get nothing from notify(): the notice is written before the change.
    expect((await admin.patch(`/api/users/${agent.user.id}`, { active: false })).statusCode).toBe(200);
    expect((await admin.patch(`/api/users/${agent.user.id}`, { active: true })).statusCode).toBe(200);
    const again = t.client();
    expect(
      (await again.post('/api/login', { email: agent.user.email, password: TEST_PASSWORD })).statusCode,
    ).toBe(200);
    const titles = (await again.get('/api/notifications')).json().map((n: { title: string }) => n.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Your role was changed to Collector',
        'Your account was deactivated',
        'Your account was reactivated',
      ]),
    );
    // The administrator who made the changes is not notified of them.
    expect((await admin.get('/api/notifications/unread-count')).json()).toEqual({ count: 0 });
  });

  it('tells the administrator who created an invite when it is used', async () => {
    const admin = await t.signedIn('admin');
    const other = await t.signedIn('admin');
    const invite = (
      await admin.post('/api/invites', { role: 'finance', email: 'nia.otieno@example.com' })
    ).json();
    const registered = await t.client().post('/api/register', {
      email: 'nia.otieno@example.com',
      password: 'a long enough password',
      firstName: 'Nia',
      lastName: 'Otieno',
      inviteToken: invite.token,
    });
    expect(registered.statusCode).toBe(201);
    const list = (await admin.get('/api/notifications')).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      title: 'Nia Otieno joined as Finance',
      message: 'nia.otieno@example.com accepted your invite and can sign in now.',
      type: 'success',
      link: '/admin/users',
      read: false,
    });
    // Only the inviter: other administrators are not told.
    expect((await other.get('/api/notifications')).json()).toEqual([]);
  });
});
