import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MESSAGE_MAX_ATTEMPTS,
  MESSAGE_RETRY_MINUTES,
  type MessageChannel,
} from '../../src/contracts/messages';
import { queryRows } from '../../src/db/client';
import type {
  MessageProvider,
  OutgoingMessage,
  ProviderSet,
} from '../../src/server/modules/messages/provider';
import { providerFor, rateOf } from '../../src/server/modules/messages/providers';
import { simulatorProvider } from '../../src/server/modules/messages/providers/simulator';
import type { Timer } from '../../src/server/modules/messages/rate-window';
import { LEASE_MS, sendDueMessages } from '../../src/server/modules/messages/sender';
import { readMessagingSettings, SECRET_PURPOSES } from '../../src/server/modules/messages/settings';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { FakeSmsGateway } from '../support/fake-sms';
import { insertActiveContract } from '../support/fixtures';

const NOON = Date.parse('2024-05-15T12:00:00Z');

/**
 * Virtual time for the rate limiter: a sleep wakes (on the next turn of the event loop, after
 * everything already running) with the clock moved to its end, never backwards.
 */
function fakeTimer(): Timer & { ms: number } {
  const timer = {
    ms: 0,
    now: () => timer.ms,
    sleep: (ms: number) => {
      const until = timer.ms + ms;
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          timer.ms = Math.max(timer.ms, until);
          resolve();
        }),
      );
    },
  };
  return timer;
}

/** Records each message it is given, with the limiter's time, and answers sent. */
function recordingProvider(timer?: Timer): MessageProvider & { calls: (OutgoingMessage & { at: number })[] } {
  const provider = {
    name: 'recording',
    calls: [] as (OutgoingMessage & { at: number })[],
    async send(message: OutgoingMessage) {
      provider.calls.push({ ...message, at: timer?.now() ?? 0 });
      return { ok: true as const, providerReference: `R-${message.id}`, delivered: false };
    },
  };
  return provider;
}

describe.each(DATABASE_KINDS)('the outbox sender on %s', (kind) => {
  let t: TestApp;
  let customerId: string;
  let contractId: string;
  const ctx = () => t.app.ctx;

  /** Queues `n` messages straight into the outbox (the sender's input), due now. */
  const insert = async (
    n: number,
    over: {
      channel?: MessageChannel;
      template?: string;
      customerId?: string | null;
      recipient?: string;
    } = {},
  ): Promise<string[]> => {
    const ids = Array.from({ length: n }, () => randomUUID());
    const now = new Date(t.clock.ms).toISOString();
    await ctx().db.execute(sql`
      INSERT INTO messages (id, customer_id, contract_id, channel, recipient, template_key, template_version, body,
                            status, next_attempt_at, dedupe_key, created_at, updated_at, subject)
      SELECT id, ${over.customerId === undefined ? customerId : over.customerId}, ${over.customerId === null ? null : contractId},
             ${over.channel ?? 'sms'}, ${over.recipient ?? '+254700000100'}, ${over.template ?? 'overdue_day_1'}, 1,
             'Hello, body ' || id, 'queued', ${now}::timestamptz, id, ${now}::timestamptz, ${now}::timestamptz,
             'A subject'
      FROM unnest(${sql.param(ids)}::text[]) AS id`);
    return ids;
  };
  const rowsOf = (ids: string[]) =>
    queryRows<{
      id: string;
      status: string;
      attempts: number;
      next_attempt_at: string | null;
      skipped_reason: string | null;
      failure_reason: string | null;
    }>(
      ctx().db,
      sql`SELECT id, status, attempts, next_attempt_at::text, skipped_reason, failure_reason
          FROM messages WHERE id = ANY(${sql.param(ids)}::text[])`,
    );
  const setting = (assignments: ReturnType<typeof sql>) =>
    ctx().db.execute(sql`UPDATE messaging_settings SET ${assignments} WHERE id = 'default'`);

  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.ms = NOON;
    const contract = await insertActiveContract(ctx(), {
      principal: 10_000,
      apr: 12,
      frequency: 'monthly',
      term: 3,
      startDate: '2024-04-01',
    });
    contractId = contract.id;
    const [row] = await queryRows<{ customer_id: string }>(
      ctx().db,
      sql`SELECT customer_id FROM contracts WHERE id = ${contract.id}`,
    );
    customerId = row?.customer_id as string;
    await ctx().db.execute(
      sql`UPDATE customers SET consent_sms_at = now(), consent_whatsapp_at = now(), consent_email_at = now(),
                               email = 'amina@example.com'
          WHERE id = ${customerId}`,
    );
  });
  beforeEach(async () => {
    t.clock.ms = NOON;
    // Each test sees only its own messages.
    await ctx().db.execute(
      sql`UPDATE messages SET status = 'failed', next_attempt_at = NULL WHERE status = 'queued'`,
    );
    // The limiter's time is real unless a test gives its own: at the default 50 a second, the
    // retries' 200 sends and their retries waited 5 s. The rate-limit test sets its own rates.
    await setting(sql`sms_provider = 'simulator', simulator_failure_rate = 0, sms_rate_per_second = 10000`);
  });
  afterAll(() => t.close());

  it('never starts more sends per second than the channel’s rate limit in the settings', async () => {
    await setting(sql`sms_rate_per_second = 7, whatsapp_rate_per_second = 3`);
    const row = await readMessagingSettings(ctx().db);
    // One channel at a time, each on its own virtual clock (two channels on one virtual clock would
    // move each other's time while one waits for the database).
    for (const [channel, rate, n] of [
      ['sms', 7, 40],
      ['whatsapp', 3, 10],
    ] as const) {
      const ids = await insert(n, { channel });
      const timer = fakeTimer();
      const provider = recordingProvider(timer);
      const set: ProviderSet = {
        providerFor: () => provider,
        ratePerSecond: (c) => rateOf(row, c),
        close: async () => {},
      };
      expect(await sendDueMessages(ctx(), set, { timer })).toMatchObject({ sent: n });
      const times = provider.calls.map((call) => call.at);
      expect(provider.calls.map((call) => call.id).sort()).toEqual([...ids].sort());
      // Any `rate + 1` consecutive starts span at least a second: no one-second window holds more than `rate`.
      for (let i = rate; i < times.length; i += 1)
        expect((times[i] as number) - (times[i - rate] as number)).toBeGreaterThanOrEqual(1000);
      // And it does not dawdle: 40 at 7 a second take about 5 seconds of (virtual) time.
      expect(Math.max(...times)).toBeLessThanOrEqual(Math.ceil(n / rate) * 1000);
    }
  });

  it('retries simulated failures after 1, 5, 30 and 120 minutes, then fails with the reason', async () => {
    await setting(sql`simulator_failure_rate = 1`);
    const [id] = (await insert(1)) as [string];
    let at = NOON;
    for (let attempt = 1; attempt <= MESSAGE_MAX_ATTEMPTS; attempt += 1) {
      t.clock.ms = at;
      const run = await sendDueMessages(ctx());
      const [row] = await rowsOf([id]);
      expect(row).toMatchObject({
        attempts: attempt,
        failure_reason: expect.stringContaining('Simulated failure'),
      });
      if (attempt === MESSAGE_MAX_ATTEMPTS) {
        expect(run).toMatchObject({ failed: 1 });
        expect(row).toMatchObject({ status: 'failed', next_attempt_at: null });
        break;
      }
      expect(run).toMatchObject({ retrying: 1 });
      const wait = (MESSAGE_RETRY_MINUTES[attempt - 1] as number) * 60_000;
      expect(new Date(row?.next_attempt_at as string).getTime()).toBe(at + wait);
      t.clock.ms = at + wait - 1;
      expect(await sendDueMessages(ctx())).toMatchObject({ retrying: 0, failed: 0, sent: 0 });
      at += wait;
    }
    // At a partial rate the same attempts fail on every run (deterministic), and retries get through.
    await setting(sql`simulator_failure_rate = 0.5`);
    const many = await insert(200);
    const first = await sendDueMessages(ctx());
    expect(first.sent + first.retrying).toBe(200);
    expect(first.retrying).toBeGreaterThan(60);
    expect(first.retrying).toBeLessThan(140);
    // Exactly the attempts the simulator's hash fails, whichever run makes them.
    const simulator = simulatorProvider({ failureRate: 0.5 });
    const expected = new Set<string>();
    for (const id of many)
      if (!(await simulator.send({ id, channel: 'sms', recipient: '+1', body: '', attempt: 1 })).ok)
        expected.add(id);
    const retrying = (await rowsOf(many)).filter((r) => r.status === 'queued').map((r) => r.id);
    expect(new Set(retrying)).toEqual(expected);
    t.clock.ms += 60_000;
    const second = await sendDueMessages(ctx());
    expect(second.sent).toBeGreaterThan(0);
    expect(second.sent + second.retrying).toBe(expected.size);
  });

  it('sends no message of a 10,000 send twice when the app is killed mid-send and restarted', async () => {
    const TOTAL = 10_000;
    const KILL_AT = 4_000;
    const gateway = new FakeSmsGateway();
    await gateway.start();
    try {
      await setting(sql`sms_provider = 'http', sms_url = ${gateway.url}, sms_username = ${gateway.username},
                        sms_api_key = ${ctx().keyring.encrypt(SECRET_PURPOSES.smsApiKey, gateway.apiKey)},
                        sms_rate_per_second = 10000`);
      const ids = await insert(TOTAL);
      const row = await readMessagingSettings(ctx().db);
      const real = providerFor(ctx(), row, 'sms');
      // The "process" dies right after the gateway has taken its 4,000th message.
      const kill = new AbortController();
      let calls = 0;
      const dying: ProviderSet = {
        providerFor: () => ({
          name: real.name,
          async send(message) {
            const result = await real.send(message);
            calls += 1;
            if (calls === KILL_AT) kill.abort();
            return result;
          },
        }),
        ratePerSecond: () => 10_000,
        close: async () => {},
      };
      await expect(sendDueMessages(ctx(), dying, { signal: kill.signal })).rejects.toThrow(/stopped/);
      const taken = gateway.requests.length;
      expect(taken).toBeGreaterThanOrEqual(KILL_AT);
      const count = async (status: string) => (await rowsOf(ids)).filter((r) => r.status === status).length;
      // Claimed 1,000 at a time, answers recorded 250 at a time: three batches and three chunks of the
      // fourth were recorded; the chunk in flight was not, and the rest were never claimed.
      expect(await count('sent')).toBe(3_750);
      expect(await count('queued')).toBe(6_250);

      // Restarted (a new app instance on the same database) at once: what was never claimed goes;
      // the unrecorded chunk is leased to the dead run and waits.
      const restarted = await startTestApp(kind, { shared: t.db });
      try {
        restarted.clock.ms = NOON;
        expect(await sendDueMessages(restarted.app.ctx)).toMatchObject({ sent: 6_000 });
        expect(gateway.requests).toHaveLength(taken + 6_000);

        // When the lease runs out the chunk goes again, with the same ids: the gateway sends each once.
        restarted.clock.ms = NOON + LEASE_MS;
        expect(await sendDueMessages(restarted.app.ctx)).toMatchObject({ sent: 250 });
      } finally {
        await restarted.close();
      }
      expect(await count('sent')).toBe(TOTAL);
      expect(gateway.sent.size).toBe(TOTAL);
      expect(new Set([...gateway.sent.values()].map((m) => m.messageId)).size).toBe(TOTAL);
      // Asked twice: only what the dead run had sent but never recorded (at most one chunk).
      const resent = gateway.requests.length - TOTAL;
      expect(resent).toBe(taken - 3_750);
      expect(resent).toBeLessThanOrEqual(250);
      expect(new Set(gateway.requests.map((r) => r.idempotencyKey)).size).toBe(TOTAL);
    } finally {
      await gateway.stop();
    }
    // 10,000 HTTP requests to the fake gateway, and more: minutes on a loaded machine.
  }, 180_000);

  it('holds reminders and bulk messages through quiet hours; tokens and replies go at once', async () => {
    t.clock.ms = Date.parse('2024-05-15T21:30:00Z'); // the organisation's zone is UTC; quiet 20:00–08:00
    const [reminder] = (await insert(1, { template: 'overdue_day_3' })) as [string];
    const [bulk] = (await insert(1, { template: 'harvest_offer' })) as [string];
    const [token] = (await insert(1, { template: 'token' })) as [string];
    const [reply] = (await insert(1, { template: 'reply', channel: 'whatsapp' })) as [string];
    const provider = recordingProvider();
    expect(await sendDueMessages(ctx(), provider)).toMatchObject({ sent: 2, deferred: 2 });
    const rows = new Map((await rowsOf([reminder, bulk, token, reply])).map((r) => [r.id, r]));
    for (const held of [reminder, bulk]) {
      expect(rows.get(held)).toMatchObject({ status: 'queued', attempts: 0 });
      expect(new Date(rows.get(held)?.next_attempt_at as string).toISOString()).toBe(
        '2024-05-16T08:00:00.000Z',
      );
    }
    expect(provider.calls.map((c) => c.id).sort()).toEqual([token, reply].sort());
    t.clock.ms = Date.parse('2024-05-16T08:00:00Z');
    expect(await sendDueMessages(ctx(), provider)).toMatchObject({ sent: 2 });
  });

  it('sends a reply to an unknown number as is, e-mail to the customer’s address, and skips without consent', async () => {
    const [unknown] = (await insert(1, {
      template: 'reply',
      customerId: null,
      recipient: '+254799999999',
    })) as [string];
    const [orphan] = (await insert(1, { template: 'overdue_day_1', customerId: null })) as [string];
    const [email] = (await insert(1, {
      channel: 'email',
      template: 'receipt',
      recipient: 'old@example.com',
    })) as [string];
    const provider = recordingProvider();
    expect(await sendDueMessages(ctx(), provider)).toMatchObject({ sent: 2, skipped: 1 });
    const sent = new Map(provider.calls.map((c) => [c.id, c]));
    expect(sent.get(unknown)).toMatchObject({ recipient: '+254799999999', channel: 'sms' });
    expect(sent.get(email)).toMatchObject({
      recipient: 'amina@example.com',
      subject: 'A subject',
      channel: 'email',
    });
    expect((await rowsOf([orphan]))[0]).toMatchObject({
      status: 'skipped',
      skipped_reason: 'The customer has not consented to SMS messages',
    });

    await ctx().db.execute(sql`UPDATE customers SET consent_email_at = NULL WHERE id = ${customerId}`);
    try {
      const [withdrawn] = (await insert(1, { channel: 'email', template: 'receipt' })) as [string];
      expect(await sendDueMessages(ctx(), provider)).toMatchObject({ skipped: 1, sent: 0 });
      expect((await rowsOf([withdrawn]))[0]).toMatchObject({
        status: 'skipped',
        skipped_reason: 'The customer has not consented to e-mail messages',
      });
    } finally {
      await ctx().db.execute(sql`UPDATE customers SET consent_email_at = now() WHERE id = ${customerId}`);
    }
  });
});
