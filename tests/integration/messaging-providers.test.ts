import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagingSettings, MessagingSettingsBody } from '../../src/contracts/messaging-settings';
import { queryRows } from '../../src/db/client';
import { SYSTEM_ACTOR } from '../../src/server/audit';
import { queueMessage } from '../../src/server/modules/messages/outbox';
import type { OutgoingMessage } from '../../src/server/modules/messages/provider';
import { smsHttpProvider } from '../../src/server/modules/messages/providers/sms-http';
import { emailMessageId, smtpProvider } from '../../src/server/modules/messages/providers/smtp';
import { whatsappCloudProvider } from '../../src/server/modules/messages/providers/whatsapp-cloud';
import { sendDueMessages } from '../../src/server/modules/messages/sender';
import { withTransaction } from '../../src/server/transaction';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { FakeSmsGateway } from '../support/fake-sms';
import { FakeSmtpServer } from '../support/fake-smtp';
import { FakeWhatsappGraph } from '../support/fake-whatsapp';
import { insertActiveContract } from '../support/fixtures';

const message = (over: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  id: randomUUID(),
  channel: 'sms',
  recipient: '+254712345678',
  body: 'Hello Amina, your payment is due.',
  ...over,
});

describe('messaging providers against their fake servers', () => {
  const sms = new FakeSmsGateway();
  const graph = new FakeWhatsappGraph();
  const smtp = new FakeSmtpServer();
  beforeAll(async () => {
    await Promise.all([sms.start(), graph.start(), smtp.start()]);
  });
  afterAll(async () => {
    await Promise.all([sms.stop(), graph.stop(), smtp.stop()]);
  });

  it('SMS: posts the form with the API key, reads the message id, and sends a message id once', async () => {
    const provider = smsHttpProvider({
      url: sms.url,
      username: 'sandbox',
      apiKey: sms.apiKey,
      senderId: 'DEVICEFIN',
    });
    const out = message();
    const result = await provider.send(out);
    expect(result).toEqual({ ok: true, providerReference: 'ATXid_1', delivered: false });
    const [request] = sms.requests;
    expect(request).toMatchObject({
      apiKey: sms.apiKey,
      idempotencyKey: out.id,
      contentType: 'application/x-www-form-urlencoded',
      form: { username: 'sandbox', to: '+254712345678', message: out.body, from: 'DEVICEFIN' },
    });
    // The same message again (a resend after a crash) is the same message to the gateway.
    expect(await provider.send(out)).toEqual(result);
    expect(sms.sent.size).toBe(1);
    expect(sms.requests).toHaveLength(2);
  });

  it('SMS: a wrong key or a bad number is not retried; a 5xx or an unreachable gateway is', async () => {
    const wrong = smsHttpProvider({ url: sms.url, username: 'sandbox', apiKey: 'nope', senderId: null });
    expect(await wrong.send(message())).toMatchObject({
      ok: false,
      retryable: false,
      reason: expect.stringContaining('401'),
    });
    const provider = smsHttpProvider({
      url: sms.url,
      username: 'sandbox',
      apiKey: sms.apiKey,
      senderId: null,
    });
    sms.failNext = 1;
    expect(await provider.send(message())).toMatchObject({
      ok: false,
      retryable: true,
      reason: expect.stringContaining('503'),
    });
    sms.recipientStatus = { code: 403, status: 'InvalidPhoneNumber' };
    try {
      expect(await provider.send(message())).toEqual({
        ok: false,
        retryable: false,
        reason: 'InvalidPhoneNumber (403)',
      });
      sms.recipientStatus = { code: 405, status: 'InsufficientBalance' };
      expect(await provider.send(message())).toMatchObject({ ok: false, retryable: true });
    } finally {
      sms.recipientStatus = { code: 101, status: 'Success' };
    }
    const closed = new FakeSmsGateway();
    const url = await closed.start();
    await closed.stop();
    const unreachable = smsHttpProvider({
      url,
      username: 'sandbox',
      apiKey: 'x',
      senderId: null,
      timeoutMs: 2000,
    });
    expect(await unreachable.send(message())).toMatchObject({ ok: false, retryable: true });
  });

  it('WhatsApp: a text message with the bearer token, answered with its wamid; a reminder goes as its template', async () => {
    const provider = whatsappCloudProvider({
      apiUrl: graph.apiUrl,
      phoneNumberId: graph.phoneNumberId,
      accessToken: graph.token,
    });
    const reply = message({ channel: 'whatsapp', templateKey: 'reply', body: 'Your balance is KES 1,200.' });
    const result = await provider.send(reply);
    expect(result).toEqual({ ok: true, providerReference: 'wamid.FAKE000001', delivered: false });
    expect(graph.requests[0]).toMatchObject({
      path: `/v21.0/${graph.phoneNumberId}/messages`,
      authorization: `Bearer ${graph.token}`,
      idempotencyKey: reply.id,
      body: {
        messaging_product: 'whatsapp',
        to: '254712345678',
        type: 'text',
        text: { preview_url: false, body: 'Your balance is KES 1,200.' },
        biz_opaque_callback_data: reply.id,
      },
    });
    expect(await provider.send(reply)).toEqual(result);
    expect(graph.sent.size).toBe(1);

    const reminder = message({
      channel: 'whatsapp',
      templateKey: 'overdue_day_3',
      body: 'KES 500 is 3 days overdue.',
    });
    expect(await provider.send(reminder)).toMatchObject({ ok: true });
    expect(graph.requests.at(-1)?.body).toMatchObject({
      type: 'template',
      template: {
        name: 'overdue_day_3',
        language: { code: 'en' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'KES 500 is 3 days overdue.' }] }],
      },
    });
  });

  it('WhatsApp: a bad token or phone number id is not retried; throttling and server errors are', async () => {
    const badToken = whatsappCloudProvider({
      apiUrl: graph.apiUrl,
      phoneNumberId: graph.phoneNumberId,
      accessToken: 'bad',
    });
    expect(await badToken.send(message({ channel: 'whatsapp' }))).toMatchObject({
      ok: false,
      retryable: false,
      reason: expect.stringContaining('(190)'),
    });
    const badNumber = whatsappCloudProvider({
      apiUrl: graph.apiUrl,
      phoneNumberId: '999',
      accessToken: graph.token,
    });
    expect(await badNumber.send(message({ channel: 'whatsapp' }))).toMatchObject({
      ok: false,
      retryable: false,
    });
    const provider = whatsappCloudProvider({
      apiUrl: graph.apiUrl,
      phoneNumberId: graph.phoneNumberId,
      accessToken: graph.token,
    });
    graph.failNext = 1;
    graph.failStatus = 400;
    graph.failCode = 130429;
    expect(await provider.send(message({ channel: 'whatsapp' }))).toMatchObject({
      ok: false,
      retryable: true,
    });
    graph.failNext = 1;
    graph.failStatus = 500;
    graph.failCode = 2;
    expect(await provider.send(message({ channel: 'whatsapp' }))).toMatchObject({
      ok: false,
      retryable: true,
    });
  });

  it('SMTP: sends to the address with its subject and our id as Message-ID, once; maps refusals', async () => {
    const options = {
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      user: smtp.user,
      password: smtp.password,
      from: 'accounts@lender.example',
    };
    const provider = smtpProvider(options);
    try {
      const out = message({
        channel: 'email',
        recipient: 'amina@example.com',
        subject: 'Your receipt',
        body: 'We received KES 500.',
      });
      const result = await provider.send(out);
      expect(result).toEqual({
        ok: true,
        providerReference: emailMessageId(out.id, options.from),
        delivered: false,
      });
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]).toMatchObject({
        from: 'accounts@lender.example',
        to: ['amina@example.com'],
        subject: 'Your receipt',
        messageId: `<${out.id}@lender.example>`,
      });
      expect(smtp.mails[0]?.text).toContain('We received KES 500.');
      // Sent again (a resend after a crash): the same Message-ID, kept once.
      expect(await provider.send(out)).toMatchObject({ ok: true });
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.deliveries).toBe(2);

      smtp.rejectRecipients.add('gone@example.com');
      expect(await provider.send(message({ channel: 'email', recipient: 'gone@example.com' }))).toMatchObject(
        {
          ok: false,
          retryable: false,
        },
      );
      smtp.failNext = 1;
      expect(
        await provider.send(message({ channel: 'email', recipient: 'amina@example.com' })),
      ).toMatchObject({
        ok: false,
        retryable: true,
        reason: expect.stringContaining('451'),
      });
    } finally {
      await provider.close?.();
    }
    const wrong = smtpProvider({ ...options, password: 'wrong' });
    try {
      expect(await wrong.send(message({ channel: 'email', recipient: 'amina@example.com' }))).toMatchObject({
        ok: false,
        retryable: false,
        reason: expect.stringContaining('authentication'),
      });
    } finally {
      await wrong.close?.();
    }
  });
});

const SETTINGS: MessagingSettingsBody = {
  smsProvider: 'simulator',
  smsCostPerSegment: 80,
  smsRatePerSecond: 50,
  whatsappProvider: 'simulator',
  whatsappRatePerSecond: 50,
  emailProvider: 'simulator',
  emailRatePerSecond: 10,
  simulatorFailureRate: 0,
};

describe.each(DATABASE_KINDS)('messaging settings and delivery reports on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  const sms = new FakeSmsGateway();
  const ctx = () => t.app.ctx;
  const settingsRow = async () =>
    (await queryRows<Record<string, string | null>>(ctx().db, sql`SELECT * FROM messaging_settings`))[0] ??
    {};

  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.ms = Date.parse('2024-05-15T12:00:00Z');
    admin = await t.signedIn('admin');
    await sms.start();
  });
  afterAll(async () => {
    await sms.stop();
    await t.close();
  });

  it('shows the simulator by default, with the callback URLs, to administrators only', async () => {
    const manager = await t.signedIn('manager');
    expect((await manager.get('/api/messaging/settings')).statusCode).toBe(403);
    const answer = await admin.get('/api/messaging/settings');
    expect(answer.statusCode).toBe(200);
    const settings = answer.json<MessagingSettings>();
    expect(settings).toMatchObject({
      smsProvider: 'simulator',
      whatsappProvider: 'simulator',
      emailProvider: 'simulator',
      smsApiKeySet: false,
      whatsappAppSecretSet: false,
      whatsappWebhookUrl: '/api/webhooks/whatsapp',
    });
    expect(settings.smsCallbackUrl).toMatch(/^\/api\/webhooks\/sms\/status\?token=[\w-]{20,}$/);
  });

  it('stores credentials encrypted, never returns them, keeps them when left out, and audits the change', async () => {
    const secrets = {
      smsApiKey: sms.apiKey,
      whatsappAccessToken: 'EAAG-secret-access-token',
      whatsappAppSecret: 'app-secret-value-0123',
      whatsappVerifyToken: 'verify-me-please',
      smtpPassword: 'smtp-password-value',
      aiApiKey: 'sk-ai-key-value',
    };
    const body: MessagingSettingsBody = {
      ...SETTINGS,
      smsProvider: 'http',
      smsUrl: sms.url,
      smsUsername: 'sandbox',
      smsSenderId: 'LENDER',
      whatsappApiUrl: 'https://graph.facebook.com/v21.0',
      whatsappPhoneNumberId: '1234567890',
      aiBaseUrl: 'https://ai.example.com/v1',
      aiModel: 'small-model',
      ...secrets,
    };
    const saved = await admin.put('/api/messaging/settings', body);
    expect(saved.statusCode, saved.body).toBe(200);
    for (const value of Object.values(secrets)) expect(saved.body).not.toContain(value);
    expect(saved.json<MessagingSettings>()).toMatchObject({
      smsProvider: 'http',
      smsApiKeySet: true,
      whatsappAccessTokenSet: true,
      whatsappAppSecretSet: true,
      whatsappVerifyTokenSet: true,
      smtpPasswordSet: true,
      aiApiKeySet: true,
      aiModel: 'small-model',
    });
    const row = await settingsRow();
    for (const [field, column] of [
      ['smsApiKey', 'sms_api_key'],
      ['whatsappAccessToken', 'whatsapp_access_token'],
      ['whatsappAppSecret', 'whatsapp_app_secret'],
      ['whatsappVerifyToken', 'whatsapp_verify_token'],
      ['smtpPassword', 'smtp_password'],
      ['aiApiKey', 'ai_api_key'],
    ] as const) {
      expect(row[column]).toMatch(/^v1\./);
      expect(row[column]).not.toContain(secrets[field]);
    }
    const [audit] = await queryRows<{ after: unknown; before: unknown }>(
      ctx().db,
      sql`SELECT before, after FROM audit_log WHERE action = 'messaging.settings' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit?.after).toMatchObject({ smsProvider: 'http', smsApiKeySet: true });
    expect((audit?.after as { secretsChanged: string[] } | undefined)?.secretsChanged.sort()).toEqual(
      Object.keys(secrets).sort(),
    );
    for (const value of Object.values(secrets)) expect(JSON.stringify(audit)).not.toContain(value);

    // Left out: kept. Null: removed.
    const { smsApiKey: _k, whatsappAccessToken: _a, ...rest } = body;
    const kept = await admin.put('/api/messaging/settings', {
      ...rest,
      smsApiKey: undefined,
      aiApiKey: null,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<MessagingSettings>()).toMatchObject({
      smsApiKeySet: true,
      whatsappAccessTokenSet: true,
      aiApiKeySet: false,
    });
    expect((await settingsRow()).sms_api_key).toBe(row.sms_api_key);
  });

  it('refuses each invalid field with a clear message', async () => {
    const refuse = async (body: unknown, field: string, message: RegExp) => {
      const answer = await admin.put('/api/messaging/settings', body);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().errors).toContainEqual({ field, message: expect.stringMatching(message) });
    };
    await refuse({ ...SETTINGS, smsProvider: 'http' }, 'smsUrl', /needs its URL/);
    await refuse({ ...SETTINGS, smsRatePerSecond: 0 }, 'smsRatePerSecond', /at least 1/);
    await refuse({ ...SETTINGS, simulatorFailureRate: 2 }, 'simulatorFailureRate', /from 0 to 1/);
    await refuse({ ...SETTINGS, emailFrom: 'not-an-address' }, 'emailFrom', /e-mail address/);
    await refuse({ ...SETTINGS, smsUrl: 'ftp://x' }, 'smsUrl', /http\(s\)/);
    await refuse({ ...SETTINGS, whatsappPhoneNumberId: 'abc' }, 'whatsappPhoneNumberId', /digits/);
    await refuse({ ...SETTINGS, aiBaseUrl: 'https://ai.example.com' }, 'aiModel', /model/);
    await refuse(
      {
        ...SETTINGS,
        whatsappProvider: 'cloud',
        whatsappApiUrl: 'https://graph.facebook.com/v21.0',
        whatsappPhoneNumberId: '1',
        whatsappAccessToken: null,
      },
      'whatsappAccessToken',
      /access token/,
    );
  });

  it('sends a test message through the configured provider and says how it went', async () => {
    const before = sms.sent.size;
    const ok = await admin.post('/api/messaging/settings/test', {
      channel: 'sms',
      recipient: '+254700000001',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      ok: true,
      provider: 'sms_http',
      reference: expect.stringMatching(/^ATXid_/),
      reason: null,
    });
    expect(sms.sent.size).toBe(before + 1);
    expect([...sms.sent.values()].at(-1)?.message).toMatch(/test message/);
    sms.recipientStatus = { code: 403, status: 'InvalidPhoneNumber' };
    try {
      const refused = await admin.post('/api/messaging/settings/test', {
        channel: 'sms',
        recipient: '+254700000002',
      });
      expect(refused.json()).toMatchObject({ ok: false, reason: 'InvalidPhoneNumber (403)' });
    } finally {
      sms.recipientStatus = { code: 101, status: 'Success' };
    }
    const bad = await admin.post('/api/messaging/settings/test', { channel: 'sms', recipient: '0712' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { field: 'recipient', message: expect.stringContaining('international') },
    ]);
    // The simulator answers for the others.
    const email = await admin.post('/api/messaging/settings/test', {
      channel: 'email',
      recipient: 'ops@example.com',
    });
    expect(email.json()).toMatchObject({ ok: true, provider: 'simulator' });
  });

  it('takes the SMS gateway’s delivery reports: a bad token is 401 and writes nothing; sent moves to delivered or failed', async () => {
    const contract = await insertActiveContract(ctx(), {
      principal: 10_000,
      apr: 12,
      frequency: 'monthly',
      term: 3,
      startDate: '2024-04-01',
    });
    const [{ customer_id: customerId } = { customer_id: '' }] = await queryRows<{ customer_id: string }>(
      ctx().db,
      sql`SELECT customer_id FROM contracts WHERE id = ${contract.id}`,
    );
    await ctx().db.execute(sql`UPDATE customers SET consent_sms_at = now() WHERE id = ${customerId}`);
    const queue = () =>
      withTransaction(ctx(), (tx) =>
        queueMessage(tx, SYSTEM_ACTOR, {
          customerId,
          contractId: contract.id,
          template: 'receipt',
          variables: {
            contractNumber: contract.number,
            amount: 'KES 500',
            reference: 'R1',
            balance: 'KES 0',
          },
        }),
      );
    const first = (await queue()) as string;
    const second = (await queue()) as string;
    await ctx().db.execute(
      sql`UPDATE messages SET status = 'failed' WHERE status = 'queued' AND id NOT IN (${first}, ${second})`,
    );
    expect(await sendDueMessages(ctx())).toMatchObject({ sent: 2 });
    const rows = await queryRows<{
      id: string;
      status: string;
      provider: string;
      provider_reference: string;
    }>(
      ctx().db,
      sql`SELECT id, status, provider, provider_reference FROM messages WHERE id IN (${first}, ${second}) ORDER BY id`,
    );
    expect(rows.map((r) => [r.status, r.provider])).toEqual([
      ['sent', 'sms_http'],
      ['sent', 'sms_http'],
    ]);
    const ref = (id: string) => rows.find((r) => r.id === id)?.provider_reference as string;
    const { smsCallbackUrl } = (await admin.get('/api/messaging/settings')).json<MessagingSettings>();
    const gateway = t.client();
    const report = (url: string, form: Record<string, string>) =>
      gateway.post(url, undefined, {
        csrf: false,
        raw: new URLSearchParams(form).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const statusOf = async (id: string) =>
      (
        await queryRows<{ status: string; failure_reason: string | null; delivered_at: string | null }>(
          ctx().db,
          sql`SELECT status, failure_reason, delivered_at::text FROM messages WHERE id = ${id}`,
        )
      )[0];

    for (const url of ['/api/webhooks/sms/status?token=wrong', '/api/webhooks/sms/status']) {
      const refused = await report(url, { id: ref(first), status: 'Success' });
      expect(refused.statusCode).toBe(401);
    }
    expect(await statusOf(first)).toMatchObject({ status: 'sent', delivered_at: null });

    const delivered = await report(smsCallbackUrl, {
      id: ref(first),
      status: 'Success',
      phoneNumber: '+254700000001',
    });
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(await statusOf(first)).toMatchObject({ status: 'delivered', delivered_at: expect.any(String) });
    // Forward only: a late "Failed" for a delivered message changes nothing.
    await report(smsCallbackUrl, { id: ref(first), status: 'Failed', failureReason: 'UserInBlacklist' });
    expect(await statusOf(first)).toMatchObject({ status: 'delivered' });

    const failed = await gateway.post(
      smsCallbackUrl,
      { id: ref(second), status: 'Failed', failureReason: 'AbsentSubscriber' },
      { csrf: false },
    );
    expect(failed.statusCode).toBe(200);
    expect(await statusOf(second)).toMatchObject({
      status: 'failed',
      failure_reason: 'Failed: AbsentSubscriber',
    });
    const events = await queryRows<{ message: string }>(
      ctx().db,
      sql`SELECT message FROM contract_events WHERE contract_id = ${contract.id} AND type = 'message_failed'`,
    );
    expect(events.map((e) => e.message)).toEqual([
      'Payment receipt by SMS was not delivered: Failed: AbsentSubscriber',
    ]);

    // An id we never sent is answered 200 (the gateway would retry anything else) and changes nothing.
    expect((await report(smsCallbackUrl, { id: 'ATXid_unknown', status: 'Success' })).statusCode).toBe(200);
  });
});
