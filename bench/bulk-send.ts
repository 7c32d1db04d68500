import pg from 'pg';
import { type RunningServer, startServer } from '../tests/support/server-process';
import { benchOwner } from './lib/owner';
import { benchDatabase } from './lib/postgres';
import type { Measurement } from './lib/report';
import { benchBook } from './payments';

/**
 * Issue 15's budget: a bulk send to 100,000 recipients queued within 10 s. The book is the
 * payments bench's (BENCH_CONTRACTS, 100,000 by default: a customer each, with a live contract
 * and its schedule), every customer consenting to SMS; a template staff wrote uses the
 * contract's figures (amount due, due date, balance), so the one INSERT … SELECT reads them for
 * every recipient. The time runs from asking the `messages.bulk-queue` job to run until the bulk
 * send says it is queued. Beside it, in the same run: the floor of writing as many outbox rows
 * (a constant body, no template, no figures) in one statement.
 */
export async function bulkSendBenchmarks(): Promise<Measurement[]> {
  const database = await benchDatabase();
  if (!database)
    return [{ name: 'bulk send benchmarks', value: 0, unit: 'skipped', note: 'no PostgreSQL reachable' }];
  let server: RunningServer | undefined;
  const client = new pg.Client({ connectionString: database.url });
  try {
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'error' });
    const { headers } = await benchOwner(server.url);
    await benchBook(server.url, headers, database.url);
    await client.connect();
    await client.query(`UPDATE customers SET consent_sms_at = now(), region = 'Bench'`);
    await client.query('VACUUM ANALYZE customers');
    await client.query('VACUUM ANALYZE contracts');
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${server?.url}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, unknown>>;
    };
    await post('/api/message-templates', {
      name: 'Bench offer',
      body: 'Hello {{firstName}}, {{amountDue}} on {{contractNumber}} is due on {{dueDate}} (balance {{balance}}). Pay {{payBill}}, account {{account}}.',
    });
    const bulk = await post('/api/bulk-sends', {
      name: 'Bench send',
      filter: { regions: ['Bench'] },
      templateKey: 'bench_offer',
    });
    const recipients = Number(bulk.recipients);

    const started = performance.now();
    await post('/api/jobs/messages.bulk-queue/run', {});
    let queued = 0;
    for (;;) {
      const { rows } = await client.query<{ status: string; queued: number }>(
        'SELECT status, queued FROM bulk_sends WHERE id = $1',
        [bulk.id],
      );
      if (rows[0]?.status === 'queued') {
        queued = Number(rows[0].queued);
        break;
      }
      if (performance.now() - started > 120_000)
        throw new Error('the bulk send was not queued within 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const elapsed = performance.now() - started;
    // The job's own run, without the queue's pick-up: its run record.
    const { rows: runs } = await client.query<{ ms: number }>(
      `SELECT extract(epoch FROM finished_at - started_at) * 1000 AS ms FROM job_runs
       WHERE job = 'messages.bulk-queue' AND finished_at IS NOT NULL ORDER BY started_at DESC LIMIT 1`,
    );
    const jobMs = Math.round(Number(runs[0]?.ms ?? 0));

    // The floor: as many outbox rows in one statement, nothing rendered or read but the customer.
    const floorStarted = performance.now();
    await client.query(
      `INSERT INTO messages (id, customer_id, channel, recipient, template_key, template_version, body, status,
                             next_attempt_at, dedupe_key)
       SELECT gen_random_uuid()::text, id, 'sms', phone, 'bench_floor', 1, 'x', 'skipped', NULL, 'floor:' || id
       FROM customers`,
    );
    const floor = performance.now() - floorStarted;

    return [
      {
        name: `bulk send: ${recipients.toLocaleString('en-US')} recipients, ${queued.toLocaleString('en-US')} queued`,
        value: elapsed,
        unit: 'ms',
        budget: { limit: 10_000, kind: 'max' },
        note: `${Math.round((queued / elapsed) * 1000).toLocaleString('en-US')} messages/s; the job's run ${jobMs.toLocaleString('en-US')} ms`,
      },
      {
        name: 'baseline: as many outbox rows, constant body, one statement (same run)',
        value: floor,
        unit: 'ms',
        note: `bulk send ${(elapsed / floor).toFixed(1)}× the floor`,
      },
    ];
  } finally {
    await client.end().catch(() => undefined);
    await server?.stop();
    await database.drop();
  }
}
