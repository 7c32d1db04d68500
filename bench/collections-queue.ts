import pg from 'pg';
import type { RunningServer } from '../tests/support/server-process';
import { startBookServer } from './lib/book-server';
import { loadTest } from './lib/load';
import { benchOwner } from './lib/owner';
import { benchDatabase } from './lib/postgres';
import type { Measurement } from './lib/report';
import { benchBook } from './payments';

/**
 * Issue 14's budget: the collections queue page with 50,000 delinquent contracts, p99 at most
 * 50 ms. The book is the payments bench's (BENCH_CONTRACTS, 100,000 by default) with every second
 * contract 75 days behind; a close of business scores the queue. Beside it, in the same run, the
 * server's floor (GET /api/health under the same load) and the SQL a stored score saves: the
 * score computed over every case and sorted.
 */
export async function collectionsQueueBenchmarks(): Promise<Measurement[]> {
  const database = await benchDatabase();
  if (!database)
    return [
      { name: 'collections queue benchmarks', value: 0, unit: 'skipped', note: 'no PostgreSQL reachable' },
    ];
  let server: RunningServer | undefined;
  try {
    server = await startBookServer(database.url);
    const { headers } = await benchOwner(server.url);
    await benchBook(server.url, headers, database.url, { overdueEvery: 2 });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // Grades and agents vary, so the parts of the score and the filters have something to do.
    await client.query(
      `UPDATE customers SET risk_grade = (ARRAY['A','B','C','D','E'])[1 + abs(hashtext(id)) % 5]`,
    );
    const { businessDate } = (await (await fetch(`${server.url}/api/business-date`, { headers })).json()) as {
      businessDate: string;
    };
    const closed = await fetch(`${server.url}/api/eod/run`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ businessDate }),
    });
    if (!closed.ok) throw new Error(`close of business: ${closed.status} ${await closed.text()}`);
    // Half the queue to the owner, so "my queue" has 25,000 cases.
    await client.query(`UPDATE collection_cases SET collector_id = (SELECT id FROM users LIMIT 1), assigned_at = now()
                        WHERE in_queue AND abs(hashtext(contract_id)) % 2 = 0`);
    await client.query('VACUUM ANALYZE collection_cases');
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM collection_cases WHERE in_queue',
    );
    const cases = Number(rows[0]?.n ?? 0);
    // The budget is for a queue of 50,000 delinquent contracts: a bench that scored fewer measures
    // something else, and says so loudly.
    if (cases < 25_000)
      throw new Error(`the collections queue holds ${cases} cases: the close scored too few`);

    const before = performance.now();
    await client.query(`SELECT contract_id, dpd * 3 + amount_overdue * 50 / GREATEST(regular_payment, 1)
                               + broken_promises * 60 AS s
                        FROM collection_cases WHERE in_queue ORDER BY s DESC, contract_id DESC LIMIT 50`);
    const unstored = performance.now() - before;
    await client.end();

    const cookie = { cookie: headers.cookie ?? '' };
    const floor = await loadTest({
      url: `${server.url}/api/health`,
      seconds: 10,
      connections: 32,
      headers: cookie,
    });
    const results: Measurement[] = [
      {
        name: `collections queue: ${cases.toLocaleString('en-US')} delinquent contracts in the queue`,
        value: cases,
        unit: 'cases',
      },
      {
        name: 'baseline: GET /api/health, 32 clients (same run)',
        value: floor.p99,
        unit: 'ms',
        note: `p50 ${floor.p50} ms, ${Math.round(floor.requestsPerSecond)} req/s`,
      },
      {
        name: 'baseline: the score computed over every case and sorted (SQL, same run)',
        value: unstored,
        unit: 'ms',
      },
    ];
    const pages: Array<[string, string]> = [
      ['GET /api/collections/queue, first page by score', '/api/collections/queue?pageSize=50'],
      ['GET /api/collections/queue, bucket filter', '/api/collections/queue?bucket=61-90&pageSize=50'],
      ['GET /api/collections/queue, my queue', '/api/collections/queue?mine=true&pageSize=50'],
      ['GET /api/collections/queue, region filter', '/api/collections/queue?region=Kisumu&pageSize=50'],
    ];
    for (const [name, path] of pages) {
      const load = await loadTest({
        url: `${server.url}${path}`,
        seconds: 10,
        connections: 32,
        headers: cookie,
      });
      results.push({
        name: `${name}: p99`,
        value: load.p99,
        unit: 'ms',
        budget: { limit: 50, kind: 'max' },
        note: `p50 ${load.p50} ms, ${Math.round(load.requestsPerSecond)} req/s, non-2xx ${load.non2xx}`,
      });
    }
    // The load above repeats one query (the page cache answers after the first): distinct pages,
    // one at a time, each missing the cache.
    const firstReads: Array<[string, (i: number) => string]> = [
      ['pages by score', (i) => `/api/collections/queue?pageSize=50&page=${i + 2}`],
      ['my queue pages', (i) => `/api/collections/queue?mine=true&pageSize=50&page=${i + 2}`],
      [
        'region and bucket',
        (i) => `/api/collections/queue?region=Nakuru&bucket=61-90&pageSize=50&page=${i + 1}`,
      ],
    ];
    for (const [name, pathOf] of firstReads) {
      const times: number[] = [];
      for (let i = 0; i < 100; i++) {
        const t0 = performance.now();
        const response = await fetch(`${server.url}${pathOf(i)}`, { headers: cookie });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${pathOf(i)}: ${response.status}`);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      results.push({
        name: `GET /api/collections/queue first reads (not cached), ${name}: p99`,
        value: times[98] ?? 0,
        unit: 'ms',
        budget: { limit: 50, kind: 'max' },
        note: `p50 ${times[49]?.toFixed(1)} ms over 100 distinct queries, one at a time`,
      });
    }
    return results;
  } finally {
    await server?.stop();
    await database.drop();
  }
}
