import { createHash } from 'node:crypto';
import pg from 'pg';
import { type RunningServer, startServer } from '../tests/support/server-process';
import { loadTest } from './lib/load';
import { benchOwner } from './lib/owner';
import { benchDatabase } from './lib/postgres';
import type { Measurement } from './lib/report';
import { scorecardLiteral } from './lib/scorecard';

const ROWS = 100_000;
const CREATIONS = 200;
/** Creations before the timed ones: the first requests of a process pay for JIT compilation. */
const WARM_UP = 20;

async function api<T>(
  url: string,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  // Like the browser: a JSON content type only with a JSON body (Fastify refuses an empty one).
  const { 'content-type': _json, ...bare } = headers;
  const response = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? bare : headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * 100,000 customers, devices and contracts straight in SQL (set-based, seconds), plus CREATIONS
 * spare customers and devices in stock for the creation timing.
 */
async function generate(databaseUrl: string, planId: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Scored as the server scores, or it rescores them all in the background while measured.
    const scorecard = await scorecardLiteral(client);
    await client.query(`
      CREATE FUNCTION pg_temp.v4(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
        SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12)
        FROM md5(t) AS h
      $$;
      INSERT INTO device_models (id, make, model, category, retail_price, cost_price, control_kind)
      VALUES ('00000000-0000-4000-8000-00000000b001', 'Tecno', 'Spark Bench', 'smartphone', 3650000, 2500000, 'none');
      INSERT INTO customers (id, account_number, first_name, last_name, phone, national_id, region, kyc_status, created_at,
                             risk_score, risk_grade, risk_decision, risk_scorecard)
      SELECT pg_temp.v4('c' || i), 'C-' || lpad(i::text, 7, '0'),
             (ARRAY['Amina','Peter','Lucy','Joseph','Grace','Samuel','Fatuma','Brian','Mercy','Kevin'])[1 + i % 10],
             (ARRAY['Otieno','Mwangi','Wanjiru','Kamau','Achieng','Njoroge','Hassan','Okafor','Mensah','Adeyemi'])[1 + (i / 10) % 10] || (i % 997),
             '+2547' || lpad(i::text, 8, '0'), 'ID' || i,
             (ARRAY['Nairobi','Mombasa','Kisumu','Nakuru','Eldoret'])[1 + i % 5], 'verified',
             now() - (i % 700) * interval '1 hour',
             40 + i % 90, (ARRAY['A', 'B', 'C', 'D', 'E'])[1 + i % 5], 'approve', ${scorecard}
      FROM generate_series(1, ${ROWS + WARM_UP + CREATIONS}) i;
      INSERT INTO devices (id, serial_number, model_id, status, control_kind)
      SELECT pg_temp.v4('d' || i), 'SN' || lpad(i::text, 9, '0'), '00000000-0000-4000-8000-00000000b001',
             CASE WHEN i <= ${ROWS} THEN 'assigned' ELSE 'in_stock' END, 'none'
      FROM generate_series(1, ${ROWS + WARM_UP + CREATIONS}) i;
      INSERT INTO contracts (id, number, customer_id, device_id, plan_id, terms, currency, cash_price, deposit, principal, apr,
                             frequency, term, interest_method, installment, total_interest, total_payable, start_date,
                             first_due_date, last_due_date, status, outstanding_principal,
                             created_at, activated_at)
      SELECT pg_temp.v4('k' || i), 'CT-' || lpad(i::text, 6, '0'), pg_temp.v4('c' || i), pg_temp.v4('d' || i),
             '${planId}', '{}', 'USD', 3650000, 365000, 3285000, 36, 'daily', 365, 'declining', 10000, 365000, 3650000,
             current_date - (i % 300), current_date - (i % 300) + 1, current_date - (i % 300) + 365,
             (ARRAY['active','active','active','active','paid_off','defaulted','draft','pending_approval'])[1 + i % 8],
             3285000 - (i % 300) * 9000,
             now() - (i % 300) * interval '1 day', now() - (i % 300) * interval '1 day'
      FROM generate_series(1, ${ROWS}) i;
      -- Their figures rows came with them (the insert trigger, decision 041), at the defaults.
      UPDATE contract_figures f
      SET arrears_since = CASE WHEN i % 7 = 0 AND i % 120 > 0 THEN current_date - i % 120 END,
          outstanding_total = 3650000 - (i % 300) * 10000, next_due_date = current_date + 1
      FROM generate_series(1, ${ROWS}) i WHERE f.contract_id = pg_temp.v4('k' || i);
      -- The rows above took numbers the sequences have not handed out: move them past.
      SELECT setval('contract_number_seq', ${ROWS}), setval('customer_number_seq', ${ROWS + WARM_UP + CREATIONS});
    `);
    // As autovacuum would soon after a bulk load (it is off on some machines): statistics and the
    // visibility map that counts read from. VACUUM cannot share the statement above.
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}

export async function contractBenchmarks(): Promise<Measurement[]> {
  const database = await benchDatabase();
  if (!database)
    return [{ name: 'contracts benchmarks', value: 0, unit: 'skipped', note: 'no PostgreSQL reachable' }];
  let server: RunningServer | undefined;
  try {
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'error' });
    const { headers } = await benchOwner(server.url);
    const plan = await api<{ id: string }>(server.url, headers, 'POST', '/api/service-plans', {
      code: 'BENCH-DAILY',
      name: 'Daily bench plan',
      frequency: 'daily',
      allowedTerms: [365],
      apr: 36,
      interestMethod: 'declining',
    });
    await api(server.url, headers, 'POST', `/api/service-plans/${plan.id}/activate`);
    const started = performance.now();
    await generate(database.url, plan.id);
    const generation = performance.now() - started;

    const results: Measurement[] = [
      {
        name: `generate ${ROWS.toLocaleString('en-US')} customers, devices and contracts (SQL)`,
        value: generation / 1000,
        unit: 's',
      },
    ];
    const lists: Array<[string, string]> = [
      ['GET /api/contracts, page of 50', '/api/contracts?pageSize=50'],
      [
        'GET /api/contracts, status filter sorted by DPD',
        '/api/contracts?status=active&sort=dpd&order=desc&pageSize=50',
      ],
      ['GET /api/contracts, search by customer name', '/api/contracts?q=wanjiru42&pageSize=50'],
      ['GET /api/contracts, search by contract number', '/api/contracts?q=ct-0042&pageSize=50'],
      ['GET /api/devices, page of 50', '/api/devices?pageSize=50'],
      ['GET /api/devices, status filter', '/api/devices?status=in_stock&pageSize=50'],
      ['GET /api/devices, search by serial number', '/api/devices?q=sn00004&pageSize=50'],
    ];
    for (const [name, path] of lists) {
      const load = await loadTest({
        url: `${server.url}${path}`,
        seconds: 10,
        connections: 32,
        headers: { cookie: headers.cookie ?? '' },
      });
      results.push(
        {
          name: `${name}: throughput`,
          value: load.requestsPerSecond,
          unit: 'req/s',
          budget: { limit: 3000, kind: 'min' },
          note: `non-2xx ${load.non2xx}`,
        },
        {
          name: `${name}: p99`,
          value: load.p99,
          unit: 'ms',
          budget: { limit: 30, kind: 'max' },
          note: `p50 ${load.p50} ms`,
        },
      );
    }

    // The load tests above repeat one query, so after the first request they read the list cache
    // (decision 005). First reads: distinct queries, one at a time, each missing the cache.
    const firstReads: Array<[string, string, (i: number) => string]> = [
      ['/api/contracts', 'pages', (i) => `/api/contracts?pageSize=50&page=${i + 2}`],
      [
        '/api/contracts',
        'status and DPD',
        (i) => `/api/contracts?status=active&sort=dpd&order=desc&pageSize=50&page=${i + 2}`,
      ],
      ['/api/contracts', 'customer name search', (i) => `/api/contracts?q=wanjiru${i + 100}&pageSize=50`],
      [
        '/api/contracts',
        'contract number search',
        (i) => `/api/contracts?q=ct-0${String(i + 100).padStart(3, '0')}&pageSize=50`,
      ],
      ['/api/devices', 'pages', (i) => `/api/devices?pageSize=50&page=${i + 2}`],
      [
        '/api/devices',
        'serial number search',
        (i) => `/api/devices?q=sn000${String(i + 100).padStart(3, '0')}&pageSize=50`,
      ],
    ];
    for (const [endpoint, name, pathOf] of firstReads) {
      const times: number[] = [];
      for (let i = 0; i < 100; i++) {
        const t0 = performance.now();
        const response = await fetch(`${server.url}${pathOf(i)}`, {
          headers: { cookie: headers.cookie ?? '' },
        });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${pathOf(i)}: ${response.status}`);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      results.push({
        name: `GET ${endpoint} first reads (not cached), ${name}: p99`,
        value: times[98] ?? 0,
        unit: 'ms',
        note: `p50 ${times[49]?.toFixed(1)} ms over 100 distinct queries, one at a time`,
      });
    }

    // Contract creation with a 365-instalment daily schedule, one at a time, through the API.
    const timings: number[] = [];
    for (let i = 1; i <= WARM_UP + CREATIONS; i++) {
      const n = ROWS + i;
      const body = {
        customerId: md5Uuid(`c${n}`),
        deviceId: md5Uuid(`d${n}`),
        planId: plan.id,
        deposit: 365_000,
        term: 365,
      };
      const t0 = performance.now();
      await api(server.url, headers, 'POST', '/api/contracts', body);
      if (i > WARM_UP) timings.push(performance.now() - t0);
    }
    timings.sort((a, b) => a - b);
    const mean = timings.reduce((sum, t) => sum + t, 0) / timings.length;
    results.push({
      name: 'create a contract with 365 daily instalments (API, mean)',
      value: mean,
      unit: 'ms',
      budget: { limit: 20, kind: 'max' },
      note: `p50 ${timings[Math.floor(timings.length / 2)]?.toFixed(1)} ms, p95 ${timings[Math.floor(timings.length * 0.95)]?.toFixed(1)} ms over ${CREATIONS} after ${WARM_UP} warm-up`,
    });
    return results;
  } finally {
    await server?.stop();
    await database.drop();
  }
}

/** A deterministic version-4 uuid from a text; the same as pg_temp.v4() in the generator's SQL. */
function md5Uuid(text: string): string {
  const hex = createHash('md5').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
