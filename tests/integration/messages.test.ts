import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EodRun } from '../../src/contracts/close-of-business';
import {
  CUSTOM_TEMPLATE_VARIABLES,
  MESSAGE_MAX_ATTEMPTS,
  MESSAGE_RETRY_MINUTES,
  type Message,
  type MessageTemplate,
  TEMPLATE_KEYS,
  variablesOf,
} from '../../src/contracts/messages';
import { queryRows } from '../../src/db/client';
import { DomainError, renderTemplate, templateVariables } from '../../src/domain';
import { SYSTEM_ACTOR } from '../../src/server/audit';
import { STEPS } from '../../src/server/modules/close-of-business/steps';
import { type MessageRequest, queueMessage } from '../../src/server/modules/messages/outbox';
import type { MessageProvider } from '../../src/server/modules/messages/provider';
import { dueMessagesKey, sendDueMessages, sendMessagesJob } from '../../src/server/modules/messages/sender';
import { templateSql } from '../../src/server/modules/messages/values-sql';
import { organisation } from '../../src/server/organisation';
import { withTransaction } from '../../src/server/transaction';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { insertActiveContract } from '../support/fixtures';
import { eventually, runsOf } from '../support/jobs';

const TODAY = '2024-05-15';
const NOON = Date.parse(`${TODAY}T12:00:00Z`);

/** A provider that fails every message with the reason given (retryable unless told otherwise). */
function failingProvider(reason: string, retryable = true): MessageProvider & { calls: number } {
  const provider = {
    name: 'failing',
    calls: 0,
    async send() {
      provider.calls += 1;
      return { ok: false as const, reason, retryable };
    },
  };
  return provider;
}

/** Records what it sends and answers "sent" (delivery not yet confirmed). */
function recordingProvider(): MessageProvider & { sent: string[] } {
  const provider = {
    name: 'recording',
    sent: [] as string[],
    async send(message: { body: string }) {
      provider.sent.push(message.body);
      return { ok: true as const, providerReference: `R-${provider.sent.length}`, delivered: false };
    },
  };
  return provider;
}

describe.each(DATABASE_KINDS)('message outbox on %s', (kind) => {
  let t: TestApp;
  let manager: TestClient;
  let contract: { id: string; number: string; customerId: string };

  const ctx = () => t.app.ctx;
  const queue = (request: MessageRequest) =>
    withTransaction(ctx(), (tx) => queueMessage(tx, SYSTEM_ACTOR, request));
  const messageRow = async (id: string) => {
    const [row] = await queryRows<{
      status: string;
      attempts: number;
      failure_reason: string | null;
      skipped_reason: string | null;
      next_attempt_at: string | null;
      body: string;
    }>(
      ctx().db,
      sql`SELECT status, attempts, failure_reason, skipped_reason, next_attempt_at::text, body
                     FROM messages WHERE id = ${id}`,
    );
    return row;
  };
  const consent = (customerId: string, given: boolean) =>
    ctx().db.execute(
      sql`UPDATE customers SET consent_sms_at = ${given ? new Date(NOON).toISOString() : null}::timestamptz
          WHERE id = ${customerId}`,
    );
  const customerOf = async (contractId: string) => {
    const [row] = await queryRows<{ customer_id: string }>(
      ctx().db,
      sql`SELECT customer_id FROM contracts WHERE id = ${contractId}`,
    );
    return row?.customer_id as string;
  };
  const reminder = (dedupeKey?: string): MessageRequest => ({
    customerId: contract.customerId,
    contractId: contract.id,
    template: 'overdue_day_3',
    variables: { contractNumber: contract.number, amountOverdue: 'USD 12.00' },
    ...(dedupeKey ? { dedupeKey } : {}),
  });
  /** Only the messages queued here are due: earlier tests' leftovers are taken out of the way. */
  const clearQueue = () =>
    ctx().db.execute(sql`UPDATE messages SET status = 'failed' WHERE status = 'queued'`);

  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.ms = NOON;
    await organisation(ctx(), ctx().db);
    manager = await t.signedIn('manager');
    const inserted = await insertActiveContract(ctx(), {
      principal: 30_000,
      apr: 24,
      frequency: 'monthly',
      term: 6,
      startDate: '2024-04-01',
      customerName: ['Amina', 'Otieno'],
    });
    contract = { ...inserted, customerId: await customerOf(inserted.id) };
    await consent(contract.customerId, true);
  });
  afterAll(() => t.close());

  it('queues a message rendered from its template, once per dedupe key', async () => {
    const id = await queue(reminder('test:dedupe'));
    expect(id).toEqual(expect.any(String));
    expect(await queue(reminder('test:dedupe'))).toBeNull();
    const row = await messageRow(id as string);
    expect(row).toMatchObject({ status: 'queued', attempts: 0 });
    expect(row?.body).toBe(
      `Hello Amina, USD 12.00 on ${contract.number} is 3 days overdue. Please pay now to keep your device working.`,
    );
    // Without a key every request is its own message.
    expect(await queue(reminder())).not.toBeNull();
    const [count] = await queryRows<{ n: number }>(
      ctx().db,
      sql`SELECT count(*)::int AS n FROM messages WHERE contract_id = ${contract.id}`,
    );
    expect(count?.n).toBe(2);
  });

  it('refuses a template variable that is missing, and queues nothing', async () => {
    const error = await queue({ ...reminder('test:missing'), variables: { contractNumber: 'X' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('MESSAGE_VARIABLE_MISSING');
    const rows = await queryRows(ctx().db, sql`SELECT 1 FROM messages WHERE dedupe_key = 'test:missing'`);
    expect(rows).toHaveLength(0);
  });

  it('renders in SQL exactly as the renderer does; a missing variable leaves no text to send', async () => {
    const allowed = CUSTOM_TEMPLATE_VARIABLES;
    const cases: [string, Record<string, string | number>][] = [
      [
        'Hello {{firstName}}, pay {{ amountDue }} by {{dueDate}}.',
        { firstName: 'A', amountDue: 'USD 1.00', dueDate: 'x' },
      ],
      ['{{account}} {{balance}} {{account}}', { account: '{{balance}}', balance: "$1 \\1 & % ' ||" }],
      ['no placeholders {single} {{}}', {}],
      ['{{daysOverdue}}', { daysOverdue: 7 }],
    ];
    const render = (template: string, variables: Record<string, string | number>) =>
      queryRows<{ body: string | null }>(
        ctx().db,
        sql`SELECT ${templateSql(template, allowed, (name) => sql`(v.variables ->> ${name}::text)`)} AS body
            FROM (SELECT ${JSON.stringify(variables)}::jsonb AS variables) v`,
      );
    for (const [template, variables] of cases) {
      const [row] = await render(template, variables);
      expect(row?.body).toBe(renderTemplate(template, variables));
    }
    expect((await render('{{balance}} due', {}))[0]?.body).toBeNull();
    expect(() => templateSql('{{gone}}', allowed, () => sql`''`)).toThrow(/gone/);
  });

  it('sends with consent, skips without it (with the reason), and writes the contract timeline', async () => {
    await clearQueue();
    const sent = (await queue(reminder())) as string;
    const other = await insertActiveContract(ctx(), {
      principal: 10_000,
      apr: 12,
      frequency: 'monthly',
      term: 3,
      startDate: '2024-04-01',
    });
    const otherCustomer = await customerOf(other.id);
    const skipped = (await queue({
      customerId: otherCustomer,
      contractId: other.id,
      template: 'reminder_before_due',
      variables: { contractNumber: other.number, amount: 'USD 1.00', dueDate: '2024-05-17' },
    })) as string;
    const provider = recordingProvider();
    expect(await sendDueMessages(ctx(), provider)).toMatchObject({ sent: 1, skipped: 1 });
    expect(await messageRow(sent)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await messageRow(skipped)).toMatchObject({
      status: 'skipped',
      attempts: 0,
      skipped_reason: 'The customer has not consented to SMS messages',
    });
    expect(provider.sent).toHaveLength(1);
    const page = (await manager.get(`/api/contracts/${contract.id}`)).json<{
      events: { type: string; message: string }[];
    }>();
    expect(page.events.map((e) => [e.type, e.message])).toContainEqual([
      'message_sent',
      'Overdue, day 3 sent by SMS',
    ]);
    // And on each customer's timeline (issue 15 §4): what was sent and what was not, never the body.
    const timeline = async (customerId: string) =>
      (await manager.get(`/api/customers/${customerId}/timeline`)).json<
        { action: string; summary: string }[]
      >();
    expect(await timeline(contract.customerId)).toContainEqual(
      expect.objectContaining({ action: 'message.sent', summary: 'Overdue, day 3 by SMS: sent' }),
    );
    expect(await timeline(otherCustomer)).toContainEqual(
      expect.objectContaining({ action: 'message.skipped', summary: 'Reminder before due by SMS: not sent' }),
    );
    // Nothing is due any more: a second run sends nothing.
    expect(await sendDueMessages(ctx(), provider)).toMatchObject({ sent: 0, skipped: 0 });
  });

  it('holds reminders through quiet hours (not dropped) but sends a token at once', async () => {
    await clearQueue();
    t.clock.ms = Date.parse(`${TODAY}T21:30:00Z`); // the organisation's zone is UTC; quiet 20:00–08:00
    try {
      const held = (await queue(reminder())) as string;
      const token = (await queue({
        customerId: contract.customerId,
        contractId: contract.id,
        template: 'token',
        variables: {
          contractNumber: contract.number,
          token: '123 456 789',
          tokenDescription: '30 days of use',
        },
      })) as string;
      const provider = recordingProvider();
      expect(await sendDueMessages(ctx(), provider)).toMatchObject({ sent: 1, deferred: 1 });
      expect(await messageRow(token)).toMatchObject({ status: 'sent' });
      const row = await messageRow(held);
      expect(row?.status).toBe('queued');
      expect(new Date(row?.next_attempt_at as string).toISOString()).toBe('2024-05-16T08:00:00.000Z');
      // Still quiet at 07:59; at 08:00 it goes.
      t.clock.ms = Date.parse('2024-05-16T07:59:00Z');
      expect(await sendDueMessages(ctx(), provider)).toMatchObject({ sent: 0 });
      t.clock.ms = Date.parse('2024-05-16T08:00:00Z');
      expect(await sendDueMessages(ctx(), provider)).toMatchObject({ sent: 1 });
      expect(await messageRow(held)).toMatchObject({ status: 'sent' });
    } finally {
      t.clock.ms = NOON;
    }
  });

  it('retries a failing provider with back-off, then fails visibly with its reason', async () => {
    await clearQueue();
    const id = (await queue(reminder())) as string;
    const provider = failingProvider('gateway timeout');
    let at = NOON;
    try {
      for (let attempt = 1; attempt <= MESSAGE_MAX_ATTEMPTS; attempt += 1) {
        t.clock.ms = at;
        const run = await sendDueMessages(ctx(), provider);
        const row = await messageRow(id);
        expect(row).toMatchObject({ attempts: attempt, failure_reason: 'gateway timeout' });
        if (attempt < MESSAGE_MAX_ATTEMPTS) {
          expect(run).toMatchObject({ retrying: 1 });
          expect(row?.status).toBe('queued');
          const wait = (MESSAGE_RETRY_MINUTES[attempt - 1] as number) * 60_000;
          expect(new Date(row?.next_attempt_at as string).getTime()).toBe(at + wait);
          // Not before its time.
          t.clock.ms = at + wait - 1_000;
          expect(await sendDueMessages(ctx(), provider)).toMatchObject({ retrying: 0, failed: 0 });
          at += wait;
        } else {
          expect(run).toMatchObject({ failed: 1 });
          expect(row).toMatchObject({ status: 'failed', next_attempt_at: null });
        }
      }
      expect(provider.calls).toBe(MESSAGE_MAX_ATTEMPTS);
    } finally {
      t.clock.ms = NOON;
    }
    // Visible: in the outbox with its reason, and on the contract's timeline.
    const failed = await manager.get(
      `/api/outbox?status=failed&contractId=${contract.id}&template=overdue_day_3`,
    );
    expect(failed.statusCode).toBe(200);
    expect(failed.json<{ items: Message[] }>().items.find((m) => m.id === id)).toMatchObject({
      status: 'failed',
      failureReason: 'gateway timeout',
      attempts: MESSAGE_MAX_ATTEMPTS,
      contractNumber: contract.number,
      customerName: 'Amina Otieno',
    });
    const page = (await manager.get(`/api/contracts/${contract.id}`)).json<{
      events: { message: string }[];
    }>();
    expect(page.events.map((e) => e.message)).toContain(
      `Overdue, day 3 by SMS failed after ${MESSAGE_MAX_ATTEMPTS} attempts: gateway timeout`,
    );

    // A refusal that retrying cannot cure fails at once.
    const refused = (await queue(reminder())) as string;
    expect(await sendDueMessages(ctx(), failingProvider('number not on the network', false))).toMatchObject({
      failed: 1,
    });
    expect(await messageRow(refused)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('lists the outbox for staff who may see messages, with its filters; not for viewers', async () => {
    const viewer = await t.signedIn('viewer');
    expect((await viewer.get('/api/outbox')).statusCode).toBe(403);
    const agent = await t.signedIn('agent');
    const all = await agent.get(`/api/outbox?customerId=${contract.customerId}`);
    expect(all.statusCode).toBe(200);
    const items = all.json<{ items: Message[]; total: number }>().items;
    expect(items.length).toBeGreaterThan(3);
    expect(items.every((m) => m.customerId === contract.customerId)).toBe(true);
    // Newest first.
    const created = items.map((m) => m.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const tokens = await agent.get('/api/outbox?template=token&status=sent');
    expect(tokens.json<{ items: Message[] }>().items.every((m) => m.template === 'token')).toBe(true);
    expect((await agent.get('/api/outbox?status=lost')).statusCode).toBe(400);
    const csv = await agent.get(`/api/outbox?format=csv&contractId=${contract.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\n')[0]).toContain('Failure reason');
  });

  it('queues reminders at close of business: before due, overdue on days 1, 3 and 7, lock warnings; once', async () => {
    const make = async (
      startDate: string,
      controlKind: 'none' | 'lock_api' | 'openpaygo',
      lockAfterDays: number,
    ) => {
      const c = await insertActiveContract(ctx(), {
        principal: 12_000,
        apr: 12,
        frequency: 'monthly',
        term: 3,
        startDate,
        controlKind,
        terms: { lateFeeKind: 'none', lateFeeValue: 0, graceDays: 0, lockAfterDays, defaultAfterDays: null },
      });
      return c.id;
    };
    // First instalments fall due on 17 May (in two days), 14 May (1 day past due), 12 May (3),
    // 8 May (7), and 13 May (2 days: no reminder).
    const ids = {
      beforeDue: await make('2024-04-17', 'none', 30),
      day1: await make('2024-04-14', 'none', 30),
      day3: await make('2024-04-12', 'lock_api', 3),
      day7: await make('2024-04-08', 'none', 7),
      quiet: await make('2024-04-13', 'openpaygo', 2),
    };
    // An edited template is what the close renders, at its new version (spaces inside the braces too).
    const admin = await t.signedIn('admin');
    const edited = await admin.put('/api/message-templates', {
      key: 'overdue_day_1',
      body: 'Hi {{ firstName }}: {{contractNumber}} owes {{amountOverdue}} ({{daysOverdue}} day).',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const answer = await manager.post('/api/eod/run', { businessDate: TODAY });
    expect(answer.statusCode, answer.body).toBe(200);
    const run = answer.json<{ runs: EodRun[] }>().runs.find((r) => r.businessDate === TODAY);
    const step = run?.steps.find((s) => s.step === 'reminders');
    // The first contract (due 1 May, 14 days late) gets nothing; the quiet one's unit (lock after 2,
    // 2 days past due) gets a lock warning; day 3's lock-API unit (lock after 3) gets one too.
    expect(step?.counts).toEqual({ beforeDue: 1, overdue: 3, lockWarnings: 2 });
    expect(step?.note ?? null).toBeNull();
    const rows = await queryRows<{
      contract_id: string;
      template_key: string;
      body: string;
      source_id: string;
      template_version: number;
    }>(
      ctx().db,
      sql`SELECT contract_id, template_key, body, source_id, template_version FROM messages
          WHERE source_type = 'close_of_business' ORDER BY template_key, contract_id`,
    );
    const byContract = (id: string) => rows.filter((r) => r.contract_id === id).map((r) => r.template_key);
    expect(byContract(ids.beforeDue)).toEqual(['reminder_before_due']);
    expect(byContract(ids.day1)).toEqual(['overdue_day_1']);
    expect(byContract(ids.day3).sort()).toEqual(['lock_warning', 'overdue_day_3']);
    expect(byContract(ids.day7)).toEqual(['overdue_day_7']);
    expect(byContract(ids.quiet)).toEqual(['lock_warning']);
    expect(rows.every((r) => r.source_id === TODAY)).toBe(true);
    const before = rows.find((r) => r.contract_id === ids.beforeDue);
    expect(before?.body).toMatch(
      /^Hello Test, your payment of USD [\d,]+\.\d\d for CT-\d+ is due on 17 May 2024\./,
    );
    const day1 = rows.find((r) => r.contract_id === ids.day1);
    expect(day1?.body).toMatch(/^Hi Test: CT-\d+ owes USD [\d,]+\.\d\d \(1 day\)\.$/);
    expect(day1?.template_version).toBe(2);
    expect(rows.find((r) => r.template_key === 'lock_warning' && r.contract_id === ids.day3)?.body).toMatch(
      /is 3 days overdue \(USD [\d,]+\.\d\d\)\. Your device will be locked tomorrow/,
    );

    // A second run of the date changes nothing, and the step itself run again queues nothing.
    const again = await manager.post('/api/eod/run', { businessDate: TODAY });
    expect(again.statusCode).toBe(200);
    const org = await organisation(ctx(), ctx().db);
    const rerun = await withTransaction(ctx(), (tx) =>
      STEPS.reminders(tx, { date: TODAY, org, actor: SYSTEM_ACTOR }),
    );
    expect(rerun.counts).toEqual({ beforeDue: 0, overdue: 0, lockWarnings: 0 });
    const [count] = await queryRows<{ n: number }>(
      ctx().db,
      sql`SELECT count(*)::int AS n FROM messages WHERE source_type = 'close_of_business'`,
    );
    expect(count?.n).toBe(rows.length);
  });

  it('queues the token a payment issues as a message in the payment’s transaction', async () => {
    const unit = await insertActiveContract(ctx(), {
      principal: 20_000,
      apr: 12,
      frequency: 'monthly',
      term: 4,
      startDate: '2024-04-20',
      controlKind: 'openpaygo',
      customerName: ['Juma', 'Kariuki'],
    });
    // The fixture dates its activation by the real clock; the test's clock is in 2024.
    await ctx().db.execute(
      sql`UPDATE contracts SET activated_at = '2024-04-20T09:00:00Z' WHERE id = ${unit.id}`,
    );
    const agent = await t.signedIn('agent');
    const res = await agent.post('/api/payments', { contractId: unit.id, amount: 5_000, method: 'cash' });
    expect(res.statusCode, res.body).toBe(201);
    const token = res.json<{ payment: { id: string; token: { token: string } | null } }>().payment.token;
    expect(token).not.toBeNull();
    const listed = await agent.get(`/api/outbox?contractId=${unit.id}&template=token`);
    const [message] = listed.json<{ items: Message[] }>().items;
    expect(message).toMatchObject({
      status: 'queued',
      sourceType: 'payment',
      sourceId: res.json<{ payment: { id: string } }>().payment.id,
    });
    expect(message?.body).toContain(token?.token);
    expect(message?.body).toMatch(/^Hello Juma, your code for CT-\d+ is .+ \(\d+ days? of use\)/);
  });

  it('has a built-in template for every key, each using only the variables it is given; admins edit them', async () => {
    const agent = await t.signedIn('agent');
    const listed = await agent.get('/api/message-templates');
    expect(listed.statusCode).toBe(200);
    const templates = listed.json<{ items: MessageTemplate[] }>().items;
    expect([...new Set(templates.map((x) => x.key))]).toEqual([...TEMPLATE_KEYS]);
    for (const template of templates)
      expect(
        templateVariables(template.body).every((v) => variablesOf(template.key).includes(v)),
        template.key,
      ).toBe(true);

    expect(
      (await manager.put('/api/message-templates', { key: 'token', body: 'Code {{token}}' })).statusCode,
    ).toBe(403);
    const admin = await t.signedIn('admin');
    const unknown = await admin.put('/api/message-templates', {
      key: 'token',
      body: 'Code {{token}} for {{amount}}',
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual([
      { field: 'body', message: expect.stringContaining('{{amount}}') },
    ]);
    expect((await admin.put('/api/message-templates', { key: 'token', body: '  ' })).statusCode).toBe(400);
    // Any key may name a template staff created (issue 15): one that does not exist is not found.
    expect((await admin.put('/api/message-templates', { key: 'nope', body: 'x' })).statusCode).toBe(404);
    expect((await admin.put('/api/message-templates', { key: 'No such key!', body: 'x' })).statusCode).toBe(
      400,
    );
    const edited = await admin.put('/api/message-templates', {
      key: 'token',
      body: '{{firstName}}: code {{token}} for {{contractNumber}} ({{tokenDescription}}).',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ key: 'token', version: 2 });
    // New messages use the new text and record its version; earlier ones keep theirs.
    const id = (await queue({
      customerId: contract.customerId,
      contractId: contract.id,
      template: 'token',
      variables: { contractNumber: contract.number, token: '111 222 333', tokenDescription: '7 days of use' },
    })) as string;
    const [row] = await queryRows<{ body: string; template_version: number }>(
      ctx().db,
      sql`SELECT body, template_version FROM messages WHERE id = ${id}`,
    );
    expect(row).toEqual({
      body: `Amina: code 111 222 333 for ${contract.number} (7 days of use).`,
      template_version: 2,
    });
    const [audit] = await queryRows<{ entity_id: string }>(
      ctx().db,
      sql`SELECT entity_id FROM audit_log WHERE action = 'message_template.update' ORDER BY at DESC, id DESC LIMIT 1`,
    );
    expect(audit?.entity_id).toBe('token:sms:en');
  });

  it('runs as the registered job whenever messages are due, through the console provider', async () => {
    await clearQueue();
    expect(await dueMessagesKey(ctx())).toBe('idle');
    const id = (await queue(reminder())) as string;
    expect(await dueMessagesKey(ctx())).toBe(new Date(NOON).toISOString().slice(0, 16));
    await t.app.jobs.start();
    const run = await eventually(async () => {
      await t.app.jobs.tick();
      // The first run (the list is newest first): once it has sent, the key turns idle and a tick
      // may start one more run, which finds nothing.
      const first = (await runsOf(ctx().db, sendMessagesJob.name)).at(-1);
      return first?.state === 'completed' ? first : undefined;
    }, 'a run of the sender');
    expect(run.counts).toMatchObject({ sent: 1 });
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await dueMessagesKey(ctx())).toBe('idle');
  });
});
