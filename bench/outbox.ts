import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase, queryRows } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { sendDueMessages } from '../src/server/modules/messages/sender';
import { insertActiveContract } from '../tests/support/fixtures';
import { benchDatabase } from './lib/postgres';
import type { Measurement } from './lib/report';

/**
 * Issue 15's budget: outbox throughput through the simulator, at least 1,000 messages a second.
 * The sender runs in process (as the `messages.send` job does) over MESSAGES queued SMS reminders
 * of a consenting customer, each with its contract (so each writes its timeline line), the SMS
 * rate limit raised out of the way. On PGlite and, when one is reachable, on PostgreSQL. Beside
 * each, in the same run on the same database: the floor of touching as many outbox rows, one
 * UPDATE of them all (no claim, no provider, no timeline), as rows per second.
 */
const MESSAGES = Number(process.env.BENCH_OUTBOX_MESSAGES ?? 10_000);

export async function outboxBenchmarks(): Promise<Measurement[]> {
  const results: Measurement[] = [];
  const pglite = await openDatabase({ dataDir: 'memory://' });
  results.push(...(await measure('PGlite', pglite, () => pglite.close())));
  const postgres = await benchDatabase();
  if (postgres) {
    const database = await openDatabase({ url: postgres.url, dataDir: 'unused', poolSize: 5 });
    results.push(
      ...(await measure('PostgreSQL', database, async () => {
        await database.close();
        await postgres.drop();
      })),
    );
  } else
    results.push({
      name: 'outbox on PostgreSQL',
      value: 0,
      unit: 'skipped',
      note: 'no PostgreSQL reachable',
    });
  return results;
}

async function measure(
  label: string,
  database: Database,
  close: () => Promise<void>,
): Promise<Measurement[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'devicefin-bench-'));
  try {
    await migrate(database);
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, DEMO_DATA: 'false', LOG_LEVEL: 'silent' }),
      database,
      appSecret: 'bench-secret-that-is-at-least-32-characters-long',
      logger: false,
      webRoot: path.join(dataDir, 'no-web'),
    });
    try {
      await app.ready();
      const { ctx } = app;
      const contract = await insertActiveContract(ctx, {
        principal: 10_000,
        apr: 12,
        frequency: 'monthly',
        term: 3,
        startDate: '2024-04-01',
      });
      await ctx.db.execute(sql`
        UPDATE customers SET consent_sms_at = now() WHERE id = (SELECT customer_id FROM contracts WHERE id = ${contract.id})`);
      await ctx.db.execute(
        sql`UPDATE messaging_settings SET sms_rate_per_second = 10000 WHERE id = 'default'`,
      );
      await ctx.db.execute(sql`UPDATE messages SET status = 'failed' WHERE status = 'queued'`);
      await ctx.db.execute(sql`
        INSERT INTO messages (id, customer_id, contract_id, channel, recipient, template_key, template_version, body,
                              status, next_attempt_at, dedupe_key)
        SELECT gen_random_uuid()::text, c.customer_id, c.id, 'sms', '+254700000000', 'overdue_day_1', 1,
               'Hello, your payment is overdue. ' || g, 'queued', now() - interval '1 minute', 'bench:' || g
        FROM contracts c, generate_series(1, ${MESSAGES}) g WHERE c.id = ${contract.id}`);
      await ctx.db.execute(sql`ANALYZE messages`);

      const started = performance.now();
      const run = await sendDueMessages(ctx);
      const elapsed = performance.now() - started;
      const [left] = await queryRows<{ n: number }>(
        ctx.db,
        sql`SELECT count(*)::int AS n FROM messages WHERE status = 'queued'`,
      );

      const floorStarted = performance.now();
      await ctx.db.execute(sql`UPDATE messages SET updated_at = updated_at WHERE dedupe_key LIKE 'bench:%'`);
      const floor = performance.now() - floorStarted;

      const rate = (run.sent / elapsed) * 1000;
      const floorRate = (MESSAGES / floor) * 1000;
      return [
        {
          name: `outbox through the simulator on ${label}: ${run.sent.toLocaleString('en-US')} sent`,
          value: rate,
          unit: 'messages/s',
          budget: { limit: 1000, kind: 'min' },
          note: `${Math.round(elapsed)} ms; ${left?.n ?? 0} left queued; ${((rate / floorRate) * 100).toFixed(1)}% of the floor's rate`,
        },
        {
          name: `  baseline on ${label}: one UPDATE of as many outbox rows (same run)`,
          value: floorRate,
          unit: 'rows/s',
        },
      ];
    } finally {
      await app.close();
    }
  } finally {
    await close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
