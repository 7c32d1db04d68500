import { Agent, request } from 'node:http';
import pg from 'pg';
import type { RunningServer } from '../tests/support/server-process';
import { startBookServer } from './lib/book-server';
import { longRequest } from './lib/long-post';
import { benchOwner } from './lib/owner';
import { benchDatabase } from './lib/postgres';
import type { Measurement } from './lib/report';
import { benchBook } from './payments';

/**
 * Issue 16's budget: the investor portal's figures on a book of 1,000,000 payments, p95 ≤ 150 ms.
 * The book: 100,000 contracts (bench/payments.ts) tagged into two funds, ten posted payments each
 * written by SQL with their allocation lines, then the close of business of the business date
 * through the API (which writes the portfolio snapshot and the investor figures from that book).
 * Two years of daily history are then copied from that close's rows (24 vintages a date), so the
 * charts read as many rows as an older book's would. Each endpoint's p95 is quoted beside a
 * baseline measured the same way in the same run: `GET /api/investor/me`, the same investor
 * session's lookup with no figures.
 */
const CONTRACTS = 100_000;
const PAYMENTS_EACH = 10;
const HISTORY_DAYS = 730;
const BUDGET_MS = 150;

/** GETs from `connections` clients for `seconds`; latency percentiles in ms. */
async function getLoad(url: string, cookie: string, connections: number, seconds: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const get = () =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          headers: { cookie },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const response = await get();
        latencies.push(performance.now() - t0);
        if (response.status !== 200) {
          errors += 1;
          firstError ??= `${response.status} ${response.text.slice(0, 200)}`;
        }
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { count: latencies.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), errors, firstError };
}

/** Runs `work` on a connection of its own to the bench's database, closed after. */
async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Ten payments a contract (1,000,000), each with its allocation line, and the funds' tags. */
async function addPayments(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    await client.query(`
      UPDATE customers SET tags = CASE WHEN right(account_number, 1) IN ('0','2','4','6','8') THEN ARRAY['fund-a']
                                       ELSE ARRAY['fund-b'] END
                                  || CASE WHEN right(account_number, 1) IN ('0','5') THEN ARRAY['growth'] ELSE '{}' END`);
    for (let k = 1; k <= PAYMENTS_EACH; k += 1) {
      await client.query(`
        WITH paid AS (
          INSERT INTO payments (id, receipt_number, contract_id, customer_id, amount, currency, method, received_at,
                                value_date, status, posted_at, created_at)
          SELECT md5(c.id || ':${k}'), 'RB' || c.number || '-${k}', c.id, c.customer_id, 5000, 'USD', 'cash',
                 c.activated_at + interval '${k} hours', c.start_date, 'posted', now(), now()
          FROM contracts c
          RETURNING id, contract_id
        )
        INSERT INTO payment_allocations (payment_id, contract_id, schedule_version, installment_number, component, amount)
        SELECT id, contract_id, 1, 1, CASE WHEN ${k} % 2 = 0 THEN 'interest' ELSE 'principal' END, 5000 FROM paid`);
    }
    await client.query('VACUUM ANALYZE payments, payment_allocations, customers');
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM payments');
    return Number(rows[0]?.n ?? 0);
  });
}

/**
 * Daily history before the close's date: each fund's rows of that close spread over 24 monthly
 * vintages, copied to every earlier date (the reads' row counts of a two-year-old book).
 */
async function addHistory(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    await client.query(`
      WITH latest AS (SELECT max(business_date) AS d FROM investor_figures),
      per_fund AS (
        SELECT fund, sum(contracts) AS contracts, sum(disbursed) AS disbursed, sum(collected) AS collected,
               sum(outstanding_principal) AS outstanding, sum(par30_amount) AS par30
        FROM investor_figures, latest WHERE business_date = latest.d GROUP BY fund
      )
      INSERT INTO investor_figures (fund, business_date, vintage, contracts, disbursed, collected, collected_principal,
        due, live_count, outstanding_principal, par30_amount, par90_amount, defaulted_count, defaulted_principal,
        written_off_count, written_off_principal, repossessed_count, repossessed_principal)
      SELECT f.fund, day::date, (date_trunc('month', day) - v * interval '1 month')::date,
             (f.contracts / 24)::int, (f.disbursed / 24)::bigint, (f.collected / 24 * (v + 1) / 24)::bigint,
             (f.collected / 48 * (v + 1) / 24)::bigint, (f.collected / 20)::bigint, (f.contracts / 30)::int,
             (f.outstanding / 24)::bigint, (f.par30 / 24)::bigint, 0, 0, 0, 0, 0, 0, 0
      FROM per_fund f, latest, generate_series(latest.d - ${HISTORY_DAYS}, latest.d - 1, interval '1 day') day,
           generate_series(0, 23) v
      ON CONFLICT DO NOTHING`);
    await client.query(`
      INSERT INTO portfolio_snapshots (business_date, currency, active_count, defaulted_count, locked_count, overdue_count,
             due_today_count, queue_count, outstanding_principal, outstanding_total, overdue_amount, par1_amount,
             par30_amount, par90_amount, par1_ratio, par30_ratio, par90_ratio, due_amount, due_month_to_date,
             collected_amount, collected_month_to_date, disbursed_count, disbursed_amount, buckets, computed_at)
      SELECT (s.business_date - g)::date, currency, active_count, defaulted_count, locked_count, overdue_count,
             due_today_count, queue_count, outstanding_principal, outstanding_total, overdue_amount, par1_amount,
             par30_amount, par90_amount, par1_ratio, par30_ratio, par90_ratio, due_amount, due_month_to_date,
             collected_amount, collected_month_to_date, disbursed_count, disbursed_amount, buckets, computed_at
      FROM portfolio_snapshots s, generate_series(1, ${HISTORY_DAYS}) g
      ON CONFLICT DO NOTHING`);
    await client.query('VACUUM ANALYZE investor_figures, portfolio_snapshots');
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM investor_figures');
    return Number(rows[0]?.n ?? 0);
  });
}

/** Issues a code through the API and signs in with it: the investor's cookie. */
async function investorCookie(url: string, headers: Record<string, string>, scope: object): Promise<string> {
  const issued = await fetch(`${url}/api/investor-codes`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ label: 'Bench investor', expiresOn: '2099-12-31', scope }),
  });
  if (issued.status !== 201) throw new Error(`issue: ${issued.status} ${await issued.text()}`);
  const { code } = (await issued.json()) as { code: string };
  const login = await fetch(`${url}/api/investor/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

export async function investorBenchmarks(): Promise<Measurement[]> {
  const database = await benchDatabase();
  if (!database)
    return [
      { name: 'investor portal benchmarks', value: 0, unit: 'skipped', note: 'no PostgreSQL reachable' },
    ];
  let server: RunningServer | undefined;
  try {
    server = await startBookServer(database.url);
    const { headers } = await benchOwner(server.url);
    const generating = performance.now();
    await benchBook(server.url, headers, database.url, { contracts: CONTRACTS });
    const payments = await addPayments(database.url);
    const generated = performance.now() - generating;
    const { businessDate } = (await (await fetch(`${server.url}/api/business-date`, { headers })).json()) as {
      businessDate: string;
    };
    const closing = performance.now();
    const closed = await longRequest('POST', `${server.url}/api/eod/run`, headers, { businessDate });
    const closeMs = performance.now() - closing;
    const run = (closed.json() as { runs: { steps: { step: string; durationMs: number }[] }[] }).runs.at(-1);
    const snapshotStep = run?.steps.find((s) => s.step.includes('snapshot'));
    const rows = await addHistory(database.url);

    const results: Measurement[] = [
      {
        name: `book: ${CONTRACTS.toLocaleString('en-US')} contracts, ${payments.toLocaleString('en-US')} payments`,
        value: generated / 1000,
        unit: 's to generate',
      },
      {
        name: 'close of business of the date (API), investor figures included',
        value: closeMs / 1000,
        unit: 's',
        note: snapshotStep ? `snapshot step ${snapshotStep.durationMs} ms` : `${closed.status}`,
      },
      { name: 'investor_figures rows after two years of daily history', value: rows, unit: 'rows' },
    ];
    for (const [scopeName, scope] of [
      ['whole portfolio', { kind: 'portfolio' }],
      ['fund (tag fund-a)', { kind: 'tag', tag: 'fund-a' }],
    ] as const) {
      const cookie = await investorCookie(server.url, headers, scope);
      const measure = (path: string, seconds: number) => getLoad(`${server?.url}${path}`, cookie, 8, seconds);
      // Warm-up: connections, prepared plans, the organisation cache.
      for (const path of ['/api/investor/me', '/api/investor/summary', '/api/investor/cash-flows'])
        await measure(path, 1);
      const baseline = await measure('/api/investor/me', 4);
      results.push({
        name: `baseline: GET /api/investor/me, 8 clients (${scopeName})`,
        value: baseline.p95,
        unit: 'ms p95',
        note: `p50 ${baseline.p50.toFixed(1)} ms, ${baseline.count} requests`,
      });
      for (const path of [
        '/api/investor/summary',
        '/api/investor/cash-flows',
        '/api/investor/vintages',
        '/api/investor/par-trend',
      ]) {
        const load = await measure(path, 4);
        results.push({
          name: `GET ${path}, 8 clients (${scopeName})`,
          value: load.p95,
          unit: 'ms p95',
          budget: { limit: BUDGET_MS, kind: 'max' },
          note: `p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms, ${(load.p95 / Math.max(0.1, baseline.p95)).toFixed(1)} × baseline, ${load.count} requests, ${load.errors} errors${load.firstError ? `; ${load.firstError}` : ''}`,
        });
      }
    }
    return results;
  } finally {
    await server?.stop();
    await database.drop();
  }
}
