import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkSend, Segment, TemplatePreview, TemplateVersion } from '../../src/contracts/communications';
import type { Page } from '../../src/contracts/lists';
import type { Message, MessageTemplate } from '../../src/contracts/messages';
import { queryRows } from '../../src/db/client';
import { messageDate, messageMoney, smsSegments } from '../../src/domain';
import { queueDueBulkSends } from '../../src/server/modules/messages/bulk-job';
import { organisation } from '../../src/server/organisation';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { insertActiveContract } from '../support/fixtures';

const TODAY = '2024-05-15';
const NOON = Date.parse(`${TODAY}T12:00:00Z`);
const BODY = 'Hi {{firstName}}, pay {{amountDue}} by {{dueDate}} to paybill {{payBill}} account {{account}}.';

describe.each(DATABASE_KINDS)('communications on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let collector: TestClient;
  let contract: { id: string; number: string; customerId: string };

  const ctx = () => t.app.ctx;
  const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(ctx().db, query))[0] as T;
  const audits = async (action: string) =>
    (await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log WHERE action = ${action}`)).n;
  const preview = async (customerId: string, key = 'harvest_offer', body?: string) => {
    const response = await admin.post('/api/message-templates/preview', {
      key,
      customerId,
      ...(body ? { body } : {}),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TemplatePreview>();
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.ms = NOON;
    await organisation(ctx(), ctx().db);
    admin = await t.signedIn('admin');
    collector = await t.signedIn('collector');
    const inserted = await insertActiveContract(ctx(), {
      principal: 30_000,
      apr: 24,
      frequency: 'monthly',
      term: 6,
      startDate: '2024-04-01',
      customerName: ['Amina', 'Otieno'],
    });
    const owner = await one<{ customer_id: string }>(
      sql`SELECT customer_id FROM contracts WHERE id = ${inserted.id}`,
    );
    contract = { ...inserted, customerId: owner.customer_id };
    await ctx().db.execute(
      sql`UPDATE customers SET consent_sms_at = now(), region = 'Coast' WHERE id = ${contract.customerId}`,
    );
  });
  afterAll(() => t.close());

  it('creates a template, edits it (versions, audited) and restores an earlier version', async () => {
    const created = await admin.post('/api/message-templates', { name: 'Harvest offer', body: BODY });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<MessageTemplate>()).toMatchObject({
      key: 'harvest_offer',
      channel: 'sms',
      language: 'en',
      name: 'Harvest offer',
      builtin: false,
      version: 1,
    });
    // The same key, channel and language again is a conflict.
    expect(
      (await admin.post('/api/message-templates', { name: 'Harvest offer', body: BODY })).statusCode,
    ).toBe(409);

    const edited = await admin.put('/api/message-templates', {
      key: 'harvest_offer',
      body: `${BODY} Thanks!`,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<MessageTemplate>().version).toBe(2);

    const versions = await admin.get(
      '/api/message-templates/versions?key=harvest_offer&channel=sms&language=en',
    );
    const items = versions.json<{ items: TemplateVersion[] }>().items;
    expect(items.map((v) => [v.version, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(items[1]?.body).toBe(BODY);

    const restored = await admin.post('/api/message-templates/restore', {
      key: 'harvest_offer',
      channel: 'sms',
      language: 'en',
      version: 1,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<MessageTemplate>()).toMatchObject({ version: 3, body: BODY });
    expect(await audits('message_template.create')).toBe(1);
    expect(await audits('message_template.update')).toBe(1);
    expect(await audits('message_template.restore')).toBe(1);

    // Staff who send messages do not write templates.
    expect((await collector.post('/api/message-templates', { name: 'Other', body: 'x' })).statusCode).toBe(
      403,
    );
  });

  it('refuses an unknown variable with a 422 on body, and a new key in another language first', async () => {
    const unknown = await admin.post('/api/message-templates', { name: 'Bad one', body: 'Code {{token}}' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json<{ errors: { field: string; message: string }[] }>().errors[0]).toMatchObject({
      field: 'body',
      message: expect.stringContaining('{{token}}'),
    });
    const edit = await admin.put('/api/message-templates', { key: 'harvest_offer', body: 'Hi {{nickname}}' });
    expect(edit.statusCode).toBe(422);
    const swahiliFirst = await admin.post('/api/message-templates', {
      name: 'Only Swahili',
      language: 'sw',
      body: 'Habari {{firstName}}',
    });
    expect(swahiliFirst.statusCode).toBe(422);
    expect(swahiliFirst.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('language');
    const email = await admin.post('/api/message-templates', { name: 'Mail', channel: 'email', body: 'Hi' });
    expect(email.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('subject');
  });

  it('adds a language to a key; deletes a custom one, never a built-in', async () => {
    const swahili = await admin.post('/api/message-templates', {
      name: 'Harvest offer',
      key: 'harvest_offer',
      language: 'sw',
      body: 'Habari {{firstName}}, lipa {{amountDue}} kabla ya {{dueDate}}, paybill {{payBill}} akaunti {{account}}.',
    });
    expect(swahili.statusCode, swahili.body).toBe(201);
    const list = (await admin.get('/api/message-templates')).json<{ items: MessageTemplate[] }>().items;
    expect(list.filter((row) => row.key === 'harvest_offer').map((row) => row.language)).toEqual([
      'en',
      'sw',
    ]);

    const builtin = await admin.delete('/api/message-templates?key=receipt&channel=sms&language=en');
    expect(builtin.statusCode).toBe(409);
    // English goes last: the other languages fall back to it.
    expect(
      (await admin.delete('/api/message-templates?key=harvest_offer&channel=sms&language=en')).statusCode,
    ).toBe(409);
    await admin.post('/api/message-templates', { name: 'Temporary', body: 'Bye {{firstName}}' });
    const deleted = await admin.delete('/api/message-templates?key=temporary&channel=sms&language=en');
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await audits('message_template.delete')).toBe(1);
  });

  it('previews a template on a real customer: their figures, segments and cost', async () => {
    await ctx().db.execute(sql`UPDATE messaging_settings SET sms_cost_per_segment = 80`);
    const org = await organisation(ctx(), ctx().db);
    // The next due date as stored, or (a fixture's contract has none yet) the first unpaid from today.
    const c = await one<{ next_due_date: string; outstanding_total: number }>(
      sql`SELECT to_char(coalesce(next_due_date, (SELECT min(due_date) FROM contract_installments
                   WHERE contract_id = ${contract.id} AND settled_at IS NULL AND due_date >= ${TODAY}::date)),
                 'YYYY-MM-DD') AS next_due_date, outstanding_total::float8 AS outstanding_total
          FROM contracts c JOIN contract_figures f ON f.contract_id = c.id WHERE c.id = ${contract.id}`,
    );
    const due = await one<{ amount: number }>(
      sql`SELECT coalesce(sum(principal_due - principal_paid + interest_due - interest_paid + fee_due - fee_paid
                              + penalty_due - penalty_paid), 0)::float8 AS amount
          FROM contract_installments WHERE contract_id = ${contract.id} AND settled_at IS NULL
            AND due_date <= ${TODAY}::date`,
    );
    const shown = await preview(contract.customerId);
    const amountDue = messageMoney(due.amount, org.currency);
    expect(due.amount).toBeGreaterThan(0);
    expect(shown.variables).toMatchObject({
      firstName: 'Amina',
      lastName: 'Otieno',
      contractNumber: contract.number,
      dueDate: messageDate(c.next_due_date),
      balance: messageMoney(c.outstanding_total, org.currency),
      amountDue,
      payBill: '174379',
      account: contract.number,
    });
    expect(shown.body).toBe(
      `Hi Amina, pay ${amountDue} by ${messageDate(c.next_due_date)} to paybill 174379 account ${contract.number}.`,
    );
    expect(shown.language).toBe('en');
    const expected = smsSegments(shown.body);
    expect(shown.sms).toMatchObject({
      encoding: 'GSM-7',
      segments: expected.segments,
      costMinor: 80 * expected.segments,
    });

    // A longer unsaved text in UCS-2: three parts, three times the cost.
    const long = await preview(
      contract.customerId,
      'harvest_offer',
      `Habari {{firstName}} ✓ ${'x'.repeat(150)}`,
    );
    expect(long.sms).toMatchObject({
      encoding: 'UCS-2',
      segments: 3,
      costMinor: 240,
      currency: org.currency,
    });
  });

  it('falls back to English when the customer’s language lacks the template, in TypeScript and SQL alike', async () => {
    const people: { id: string; language: string }[] = [];
    for (const [first, language] of [
      ['Baraka', 'sw'],
      ['Claire', 'fr'],
    ] as const) {
      const inserted = await insertActiveContract(ctx(), {
        principal: 20_000,
        apr: 24,
        frequency: 'monthly',
        term: 4,
        startDate: '2024-04-01',
        customerName: [first, 'Fallback'],
      });
      const owner = await one<{ customer_id: string }>(
        sql`SELECT customer_id FROM contracts WHERE id = ${inserted.id}`,
      );
      await ctx().db.execute(
        sql`UPDATE customers SET language = ${language}, region = 'Fallback', consent_sms_at = now()
            WHERE id = ${owner.customer_id}`,
      );
      people.push({ id: owner.customer_id, language });
    }
    const previews = await Promise.all(people.map((person) => preview(person.id)));
    expect(previews.map((p) => p.language)).toEqual(['sw', 'en']);
    expect(previews[0]?.body).toMatch(/^Habari Baraka/);
    expect(previews[1]?.body).toMatch(/^Hi Claire/);

    const created = await collector.post('/api/bulk-sends', {
      name: 'Fallback check',
      filter: { regions: ['Fallback'] },
      templateKey: 'harvest_offer',
    });
    expect(created.statusCode, created.body).toBe(201);
    const bulk = created.json<BulkSend>();
    expect(await queueDueBulkSends(ctx())).toEqual({ bulkSends: 1, queued: 2 });
    for (const [i, person] of people.entries()) {
      const row = await one<{ body: string }>(
        sql`SELECT body FROM messages WHERE bulk_send_id = ${bulk.id} AND customer_id = ${person.id}`,
      );
      expect(row.body).toBe(previews[i]?.body);
    }
  });

  it('sends a single message rendered for the customer, audited, and shows it in the outbox', async () => {
    const expected = await preview(contract.customerId);
    const sent = await collector.post('/api/messages/send', {
      customerId: contract.customerId,
      contractId: contract.id,
      channel: 'sms',
      templateKey: 'harvest_offer',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const { message } = sent.json<{ message: Message }>();
    expect(message).toMatchObject({
      customerId: contract.customerId,
      customerName: 'Amina Otieno',
      contractId: contract.id,
      template: 'harvest_offer',
      status: 'queued',
      body: expected.body,
    });
    expect(await audits('message.send')).toBe(1);

    const free = await collector.post('/api/messages/send', {
      customerId: contract.customerId,
      body: 'Please call the office.',
    });
    expect(free.statusCode, free.body).toBe(201);
    expect(free.json<{ message: Message }>().message).toMatchObject({
      template: 'staff_message',
      body: 'Please call the office.',
    });
    const builtin = await collector.post('/api/messages/send', {
      customerId: contract.customerId,
      templateKey: 'receipt',
    });
    expect(builtin.statusCode).toBe(422);
    const both = await collector.post('/api/messages/send', { customerId: contract.customerId });
    expect(both.statusCode).toBe(400);

    const outbox = await collector.get(
      `/api/outbox?template=harvest_offer&customerId=${contract.customerId}&from=${TODAY}`,
    );
    expect(outbox.statusCode, outbox.body).toBe(200);
    expect(outbox.json<Page<Message>>().items.map((m) => m.id)).toContain(message.id);
    const none = await collector.get(`/api/outbox?template=harvest_offer&to=2024-05-14`);
    expect(none.json<Page<Message>>().total).toBe(0);
  });

  it('retries a failed message: queued again with its attempts reset, audited', async () => {
    const row = await one<{ id: string }>(
      sql`UPDATE messages SET status = 'failed', attempts = 5, failure_reason = 'Gateway down', next_attempt_at = NULL
          WHERE id = (SELECT id FROM messages WHERE template_key = 'staff_message' LIMIT 1) RETURNING id`,
    );
    const retried = await collector.post(`/api/outbox/${row.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json<{ message: Message }>().message).toMatchObject({ status: 'queued', attempts: 0 });
    expect((await collector.post(`/api/outbox/${row.id}/retry`)).statusCode).toBe(409);
    expect(await audits('message.retry')).toBe(1);
  });

  it('saves segments, counts them, and cancels a scheduled bulk send', async () => {
    const created = await collector.post('/api/segments', {
      name: 'Coast customers',
      filter: { regions: ['Coast'], buckets: ['current'], dpdMin: 0, dpdMax: 30 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const segment = created.json<Segment>();
    expect(segment.customers).toBe(1);
    expect((await collector.post('/api/segments', { name: 'coast CUSTOMERS', filter: {} })).statusCode).toBe(
      409,
    );
    const bad = await collector.post('/api/segments', { name: 'Bad', filter: { dpdMin: 9, dpdMax: 3 } });
    expect(bad.statusCode).toBe(400);
    const count = await collector.post('/api/segments/count', { filter: { regions: ['Fallback'] } });
    expect(count.json<{ customers: number }>().customers).toBe(2);
    const updated = await collector.put(`/api/segments/${segment.id}`, {
      name: 'Coast, late',
      filter: { regions: ['Coast'], dpdMin: 60 },
    });
    expect(updated.json<Segment>()).toMatchObject({ name: 'Coast, late', customers: 0 });

    const later = await collector.post('/api/bulk-sends', {
      name: 'Tomorrow',
      segmentId: segment.id,
      templateKey: 'harvest_offer',
      scheduledAt: new Date(NOON + 86_400_000).toISOString(),
    });
    expect(later.statusCode, later.body).toBe(201);
    const cancelled = await collector.post(`/api/bulk-sends/${later.json<BulkSend>().id}/cancel`);
    expect(cancelled.json<BulkSend>().status).toBe('cancelled');
    expect((await collector.post(`/api/bulk-sends/${later.json<BulkSend>().id}/cancel`)).statusCode).toBe(
      409,
    );
    const list = (await collector.get('/api/bulk-sends')).json<{ items: BulkSend[] }>().items;
    expect(Object.fromEntries(list.map((b) => [b.name, b.status]))).toEqual({
      Tomorrow: 'cancelled',
      'Fallback check': 'queued',
    });
    expect(list.find((b) => b.name === 'Fallback check')?.progress.queued).toBe(2);

    expect((await collector.delete(`/api/segments/${segment.id}`)).statusCode).toBe(200);
    expect(await audits('segment.delete')).toBe(1);
  });

  it('filters a segment by tag: any one of its tags, with the other parts, as the customer form saves them', async () => {
    const before = await collector.get(`/api/customers/${contract.customerId}`);
    const tagged = await admin.patch(`/api/customers/${contract.customerId}`, {
      version: before.json<{ version: number }>().version,
      tags: ['Fund-A', 'harvest', 'fund-a'],
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect(tagged.json<{ tags: string[] }>().tags).toEqual(['fund-a', 'harvest']);
    const count = async (filter: Record<string, unknown>) =>
      (await collector.post('/api/segments/count', { filter })).json<{ customers: number }>().customers;
    expect(await count({ tags: ['fund-a'] })).toBe(1);
    expect(await count({ tags: ['fund-b', 'harvest'] })).toBe(1);
    expect(await count({ tags: ['fund-b'] })).toBe(0);
    expect(await count({ tags: ['fund-a'], regions: ['Coast'], buckets: ['current'] })).toBe(1);
    expect(await count({ tags: ['fund-a'], regions: ['Fallback'] })).toBe(0);
    const bad = await collector.post('/api/segments/count', { filter: { tags: ['two words'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('no spaces');
    expect((await collector.get('/api/customers/tags')).json<string[]>()).toEqual(['fund-a', 'harvest']);
    const listed = await collector.get('/api/customers?tag=harvest');
    expect(listed.json<{ items: Array<{ id: string }> }>().items.map((c) => c.id)).toEqual([
      contract.customerId,
    ]);
  });
});
