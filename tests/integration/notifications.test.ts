import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { notify } from '../../src/server/modules/notifications/service';
import { withTransaction } from '../../src/server/transaction';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { draftContract } from '../support/origination';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(DATABASE_KINDS)('notifications on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());
  /** notify() as an event's transaction calls it. */
  const send = (...args: Parameters<typeof notify> extends [unknown, ...infer Rest] ? Rest : never) =>
    withTransaction(t.app.ctx, (tx) => notify(tx, ...args));

  it('lists a user’s own notifications, newest first, in the seed’s shape', async () => {
    const agent = await t.signedIn('agent');
    await send({ userId: agent.user.id }, { title: 'Older', message: 'First', type: 'info' });
    t.clock.advance(1000);
    await send(
      { userId: agent.user.id },
      { title: 'Newer', message: 'Second', type: 'success', link: '/contracts' },
    );
    const list = (await agent.get('/api/notifications')).json();
    expect(list.map((n: { title: string }) => n.title)).toEqual(['Newer', 'Older']);
    expect(list[0]).toEqual({
      id: expect.any(String),
      title: 'Newer',
      message: 'Second',
      type: 'success',
      read: false,
      link: '/contracts',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(list[1]).not.toHaveProperty('link');
    expect((await agent.get('/api/notifications/unread-count')).json()).toEqual({ count: 2 });
  });

  it('marks read, deletes and clears only the caller’s own; another user’s id is a 404', async () => {
    const alice = await t.signedIn('agent');
    const bob = await t.signedIn('agent');
    await send({ userId: alice.user.id }, { title: 'For Alice', message: 'x', type: 'warning' });
    await send({ userId: alice.user.id }, { title: 'Also Alice', message: 'y', type: 'error' });
    await send({ userId: bob.user.id }, { title: 'For Bob', message: 'z', type: 'info' });
    const [first, second] = (await alice.get('/api/notifications')).json();

    for (const attempt of [
      bob.patch(`/api/notifications/${first.id}/read`),
      bob.delete(`/api/notifications/${first.id}`),
    ]) {
      const response = await attempt;
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Notification not found');
    }
    expect((await bob.get('/api/notifications')).json().map((n: { title: string }) => n.title)).toEqual([
      'For Bob',
    ]);

    const marked = await alice.patch(`/api/notifications/${first.id}/read`);
    expect(marked.json()).toMatchObject({ id: first.id, read: true });
    expect((await alice.get('/api/notifications/unread-count')).json()).toEqual({ count: 1 });
    // Marking again keeps it read (idempotent).
    expect((await alice.patch(`/api/notifications/${first.id}/read`)).json().read).toBe(true);

    expect((await alice.delete(`/api/notifications/${second.id}`)).statusCode).toBe(200);
    expect((await alice.delete(`/api/notifications/${second.id}`)).statusCode).toBe(404);

    await send({ userId: alice.user.id }, { title: 'Third', message: 'z', type: 'info' });
    const cleared = await alice.delete('/api/notifications/clear-all');
    expect(cleared.json()).toEqual({ deleted: 2 });
    expect((await alice.get('/api/notifications')).json()).toEqual([]);
    expect((await alice.get('/api/notifications/unread-count')).json()).toEqual({ count: 0 });
    // Bob's are untouched.
    expect((await bob.get('/api/notifications/unread-count')).json()).toEqual({ count: 1 });
  });

  it('answers 401 when signed out and 400 for a malformed id', async () => {
    const anonymous = t.client();
    for (const response of [
      await anonymous.get('/api/notifications'),
      await anonymous.get('/api/notifications/unread-count'),
      await anonymous.patch(`/api/notifications/${UNKNOWN_ID}/read`),
      await anonymous.delete(`/api/notifications/${UNKNOWN_ID}`),
      await anonymous.delete('/api/notifications/clear-all'),
    ]) {
      expect(response.statusCode).toBe(401);
    }
    const agent = await t.signedIn('agent');
    expect((await agent.patch('/api/notifications/not-a-uuid/read')).statusCode).toBe(400);
    expect((await agent.patch(`/api/notifications/${UNKNOWN_ID}/read`)).statusCode).toBe(404);
  });

  it('notifies everyone holding a permission, the owner included, skipping the deactivated and those who opted out', async () => {
    const manager = await t.signedIn('manager');
    const admin = await t.signedIn('admin');
    const agent = await t.signedIn('agent');
    const owner = await t.signedIn('viewer', { isOwner: true });
    const optedOut = await t.signedIn('manager');
    await optedOut.put('/api/user/preferences', {
      theme: 'system',
      landingPage: '/',
      notificationSettings: { approvals: false },
    });
    const inactive = await t.signedIn('manager');
    await admin.patch(`/api/users/${inactive.user.id}`, { active: false });

    await send(
      { permission: 'contracts.approve' },
      {
        title: 'Contract waiting for approval',
        message: 'C-000001 needs a second pair of eyes',
        type: 'warning',
        link: '/contracts',
        category: 'approvals',
      },
    );
    const count = async (client: typeof agent) =>
      (await client.get('/api/notifications/unread-count')).json().count;
    expect(await count(manager)).toBe(1);
    expect(await count(admin)).toBe(1);
    expect(await count(owner)).toBe(1);
    expect(await count(agent)).toBe(0);
    expect(await count(optedOut)).toBe(0);
  });

  it('refreshes the cached unread count as soon as a notification arrives', async () => {
    const agent = await t.signedIn('agent');
    expect((await agent.get('/api/notifications/unread-count')).json()).toEqual({ count: 0 });
    await send({ userId: agent.user.id }, { title: 'New', message: 'x', type: 'info' });
    expect((await agent.get('/api/notifications/unread-count')).json()).toEqual({ count: 1 });
  });

  it('marks every unread notification read on the server with read-all, not only the newest 100 listed', async () => {
    const alice = await t.signedIn('agent');
    const bob = await t.signedIn('agent');
    for (let i = 0; i < 120; i += 1) {
      await send({ userId: alice.user.id }, { title: `Notice ${i}`, message: 'x', type: 'info' });
    }
    await send({ userId: bob.user.id }, { title: 'For Bob', message: 'y', type: 'info' });
    expect((await alice.get('/api/notifications')).json()).toHaveLength(100);
    const response = await alice.post('/api/notifications/read-all');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ updated: 120 });
    expect((await alice.get('/api/notifications/unread-count')).json()).toEqual({ count: 0 });
    const left = await queryRows(
      t.app.ctx.db,
      sql`SELECT 1 FROM notifications WHERE user_id = ${alice.user.id} AND read_at IS NULL`,
    );
    expect(left).toEqual([]);
    // Another user's are untouched; a second call has nothing left to mark.
    expect((await bob.get('/api/notifications/unread-count')).json()).toEqual({ count: 1 });
    expect((await alice.post('/api/notifications/read-all')).json()).toEqual({ updated: 0 });
    expect((await t.client().post('/api/notifications/read-all')).statusCode).toBe(401);
  });

  describe('a notification asking for work is resolved for everyone when the work is done', () => {
    let agent: TestClient;
    let manager: TestClient;
    let checker: TestClient;
    let reviewer: TestClient;
    beforeAll(async () => {
      agent = await t.signedIn('agent');
      manager = await t.signedIn('manager');
      checker = await t.signedIn('manager');
      reviewer = await t.signedIn('manager');
    });
    const staff = () => ({ agent, manager, reviewer });
    const about = async (client: TestClient, contractId: string) =>
      (await client.get('/api/notifications'))
        .json<Array<{ title: string; read: boolean; link?: string }>>()
        .filter((n) => n.link === `/contracts/${contractId}`)
        .map((n) => `${n.title}: ${n.read ? 'read' : 'unread'}`);

    it('approval: the approvers’ “waiting for approval” is read for all once one approves', async () => {
      const { contract } = await draftContract(t, staff());
      await agent.post(`/api/contracts/${contract.id}/submit`);
      for (const approver of [manager, checker]) {
        expect(await about(approver, contract.id)).toEqual(['Contract waiting for approval: unread']);
      }
      expect((await checker.post(`/api/contracts/${contract.id}/approve`)).statusCode).toBe(200);
      for (const approver of [manager, checker]) {
        expect(await about(approver, contract.id)).toEqual(['Contract waiting for approval: read']);
      }
      // The maker is told it can be activated, until it is.
      expect(await about(agent, contract.id)).toEqual(['Contract approved: unread']);
      // Newest first: a later notice must not share the approval's instant (ties have no order).
      t.clock.advance(1000);
      await agent.post(`/api/contracts/${contract.id}/deposit`, { amount: 25_000, channel: 'cash' });
      expect((await manager.post(`/api/contracts/${contract.id}/activate`)).statusCode).toBe(200);
      expect(await about(agent, contract.id)).toEqual([
        'Contract activated: unread',
        'Contract approved: read',
      ]);
    });

    it('return and cancel resolve it too; a resubmission asks again', async () => {
      const { contract } = await draftContract(t, staff());
      await agent.post(`/api/contracts/${contract.id}/submit`);
      await checker.post(`/api/contracts/${contract.id}/return`, { reason: 'Check the deposit' });
      expect(await about(checker, contract.id)).toEqual(['Contract waiting for approval: read']);
      expect(await about(agent, contract.id)).toEqual(['Contract sent back: unread']);
      t.clock.advance(1000);
      await agent.post(`/api/contracts/${contract.id}/submit`);
      expect(await about(agent, contract.id)).toEqual(['Contract sent back: read']);
      expect(await about(checker, contract.id)).toEqual([
        'Contract waiting for approval: unread',
        'Contract waiting for approval: read',
      ]);
      await agent.post(`/api/contracts/${contract.id}/cancel`, { reason: 'Customer withdrew' });
      expect(await about(checker, contract.id)).toEqual([
        'Contract waiting for approval: read',
        'Contract waiting for approval: read',
      ]);
      const listed = (await checker.get('/api/notifications')).json<Array<{ read: boolean }>>();
      expect((await checker.get('/api/notifications/unread-count')).json().count).toBe(
        listed.filter((n) => !n.read).length,
      );
    });
  });
});
