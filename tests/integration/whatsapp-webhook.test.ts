import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationDetail, WhatsappTestResult } from '../../src/contracts/conversations';
import type { CustomerEvent } from '../../src/contracts/customers';
import type { Task } from '../../src/contracts/tasks';
import { queryRows } from '../../src/db/client';
import { smsInboundToken } from '../../src/server/modules/conversations/webhooks/routes';
import { WHATSAPP_PROVIDER_NAME } from '../../src/server/modules/messages/delivery-status';
import { SECRET_PURPOSES } from '../../src/server/modules/messages/settings';
import { organisation } from '../../src/server/organisation';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { insertActiveContract } from '../support/fixtures';
import { newWamid, postWhatsapp, signature, statusPayload, textPayload } from '../support/whatsapp-payloads';

const NOON = Date.parse('2024-05-15T12:00:00Z');

describe.each(DATABASE_KINDS)('WhatsApp webhook and conversations on %s', (kind) => {
  let t: TestApp;
  let manager: TestClient & { user: { id: string } };
  let agent: TestClient & { user: { id: string } };
  let customer: { id: string; phone: string; contractId: string; contractNumber: string };

  const ctx = () => t.app.ctx;
  const counts = async () => {
    const [row] = await queryRows<{ c: number; l: number; m: number }>(
      ctx().db,
      sql`SELECT (SELECT count(*)::int FROM conversations) AS c, (SELECT count(*)::int FROM conversation_messages) AS l,
                 (SELECT count(*)::int FROM messages) AS m`,
    );
    return row;
  };
  const digits = (phone: string) => phone.replace(/\D/g, '');
  const say = (from: string, text: string, id?: string) =>
    postWhatsapp(t.app, textPayload({ from: digits(from), text, ...(id ? { id } : {}) }));
  const thread = async (phone: string) => {
    const [row] = await queryRows<{ id: string }>(
      ctx().db,
      sql`SELECT id FROM conversations WHERE phone = ${phone}`,
    );
    if (!row) throw new Error(`no thread for ${phone}`);
    const response = await manager.get(`/api/conversations/${row.id}`);
    expect(response.statusCode).toBe(200);
    return response.json<ConversationDetail>();
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.ms = NOON;
    await organisation(ctx(), ctx().db);
    manager = await t.signedIn('manager');
    agent = await t.signedIn('agent');
    const contract = await insertActiveContract(ctx(), {
      principal: 50_000,
      apr: 24,
      frequency: 'monthly',
      term: 6,
      startDate: '2024-04-01',
      customerName: ['Wanjiru', 'Kamau'],
    });
    const [row] = await queryRows<{ id: string; phone: string }>(
      ctx().db,
      sql`SELECT cu.id, cu.phone FROM contracts c JOIN customers cu ON cu.id = c.customer_id WHERE c.id = ${contract.id}`,
    );
    if (!row) throw new Error('fixture');
    customer = { ...row, contractId: contract.id, contractNumber: contract.number };
    await ctx().db.execute(
      sql`UPDATE customers SET consent_whatsapp_at = now(), assigned_agent_id = ${agent.user.id} WHERE id = ${customer.id}`,
    );
  });
  afterAll(() => t.close());

  it('refuses a bad or missing signature with 401 and writes nothing', async () => {
    const before = await counts();
    const payload = textPayload({ from: digits(customer.phone), text: 'balance' });
    const bad = await postWhatsapp(t.app, payload, { secret: 'not-the-secret' });
    expect(bad.statusCode).toBe(401);
    const missing = await postWhatsapp(t.app, payload, { signature: null });
    expect(missing.statusCode).toBe(401);
    // Signed, then the body changed by one byte: the raw body is what is checked.
    const raw = JSON.stringify(payload);
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/whatsapp',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature('x', raw) },
      payload: raw.replace('balance', 'Balance'),
    });
    expect(tampered.statusCode).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it('threads a signed message to its customer, answers it and queues the answer on WhatsApp', async () => {
    const response = await say(customer.phone, 'Hi, what is my balance?');
    expect(response.statusCode).toBe(200);
    const detail = await thread(customer.phone);
    expect(detail.conversation.customerId).toBe(customer.id);
    expect(detail.conversation.channel).toBe('whatsapp');
    expect(detail.lines.map((l) => [l.direction, l.author])).toEqual([
      ['in', 'customer'],
      ['out', 'assistant'],
    ]);
    expect(detail.lines[1]?.body).toContain(customer.contractNumber);
    const [queued] = await queryRows<{
      template_key: string;
      channel: string;
      conversation_id: string;
      recipient: string;
    }>(
      ctx().db,
      sql`SELECT template_key, channel, conversation_id, recipient FROM messages WHERE id = ${detail.lines[1]?.messageId ?? ''}`,
    );
    expect(queued).toEqual({
      template_key: 'reply',
      channel: 'whatsapp',
      conversation_id: detail.conversation.id,
      recipient: customer.phone,
    });
  });

  it('de-duplicates on the message id', async () => {
    const id = newWamid();
    expect((await say(customer.phone, 'When is my next payment?', id)).statusCode).toBe(200);
    const before = await counts();
    expect((await say(customer.phone, 'When is my next payment?', id)).statusCode).toBe(200);
    expect(await counts()).toEqual(before);
    const [row] = await queryRows<{ n: number }>(
      ctx().db,
      sql`SELECT count(*)::int AS n FROM conversation_messages WHERE provider_message_id = ${id}`,
    );
    expect(row?.n).toBe(1);
  });

  it('answers the verify handshake with the configured token only', async () => {
    const verify = (query: string) => t.app.inject({ method: 'GET', url: `/api/webhooks/whatsapp?${query}` });
    expect((await verify('hub.mode=subscribe&hub.verify_token=x&hub.challenge=123')).statusCode).toBe(403);
    await ctx().db.execute(
      sql`UPDATE messaging_settings SET whatsapp_verify_token = ${ctx().keyring.encrypt(SECRET_PURPOSES.whatsappVerifyToken, 'let-me-in')}`,
    );
    const good = await verify('hub.mode=subscribe&hub.verify_token=let-me-in&hub.challenge=1158201444');
    expect(good.statusCode).toBe(200);
    expect(good.headers['content-type']).toMatch(/^text\/plain/);
    expect(good.body).toBe('1158201444');
    expect((await verify('hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1')).statusCode).toBe(403);
    expect((await verify('hub.mode=unsubscribe&hub.verify_token=let-me-in&hub.challenge=1')).statusCode).toBe(
      403,
    );
  });

  it('records delivery statuses on the outbox', async () => {
    const reference = newWamid();
    const [message] = await queryRows<{ id: string }>(
      ctx().db,
      sql`SELECT id FROM messages WHERE conversation_id IS NOT NULL ORDER BY created_at LIMIT 1`,
    );
    await ctx().db.execute(
      sql`UPDATE messages SET status = 'sent', provider = ${WHATSAPP_PROVIDER_NAME}, provider_reference = ${reference},
                              attempts = 1, sent_at = now() WHERE id = ${message?.id ?? ''}`,
    );
    expect((await postWhatsapp(t.app, statusPayload(reference, 'delivered'))).statusCode).toBe(200);
    const [row] = await queryRows<{ status: string }>(
      ctx().db,
      sql`SELECT status FROM messages WHERE id = ${message?.id ?? ''}`,
    );
    expect(row?.status).toBe('delivered');
    // A status for a message we never sent is accepted (the provider would only retry) and changes nothing.
    expect(
      (
        await postWhatsapp(
          t.app,
          statusPayload(newWamid(), 'failed', { code: 131026, title: 'Undeliverable' }),
        )
      ).statusCode,
    ).toBe(200);
  });

  it('STOP withdraws the WhatsApp consent (audited) and START gives it again', async () => {
    expect((await say(customer.phone, 'STOP')).statusCode).toBe(200);
    const consent = async () => {
      const [row] = await queryRows<{ at: string | null }>(
        ctx().db,
        sql`SELECT consent_whatsapp_at::text AS at FROM customers WHERE id = ${customer.id}`,
      );
      return row?.at ?? null;
    };
    expect(await consent()).toBeNull();
    const detail = await thread(customer.phone);
    expect(detail.lines.at(-1)?.body).toContain('no longer receive');
    const [audit] = await queryRows<{ n: number }>(
      ctx().db,
      sql`SELECT count(*)::int AS n FROM audit_log WHERE entity_id = ${customer.id} AND action = 'customer.consent_withdrawn'`,
    );
    expect(audit?.n).toBe(1);
    expect((await say(customer.phone, 'start')).statusCode).toBe(200);
    expect(await consent()).not.toBeNull();
  });

  it('opens a thread for an unknown number, says so, and staff link it to a customer', async () => {
    const stranger = '+254711999888';
    expect((await say(stranger, 'what is my balance')).statusCode).toBe(200);
    const detail = await thread(stranger);
    expect(detail.conversation.customerId).toBeNull();
    expect(detail.lines.at(-1)?.body).toMatch(/could not find an account/);
    const [queued] = await queryRows<{ customer_id: string | null; recipient: string }>(
      ctx().db,
      sql`SELECT customer_id, recipient FROM messages WHERE id = ${detail.lines.at(-1)?.messageId ?? ''}`,
    );
    expect(queued).toEqual({ customer_id: null, recipient: stranger });
    const list = await manager.get('/api/conversations?unlinked=true');
    expect(list.json<{ items: Array<{ id: string }> }>().items.map((c) => c.id)).toContain(
      detail.conversation.id,
    );
    const found = await manager.get('/api/conversations?q=0711%20999%20888');
    expect(found.json<{ items: Array<{ id: string }> }>().items.map((c) => c.id)).toEqual([
      detail.conversation.id,
    ]);
    const linked = await manager.post(`/api/conversations/${detail.conversation.id}/link`, {
      customerId: customer.id,
    });
    // The customer's own phone already has a thread; this number is another one of theirs now.
    expect(linked.statusCode).toBe(200);
    expect(linked.json<ConversationDetail>().conversation.customerId).toBe(customer.id);
    expect(
      (await manager.post(`/api/conversations/${detail.conversation.id}/link`, { customerId: customer.id }))
        .statusCode,
    ).toBe(409);
  });

  it('stops answering when a person takes over, and answers again when handed back', async () => {
    const { conversation } = await thread(customer.phone);
    const taken = await manager.post(`/api/conversations/${conversation.id}/take-over`);
    expect(taken.statusCode).toBe(200);
    expect(taken.json<ConversationDetail>().conversation.mode).toBe('staff');
    const before = (await thread(customer.phone)).lines.length;
    await say(customer.phone, 'what is my balance');
    const held = await thread(customer.phone);
    expect(held.lines.length).toBe(before + 1);
    expect(held.lines.at(-1)?.author).toBe('customer');
    const [notice] = await queryRows<{ n: number }>(
      ctx().db,
      sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${manager.user.id} AND link LIKE ${`%${conversation.id}%`}`,
    );
    expect(notice?.n).toBeGreaterThan(0);
    const reply = await manager.post(`/api/conversations/${conversation.id}/reply`, {
      text: 'Hello, this is Grace.',
    });
    expect(reply.statusCode).toBe(200);
    const line = reply.json<ConversationDetail>().lines.at(-1);
    expect(line).toMatchObject({ author: 'staff', body: 'Hello, this is Grace.', messageStatus: 'queued' });
    expect((await manager.post(`/api/conversations/${conversation.id}/hand-back`)).statusCode).toBe(200);
    await say(customer.phone, 'what is my balance');
    expect((await thread(customer.phone)).lines.at(-1)?.author).toBe('assistant');
    const [audits] = await queryRows<{ n: number }>(
      ctx().db,
      sql`SELECT count(*)::int AS n FROM audit_log WHERE entity_id = ${conversation.id} AND action IN ('conversation.take_over', 'conversation.hand_back')`,
    );
    expect(audits?.n).toBe(2);
    // An agent reads threads but may not reply or take them over.
    expect((await agent.post(`/api/conversations/${conversation.id}/take-over`)).statusCode).toBe(403);
  });

  it("hands off to the customer's agent with a task on their list", async () => {
    await say(customer.phone, 'I want to talk to a person please');
    const mine = await agent.get('/api/tasks?mine=true&status=open');
    expect(mine.statusCode).toBe(200);
    const tasks = mine.json<{ items: Task[]; open: number }>();
    expect(tasks.items).toHaveLength(1);
    expect(tasks.items[0]).toMatchObject({
      customerId: customer.id,
      assignedTo: agent.user.id,
      source: 'assistant.handoff',
    });
    // Asked again while the task is open: no second task.
    await say(customer.phone, 'agent');
    expect((await agent.get('/api/tasks?mine=true&status=open')).json<{ open: number }>().open).toBe(1);
    const done = await agent.post(`/api/tasks/${tasks.items[0]?.id}/done`);
    expect(done.statusCode).toBe(200);
    expect(done.json<Task>().status).toBe('done');
    expect((await agent.post(`/api/tasks/${tasks.items[0]?.id}/done`)).statusCode).toBe(409);
  });

  it('takes inbound SMS with the gateway token only', async () => {
    const before = await counts();
    const form = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/webhooks/sms/inbound?token=${encodeURIComponent(token)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          from: customer.phone,
          text: 'how do i pay',
          id: `ATX-${NOON}`,
          to: '12345',
        }).toString(),
      });
    expect((await form('wrong')).statusCode).toBe(401);
    expect(await counts()).toEqual(before);
    expect((await form(smsInboundToken(ctx()))).statusCode).toBe(200);
    const detail = await thread(customer.phone);
    expect(detail.conversation.channel).toBe('sms');
    expect(detail.lines.at(-1)?.body).toMatch(/paybill/);
    expect(detail.lines.at(-1)?.channel).toBe('sms');
  });

  it('runs a /whatsapp-test message through the signed webhook', async () => {
    const response = await manager.post('/api/whatsapp-test', {
      phone: customer.phone,
      text: 'balance please',
    });
    expect(response.statusCode).toBe(200);
    const result = response.json<WhatsappTestResult>();
    expect(result).toMatchObject({ status: 200, signatureValid: true, customerName: 'Wanjiru Kamau' });
    expect(result.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(result.lines.map((l) => l.author)).toEqual(['customer', 'assistant']);
    expect(result.outbound).toHaveLength(1);
    expect(result.outbound[0]).toMatchObject({
      messaging_product: 'whatsapp',
      type: 'text',
      to: digits(customer.phone),
    });
    expect(JSON.stringify(result.inbound)).toContain('balance please');
    expect((await agent.post('/api/whatsapp-test', { phone: customer.phone, text: 'hi' })).statusCode).toBe(
      403,
    );
  });

  it("shows the conversation on the customer's timeline", async () => {
    const response = await manager.get(`/api/customers/${customer.id}/timeline`);
    expect(response.statusCode).toBe(200);
    const events = response.json<CustomerEvent[]>();
    expect(events.some((e) => e.action === 'conversation.in')).toBe(true);
    expect(events.some((e) => e.action === 'conversation.out')).toBe(true);
    const [line] = await queryRows<{ n: number }>(
      ctx().db,
      sql`SELECT count(*)::int AS n FROM contract_events WHERE contract_id = ${customer.contractId} AND type = 'conversation'`,
    );
    expect(line?.n).toBeGreaterThan(0);
  });
});
