import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkPreview, BulkSend } from '../../src/contracts/communications';
import { MESSAGE_MAX_ATTEMPTS, MESSAGE_RETRY_MINUTES } from '../../src/contracts/messages';
import { queryRows } from '../../src/db/client';
import { dueBulkSendsKey, queueDueBulkSends } from '../../src/server/modules/messages/bulk-job';
import type { MessageProvider } from '../../src/server/modules/messages/provider';
import { sendDueMessages } from '../../src/server/modules/messages/sender';
import { organisation } from '../../src/server/organisation';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

/**
 * Issue 15: a bulk send to 10,000 customers. Every tenth has not consented to SMS (excluded and
 * counted); every seventh reads Swahili. The organisation is in UTC with quiet hours 20:00–08:00.
 */
const CUSTOMERS = 10_000;
const CONSENTING = 9_000;
const NOON = Date.parse('2024-05-15T12:00:00Z');
/** In quiet hours. */
const NIGHT = Date.parse('2024-05-15T21:00:00Z');
const MORNING = Date.parse('2024-05-16T08:00:00Z');
const RATE = 600;

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

function failingProvider(reason: string): MessageProvider & { calls: number } {
  const provider = {
    name: 'failing',
    calls: 0,
    async send() {
      provider.calls += 1;
      return { ok: false as const, reason, retryable: true };
    },
  };
  return provider;
}

describe.each(DATABASE_KINDS)('a bulk send to 10,000 customers on %s', (kind) => {
  let t: TestApp;
  let staff: TestClient;
  let bulk: BulkSend;

  const ctx = () => t.app.ctx;
  const count = async (where: ReturnType<typeof sql>) =>
    (await queryRows<{ n: number }>(ctx().db, sql`SELECT count(*)::int AS n FROM messages WHERE ${where}`))[0]
      ?.n;
  const request = (scheduledAt: number) => ({
    name: 'Solar lamps',
    filter: { regions: ['Bulkland'] },
    templateKey: 'lamp_offer',
    scheduledAt: new Date(scheduledAt).toISOString(),
    ratePerMinute: RATE,
  });

  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.ms = NOON;
    const org = await organisation(ctx(), ctx().db);
    expect([org.timeZone, org.quietHoursStart, org.quietHoursEnd]).toEqual(['UTC', '20:00', '08:00']);
    staff = await t.signedIn('admin');
    await ctx().db.execute(
      sql`INSERT INTO customers (id, account_number, first_name, last_name, phone, region, language, consent_sms_at)
          SELECT gen_random_uuid()::text, 'B-' || g, 'Bulk' || g, 'Customer', '+2547' || lpad(g::text, 8, '0'),
                 'Bulkland', CASE WHEN g % 7 = 0 THEN 'sw' ELSE 'en' END,
                 CASE WHEN g % 10 = 0 THEN NULL ELSE now() END
          FROM generate_series(1, ${CUSTOMERS}) AS g`,
    );
    for (const [language, body] of [
      ['en', 'Hello {{firstName}}, new solar lamps are in. Pay to {{payBill}}, account {{account}}.'],
      ['sw', 'Habari {{firstName}}, taa mpya za jua zimefika. Lipa {{payBill}}, akaunti {{account}}.'],
    ]) {
      const created = await staff.post('/api/message-templates', {
        name: 'Lamp offer',
        key: 'lamp_offer',
        language,
        body,
      });
      expect(created.statusCode, created.body).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('counts before confirming: who receives it, who has no consent, who quiet hours hold', async () => {
    const preview = async (at: number) => {
      const response = await staff.post('/api/bulk-sends/preview', request(at));
      expect(response.statusCode, response.body).toBe(200);
      return response.json<BulkPreview>();
    };
    const day = await preview(NOON);
    expect(day).toMatchObject({
      inSegment: CUSTOMERS,
      recipients: CONSENTING,
      excludedConsent: CUSTOMERS - CONSENTING,
      heldByQuietHours: 0,
      heldUntil: null,
      ratePerMinute: RATE,
      // 9,000 at 600 a minute: the last 14 min 59 s after the start.
      lastAt: new Date(NOON + 899_000).toISOString(),
    });
    expect(day.sample?.body).toMatch(/^(Hello Bulk\d+, new solar lamps|Habari Bulk\d+, taa mpya)/);
    // Starting at 19:50: ten minutes (6,000) before quiet hours, the other 3,000 wait for 08:00.
    const evening = await preview(Date.parse('2024-05-15T19:50:00Z'));
    expect(evening).toMatchObject({ heldByQuietHours: 3_000, heldUntil: new Date(MORNING).toISOString() });
    const night = await preview(NIGHT);
    expect(night).toMatchObject({ heldByQuietHours: CONSENTING, heldUntil: new Date(MORNING).toISOString() });
  });

  it('queues it in one statement when due: consenting customers only, in their language, spread by the rate', async () => {
    const created = await staff.post('/api/bulk-sends', request(NIGHT));
    expect(created.statusCode, created.body).toBe(201);
    bulk = created.json<BulkSend>();
    expect(bulk).toMatchObject({ status: 'scheduled', recipients: CONSENTING, excludedConsent: 1_000 });
    // Not due yet.
    expect(await dueBulkSendsKey(ctx())).toBe('idle');
    expect(await queueDueBulkSends(ctx())).toEqual({ bulkSends: 0, queued: 0 });

    t.clock.ms = NIGHT;
    expect(await dueBulkSendsKey(ctx())).toBe('2024-05-15T21:00');
    const started = performance.now();
    expect(await queueDueBulkSends(ctx())).toEqual({ bulkSends: 1, queued: CONSENTING });
    console.info(`${kind}: ${CONSENTING} queued in ${Math.round(performance.now() - started)} ms`);

    expect(await count(sql`bulk_send_id = ${bulk.id}`)).toBe(CONSENTING);
    expect(
      await count(
        sql`bulk_send_id = ${bulk.id} AND customer_id IN (SELECT id FROM customers WHERE consent_sms_at IS NULL)`,
      ),
    ).toBe(0);
    const swahili = Math.floor(CUSTOMERS / 7) - Math.floor(CUSTOMERS / 70);
    expect(await count(sql`bulk_send_id = ${bulk.id} AND body LIKE 'Habari %'`)).toBe(swahili);
    expect(await count(sql`bulk_send_id = ${bulk.id} AND body LIKE 'Hello %'`)).toBe(CONSENTING - swahili);

    // Throttled: at most RATE in any minute from the start, the last 899 s after it.
    const [spread] = await queryRows<{ busiest: number; first: string; last: string }>(
      ctx().db,
      sql`SELECT max(n)::int AS busiest, min(f) AS first, max(l) AS last FROM (
            SELECT count(*) AS n, min(next_attempt_at) AS f, max(next_attempt_at) AS l FROM messages
            WHERE bulk_send_id = ${bulk.id} GROUP BY date_trunc('minute', next_attempt_at)) per_minute`,
    );
    expect(spread?.busiest).toBe(RATE);
    expect(new Date(spread?.first as string).getTime()).toBe(NIGHT);
    expect(new Date(spread?.last as string).getTime()).toBe(NIGHT + 899_000);
  });

  it('queues nobody twice when the job runs again (a restart mid-way)', async () => {
    await ctx().db.execute(sql`UPDATE bulk_sends SET status = 'scheduled' WHERE id = ${bulk.id}`);
    expect(await queueDueBulkSends(ctx())).toEqual({ bulkSends: 1, queued: 0 });
    expect(await count(sql`dedupe_key LIKE ${`bulk:${bulk.id}:%`}`)).toBe(CONSENTING);
    const [distinct] = await queryRows<{ n: number }>(
      ctx().db,
      sql`SELECT count(DISTINCT customer_id)::int AS n FROM messages WHERE bulk_send_id = ${bulk.id}`,
    );
    expect(distinct?.n).toBe(CONSENTING);
    // The clock moved on nine hours: a new session.
    staff = await t.signedIn('admin');
    const listed = await staff.get('/api/bulk-sends');
    expect(listed.statusCode, listed.body).toBe(200);
    const list = listed.json<{ items: BulkSend[] }>().items;
    expect(list[0]).toMatchObject({ id: bulk.id, status: 'queued', queued: CONSENTING });
    expect(list[0]?.progress).toEqual({ queued: CONSENTING, sent: 0, delivered: 0, failed: 0, skipped: 0 });
  });

  it('sends nothing in quiet hours: the sender holds what is due until they end', async () => {
    t.clock.ms = NIGHT + 30_000;
    // Due by then: floor(n × 60 / 600) ≤ 30 s, n = 0 … 309.
    const due = 310;
    expect(
      await count(
        sql`bulk_send_id = ${bulk.id} AND next_attempt_at <= ${new Date(t.clock.ms).toISOString()}::timestamptz`,
      ),
    ).toBe(due);
    const provider = recordingProvider();
    const run = await sendDueMessages(ctx(), provider);
    expect(provider.sent).toEqual([]);
    expect(run.sent).toBe(0);
    expect(await count(sql`bulk_send_id = ${bulk.id} AND status <> 'queued'`)).toBe(0);
    expect(
      await count(
        sql`bulk_send_id = ${bulk.id} AND next_attempt_at = ${new Date(MORNING).toISOString()}::timestamptz`,
      ),
    ).toBe(due);
  });

  it('retries a failing provider by the policy, then marks the message failed with the reason', async () => {
    // Twenty of the held messages go first; the rest are moved a day on, out of this test's way.
    await ctx().db.execute(
      sql`UPDATE messages SET next_attempt_at = next_attempt_at + interval '2 days'
          WHERE bulk_send_id = ${bulk.id} AND id NOT IN (
            SELECT id FROM messages WHERE bulk_send_id = ${bulk.id} ORDER BY next_attempt_at, id LIMIT 20)`,
    );
    const provider = failingProvider('Gateway timeout');
    t.clock.ms = MORNING;
    for (let attempt = 1; attempt <= MESSAGE_MAX_ATTEMPTS; attempt += 1) {
      const before = provider.calls;
      await sendDueMessages(ctx(), provider);
      expect(provider.calls - before).toBe(20);
      const [row] = await queryRows<{
        attempts: number;
        status: string;
        next: string | null;
        reason: string;
      }>(
        ctx().db,
        sql`SELECT min(attempts)::int AS attempts, min(status) AS status, min(next_attempt_at)::text AS next,
                   min(failure_reason) AS reason
            FROM messages WHERE bulk_send_id = ${bulk.id} AND attempts > 0`,
      );
      expect(row?.attempts).toBe(attempt);
      expect(row?.reason).toBe('Gateway timeout');
      if (attempt < MESSAGE_MAX_ATTEMPTS) {
        const wait = MESSAGE_RETRY_MINUTES[attempt - 1] as number;
        expect(row?.status).toBe('queued');
        expect(new Date(row?.next as string).getTime()).toBe(t.clock.ms + wait * 60_000);
        // Nothing goes before the back-off is over.
        t.clock.ms += wait * 60_000 - 1_000;
        await sendDueMessages(ctx(), provider);
        expect(provider.calls - before).toBe(20);
        t.clock.ms += 1_000;
      } else {
        expect(row?.status).toBe('failed');
      }
    }
    expect(await count(sql`bulk_send_id = ${bulk.id} AND status = 'failed'`)).toBe(20);
    staff = await t.signedIn('admin');
    const progress = (await staff.get('/api/bulk-sends')).json<{ items: BulkSend[] }>().items[0]?.progress;
    expect(progress).toMatchObject({ failed: 20, queued: CONSENTING - 20 });
  });
});
