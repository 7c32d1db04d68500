import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { developmentAppSecret } from '../src/server/modules/conversations/whatsapp';
import { Keyring } from '../src/server/secrets';
import { type RunningServer, startServer } from '../tests/support/server-process';
import { newWamid, signature, textPayload } from '../tests/support/whatsapp-payloads';
import { benchOwner } from './lib/owner';
import { benchDatabase } from './lib/postgres';
import type { Measurement } from './lib/report';
import { benchBook } from './payments';

/**
 * Issue 15's budget: an inbound WhatsApp message, from the webhook to the queued reply, p99 at most
 * 100 ms. The webhook answers 200 after the pipeline's transaction committed (thread, line, the
 * assistant's answer from the finance engine, the outbox row), so each request's time is that span.
 * Customers of the payments bench's book (2,000 active contracts) ask the assistant's questions
 * one after another, signed as Meta signs; beside it, in the same run, the server's floor
 * (GET /api/health, one at a time) and the ratio of the two.
 */
const MESSAGES = Number(process.env.BENCH_INBOUND_MESSAGES ?? 500);
const QUESTIONS = [
  'What is my balance?',
  'When is my next payment?',
  'How do I pay?',
  'If I pay everything on 15 Dec, how much?',
  'my last payments',
  'hello',
];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

export async function inboundWebhookBenchmarks(): Promise<Measurement[]> {
  const database = await benchDatabase();
  if (!database)
    return [
      { name: 'inbound webhook benchmarks', value: 0, unit: 'skipped', note: 'no PostgreSQL reachable' },
    ];
  const appSecret = randomBytes(32).toString('hex');
  const secret = developmentAppSecret({ keyring: new Keyring(appSecret) });
  let server: RunningServer | undefined;
  try {
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'error', APP_SECRET: appSecret });
    const { headers } = await benchOwner(server.url);
    await benchBook(server.url, headers, database.url, { contracts: 2000, overdueEvery: 3 });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ phone: string }>(
      'SELECT phone FROM customers ORDER BY account_number',
    );
    const phones = rows.map((r) => r.phone.replace(/\D/g, ''));

    const floor: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      const response = await fetch(`${server.url}/api/health`);
      await response.arrayBuffer();
      floor.push(performance.now() - t0);
    }

    const times: number[] = [];
    // The first messages warm the pool's connections (catalog, prepared statements): not measured.
    const WARM_UP = 50;
    for (let i = -WARM_UP; i < MESSAGES; i++) {
      const raw = JSON.stringify(
        textPayload({
          from: phones[((i + WARM_UP) * 7919) % phones.length] as string,
          text: QUESTIONS[(i + WARM_UP) % QUESTIONS.length] as string,
          id: newWamid(),
        }),
      );
      const t0 = performance.now();
      const response = await fetch(`${server.url}/api/webhooks/whatsapp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(secret, raw) },
        body: raw,
      });
      await response.arrayBuffer();
      if (i >= 0) times.push(performance.now() - t0);
      if (response.status !== 200) throw new Error(`webhook: ${response.status}`);
    }
    const queued = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE template_key = 'reply' AND conversation_id IS NOT NULL`,
    );
    await client.end();
    const p99 = percentile(times, 99);
    const floorP99 = percentile(floor, 99);
    return [
      {
        name: 'baseline: GET /api/health, one at a time (same run): p99',
        value: floorP99,
        unit: 'ms',
        note: `p50 ${percentile(floor, 50).toFixed(1)} ms`,
      },
      {
        name: `inbound WhatsApp webhook to queued reply (${MESSAGES} signed messages, 2,000 contracts): p99`,
        value: p99,
        unit: 'ms',
        budget: { limit: 100, kind: 'max' },
        note: `p50 ${percentile(times, 50).toFixed(1)} ms, ${(p99 / Math.max(floorP99, 0.001)).toFixed(1)} × baseline, ${Number(queued.rows[0]?.n ?? 0)} replies queued (${WARM_UP} warm-up messages first)`,
      },
    ];
  } finally {
    await server?.stop();
    await database.drop();
  }
}
