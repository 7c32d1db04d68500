import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../src/contracts/contracts';
import { portalEndpoints } from '../../src/contracts/portal';
import { queryRows } from '../../src/db/client';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { FakeDaraja } from '../support/fake-daraja';
import { activeContract, setOrganisation } from '../support/origination';
import { otpFromOutbox, portalSignIn } from '../support/portal';

const TOKEN = 'callback-token-for-the-portal-tests-0123456789';
const QUARTER_HOUR = 15 * 60_000;

/**
 * Issue 16 §1: the customer portal. Pay now runs end to end through a fake Daraja (the app
 * listens, the fake calls its STK callback when the test says), so nothing waits on a timer.
 */
describe.each(DATABASE_KINDS)('customer portal on %s', (kind) => {
  let t: TestApp;
  let fake: FakeDaraja;
  let agent: TestClient;
  let manager: TestClient;
  let checker: TestClient;
  let mine: Contract;
  let theirs: Contract;
  let me: TestClient;
  let them: TestClient;

  beforeAll(async () => {
    fake = new FakeDaraja({
      consumerKey: 'key-portal',
      consumerSecret: 'secret-portal',
      shortCode: '174379',
      passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
    });
    const base = await fake.start();
    t = await startTestApp(kind, {
      env: {
        MPESA_PROVIDER: 'daraja',
        MPESA_BASE_URL: base,
        MPESA_CONSUMER_KEY: 'key-portal',
        MPESA_CONSUMER_SECRET: 'secret-portal',
        MPESA_SHORTCODE: '174379',
        MPESA_PASSKEY: fake.options.passkey,
        MPESA_CALLBACK_TOKEN: TOKEN,
        MPESA_CALLBACK_BASE_URL: 'https://lender.example.com',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    fake.callbackOrigin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    checker = await t.signedIn('manager');
    const admin = await t.signedIn('admin');
    await setOrganisation(admin, { country: 'KE', currency: 'KES', timeZone: 'Africa/Nairobi' });
    // OpenPAYGO units: activation and every payment issue a token the portal shows.
    mine = await activeContract(t, { agent, manager, reviewer: checker }, 'openpaygo');
    theirs = await activeContract(t, { agent, manager, reviewer: checker }, 'openpaygo');
    t.clock.advance(2_000); // money comes after activation
    me = await portalSignIn(t, manager, mine.customer.phone);
    them = await portalSignIn(t, manager, theirs.customer.phone);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(t.app.ctx.db, query);
  /** A fresh rate-limit window (the limits count the last 15 minutes). */
  const nextWindow = () => t.clock.advance(QUARTER_HOUR + 1_000);

  /** Asks the customer's phone through the fake Daraja and answers it as the customer would. */
  async function payNow(client: TestClient, contract: Contract, amount: number) {
    const started = await client.post(`/api/portal/contracts/${contract.id}/pay`, { amount });
    expect(started.statusCode, started.body).toBe(201);
    const push = started.json();
    expect(push).toMatchObject({ contractId: contract.id, amount, status: 'pending', currency: 'KES' });
    const sent = fake.pushes.at(-1);
    if (!sent) throw new Error('no push reached the fake Daraja');
    expect(sent).toMatchObject({
      PhoneNumber: contract.customer.phone.slice(1),
      AccountReference: contract.number,
    });
    const answered = await fake.complete(sent, { success: true });
    expect(answered.status).toBe(200);
    const done = (await client.get(`/api/portal/pushes/${push.id}`)).json();
    expect(done).toMatchObject({ status: 'succeeded' });
    return { push: done, sent, receipt: answered.receipt };
  }

  it('signs in with the code from the outbox; an unknown phone gets the same 202 and no message', async () => {
    const profile = await me.get('/api/portal/me');
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json()).toMatchObject({
      id: mine.customer.id,
      phone: mine.customer.phone,
      consents: { sms: expect.any(Boolean) },
    });
    const stranger = '+254799000111';
    const asked = await t.client().post('/api/portal/otp', { phone: '0799 000 111' }, { csrf: false });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ ok: true });
    const outbox = (await manager.get(`/api/outbox?recipient=${encodeURIComponent(stranger)}`)).json();
    expect(outbox.items).toEqual([]);
    const [stored] = await rows<{ code_hash: string; customer_id: string | null }>(
      sql`SELECT code_hash, customer_id FROM portal_otps WHERE phone = ${stranger}`,
    );
    expect(stored?.customer_id).toBeNull();
    expect(stored?.code_hash).not.toMatch(/^\d{6}$/);
  });

  it('lists only the customer’s own contracts, with schedule, balance, next due, paid-through and token', async () => {
    const list = await me.get('/api/portal/contracts');
    expect(list.statusCode, list.body).toBe(200);
    const items = list.json().items;
    expect(items.map((c: { id: string }) => c.id)).toEqual([mine.id]);
    const [contract] = items;
    expect(contract).toMatchObject({
      number: mine.number,
      status: 'active',
      currency: 'KES',
      outstanding: { total: mine.outstanding.total },
      paidThroughDate: expect.any(String),
      nextDue: { dueDate: expect.any(String) },
      token: { token: expect.stringMatching(/^\d+$/) },
    });
    expect(contract.schedule.length).toBe(mine.schedule.length);
    expect(JSON.stringify(list.json())).not.toContain(theirs.id);
    expect((await me.get(`/api/portal/contracts/${mine.id}`)).json()).toMatchObject({ id: mine.id });
  });

  it('pay now through the fake Daraja: posted once, receipt and statement, a new token shown at once', async () => {
    const before = (await me.get(`/api/portal/contracts/${mine.id}`)).json();
    const { push, sent, receipt } = await payNow(me, mine, 10_000);
    const after = (await me.get(`/api/portal/contracts/${mine.id}`)).json();
    expect(after.payments.map((p: { id: string }) => p.id)).toContain(push.paymentId);
    expect(after.payments.find((p: { id: string }) => p.id === push.paymentId)).toMatchObject({
      amount: 10_000,
      reference: receipt,
      status: 'posted',
    });
    expect(after.outstanding.total).toBeLessThan(before.outstanding.total);
    expect(after.token.token).not.toBe(before.token.token);
    expect(after.token.days).toBeGreaterThan(0);

    // Daraja repeats its result: nothing more is posted.
    const count = async () =>
      (
        await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM payments WHERE contract_id = ${mine.id}`)
      )[0]?.n;
    const posted = await count();
    await fake.complete(sent, { success: true, receipt: receipt ?? '' });
    expect(await count()).toBe(posted);

    const pdf = await me.get(`/api/portal/payments/${push.paymentId}/receipt.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toMatch(/application\/pdf/);
    const statement = await me.get(`/api/portal/contracts/${mine.id}/statement.pdf`);
    expect(statement.statusCode).toBe(200);
    expect(statement.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('isolation: every portal endpoint with another customer’s ids answers 404 and none of their data', async () => {
    const { push } = await payNow(them, theirs, 5_000);
    const idFor: Record<string, string> = {
      contracts: theirs.id,
      payments: push.paymentId,
      pushes: push.id,
    };
    const bodies: Record<string, unknown> = { pay: { amount: 1_000 } };
    const pushesBefore = fake.pushes.length;
    for (const [name, endpoint] of Object.entries(portalEndpoints)) {
      if (!endpoint.path.includes(':id')) continue;
      const collection = /\/api\/portal\/([a-z]+)\/:id/.exec(endpoint.path)?.[1] ?? '';
      const id = idFor[collection];
      if (!id) throw new Error(`${name}: add the other customer's id for /${collection}/:id to this test`);
      const url = endpoint.path.replace(':id', id);
      const response = await me.request(endpoint.method, url, bodies[name]);
      expect([403, 404], `${endpoint.method} ${url}: ${response.body}`).toContain(response.statusCode);
      for (const secret of [theirs.number, theirs.customer.name, theirs.customer.phone])
        expect(response.body).not.toContain(secret);
    }
    expect(fake.pushes.length).toBe(pushesBefore);
    // The endpoints without ids answer with the session's own customer only.
    for (const url of ['/api/portal/me', '/api/portal/contracts'])
      expect((await me.get(url)).body).not.toContain(theirs.id);
    // A customer session opens no staff route; a staff session opens no portal route.
    expect((await me.get('/api/contracts')).statusCode).toBe(401);
    expect((await me.get(`/api/contracts/${mine.id}`)).statusCode).toBe(401);
    expect((await manager.get('/api/portal/contracts')).statusCode).toBe(401);
  });

  it('OTP: 5 wrong codes void the code (429), even parallel guesses, and then the right one fails too', async () => {
    nextWindow();
    const phone = mine.customer.phone;
    const client = t.client();
    expect((await client.post('/api/portal/otp', { phone }, { csrf: false })).statusCode).toBe(202);
    const code = await otpFromOutbox(manager, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.post('/api/portal/login', { phone, code: wrong }, { csrf: false }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    const [row] = await rows<{ attempts: number }>(
      sql`SELECT attempts FROM portal_otps WHERE phone = ${phone} ORDER BY created_at DESC LIMIT 1`,
    );
    expect(row?.attempts).toBe(5);
    const right = await client.post('/api/portal/login', { phone, code }, { csrf: false });
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/new code/);
  });

  it('OTP: rate limited per phone and per address; a new window lets it through again', async () => {
    nextWindow();
    const phone = theirs.customer.phone;
    for (let i = 0; i < 3; i++)
      expect((await t.client().post('/api/portal/otp', { phone }, { csrf: false })).statusCode).toBe(202);
    const limited = await t.client().post('/api/portal/otp', { phone }, { csrf: false });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/this number/);

    const one = t.client();
    for (let i = 0; i < 10; i++)
      expect(
        (await one.post('/api/portal/otp', { phone: `+25479900${String(2000 + i)}` }, { csrf: false }))
          .statusCode,
      ).toBe(202);
    const fromAddress = await one.post('/api/portal/otp', { phone: '+254799003000' }, { csrf: false });
    expect(fromAddress.statusCode).toBe(429);
    expect(fromAddress.json().message).toMatch(/network/);

    nextWindow();
    expect((await one.post('/api/portal/otp', { phone }, { csrf: false })).statusCode).toBe(202);
  });

  it('OTP: a code is refused once its 5 minutes are over', async () => {
    nextWindow();
    const phone = mine.customer.phone;
    const client = t.client();
    await client.post('/api/portal/otp', { phone }, { csrf: false });
    const code = await otpFromOutbox(manager, phone);
    t.clock.advance(5 * 60_000 + 1_000);
    const late = await client.post('/api/portal/login', { phone, code }, { csrf: false });
    expect(late.statusCode).toBe(401);
    expect(client.cookies.has('psid')).toBe(false);
  });

  it('resends the latest unlock code by SMS, at most once every 2 minutes', async () => {
    // The clock moved past the session's 30 idle minutes: sign in again.
    nextWindow();
    me = await portalSignIn(t, manager, mine.customer.phone);
    const contract = (await me.get(`/api/portal/contracts/${mine.id}`)).json();
    const tokenMessages = async () =>
      (await manager.get(`/api/outbox?recipient=${encodeURIComponent(mine.customer.phone)}&pageSize=100`))
        .json()
        .items.filter((item: { template: string }) => item.template === 'token');
    const before = await tokenMessages();
    const sent = await me.post(`/api/portal/contracts/${mine.id}/token/resend`);
    expect(sent.statusCode, sent.body).toBe(202);
    const after = await tokenMessages();
    expect(after.length).toBe(before.length + 1);
    const resent = after.find(
      (item: { id: string }) => !before.some((old: { id: string }) => old.id === item.id),
    );
    expect(resent).toMatchObject({ contractId: mine.id });
    expect(resent.body).toContain(contract.token.token);
    const again = await me.post(`/api/portal/contracts/${mine.id}/token/resend`);
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/2 minutes/);
    expect((await tokenMessages()).length).toBe(after.length);
  });

  it('chat: the assistant answers from the customer’s own data; asking for a person creates a task', async () => {
    const answer = await me.post('/api/portal/chat', { text: 'What is my balance?' });
    expect(answer.statusCode, answer.body).toBe(200);
    const lines = answer.json().lines;
    expect(lines.at(-2)).toMatchObject({ from: 'you', body: 'What is my balance?' });
    expect(lines.at(-1)).toMatchObject({ from: 'assistant' });
    expect(lines.at(-1).body).toContain(mine.number);
    expect(answer.body).not.toContain(theirs.number);

    const person = await me.post('/api/portal/chat', { text: 'agent' });
    expect(person.statusCode).toBe(200);
    const tasks = (await manager.get('/api/tasks')).json().items;
    expect(tasks.some((task: { customerId: string | null }) => task.customerId === mine.customer.id)).toBe(
      true,
    );
  });

  it('chat: opens on the thread so far, a team member’s reply included, and nothing of another customer’s', async () => {
    // A customer who never wrote: nothing.
    const other = await portalSignIn(t, manager, theirs.customer.phone);
    expect((await other.get('/api/portal/chat')).json()).toEqual({ lines: [] });
    const opened = await me.get('/api/portal/chat');
    expect(opened.statusCode, opened.body).toBe(200);
    expect(
      opened.json().lines.find((line: { body: string }) => line.body === 'What is my balance?'),
    ).toMatchObject({ from: 'you' });
    const [thread] = await rows<{ id: string }>(
      sql`SELECT id FROM conversations WHERE customer_id = ${mine.customer.id}`,
    );
    if (!thread) throw new Error('no thread for the customer');
    const reply = await manager.post(`/api/conversations/${thread.id}/reply`, {
      text: 'We will call you today.',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const lines = (await me.get('/api/portal/chat')).json().lines;
    expect(lines.at(-1)).toMatchObject({ from: 'team', body: 'We will call you today.' });
    expect((await other.get('/api/portal/chat')).json()).toEqual({ lines: [] });
    expect((await t.client().get('/api/portal/chat')).statusCode).toBe(401);
    expect((await manager.get('/api/portal/chat')).statusCode).toBe(401);
  });

  it('preferences: language and opting out per channel, audited as the customer’s act', async () => {
    expect((await me.patch('/api/portal/preferences', { consents: { sms: true } })).json().consents.sms).toBe(
      true,
    );
    const changed = await me.patch('/api/portal/preferences', { language: 'sw', consents: { sms: false } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ language: 'sw', consents: { sms: false } });
    expect((await me.get('/api/portal/me')).json()).toMatchObject({
      language: 'sw',
      consents: { sms: false },
    });
    const audits = await rows<{ actor_label: string }>(
      sql`SELECT actor_label FROM audit_log WHERE entity_id = ${mine.customer.id} AND action = 'customer.consent_withdrawn'`,
    );
    expect(audits.map((a) => a.actor_label)).toContain('customer by portal');
    const back = await me.patch('/api/portal/preferences', { consents: { sms: true } });
    expect(back.json()).toMatchObject({ language: 'sw', consents: { sms: true } });
    expect((await me.patch('/api/portal/preferences', { language: 'xx' })).statusCode).toBe(400);
  });

  it('signing out ends the session', async () => {
    const out = await them.post('/api/portal/logout');
    expect(out.statusCode).toBe(200);
    expect((await them.get('/api/portal/me')).statusCode).toBe(401);
  });
});
