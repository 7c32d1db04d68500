import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type RunningServer, startServer } from '../tests/support/server-process';
import { cpuPerRequest, cpuSample } from './lib/cpu';
import { drive } from './lib/drive';
import { importFloor } from './lib/import-floor';
import { loadTest } from './lib/load';
import { benchOwner } from './lib/owner';
import { benchDatabase, runOnce } from './lib/postgres';
import type { Measurement } from './lib/report';
import { scorecardLiteral } from './lib/scorecard';

/** Issue 13's budgets: posting, same-contract contention, lists under write load (PostgreSQL, 100,000 active contracts). */
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 100_000);
const TERM = 12;

export interface PortfolioShape {
  /** The contract's copy of its plan terms (JSON). */
  terms?: string;
  /** Every n-th contract started 75 days earlier, so its first instalments are overdue. */
  overdueEvery?: number;
  /**
   * The others started 0 to `ageSpread - 1` days before today: 20 by default, every first
   * instalment still ahead. Past 30, some are a few days late, and each night some fall due,
   * cross their grace or lock days and are owed reminders, as in a live book.
   */
  ageSpread?: number;
  /** Every n-th unit controlled by a lock API (the rest uncontrolled). */
  lockApiEvery?: number;
  /** How many contracts (BENCH_CONTRACTS by default); written 100,000 at a time. */
  contracts?: number;
  /**
   * Each contract's deposit payment and its two journal entries, as the API writes them: the
   * payments and ledger tables then hold what a live book's do when the first payment comes.
   */
  ledger?: boolean;
}

/** Contracts written per statement: a million in one would hold 12 M instalment rows in one transaction's memory. */
const CHUNK = 100_000;

/** 100,000 active monthly contracts of twelve instalments (1.2 M instalment rows), set-based. */
async function generate(databaseUrl: string, planId: string, shape: PortfolioShape = {}): Promise<string[]> {
  const count = shape.contracts ?? CONTRACTS;
  const terms = shape.terms ?? '{"allocationStrategy":"default"}';
  const control = shape.lockApiEvery
    ? `CASE WHEN i % ${shape.lockApiEvery} = 0 THEN 'lock_api' ELSE 'none' END`
    : `'none'`;
  // The days each contract started before today.
  const spread = shape.ageSpread ?? 20;
  const age = shape.overdueEvery
    ? `(i % ${spread} + CASE WHEN i % ${shape.overdueEvery} = 0 THEN 75 ELSE 0 END)`
    : `(i % ${spread})`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Scored as the server scores, or it rescores them all in the background while measured.
    const scorecard = await scorecardLiteral(client);
    await client.query(`
      -- The ids the app gives the rows of the i-th contract it writes (decisions 049 and 055): the
      -- version 7 layout, its time the i-th millisecond of the book's making, its random bits
      -- drawn from the row's name. Ids, numbers and pages then follow one order, the order the
      -- contracts were made in, as in a book the app built; random ids put each contract's
      -- rows at a random place in every index keyed by it.
      CREATE FUNCTION pg_temp.rowid(t text, i bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
        SELECT substr(ms, 1, 8) || '-' || substr(ms, 9, 4) || '-7' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12)
        FROM md5(t) AS h, lpad(to_hex(1750000000000 + i), 12, '0') AS ms
      $$;
      INSERT INTO device_models (id, make, model, category, retail_price, cost_price, control_kind)
      VALUES ('00000000-0000-4000-8000-00000000b001', 'Tecno', 'Spark Bench', 'smartphone', 1300000, 900000, 'none');`);
    for (let first = 1; first <= count; first += CHUNK) {
      const series = `generate_series(${first}, ${Math.min(first + CHUNK - 1, count)})`;
      await client.query(`
      INSERT INTO customers (id, account_number, first_name, last_name, phone, national_id, region, kyc_status, created_at,
                             risk_score, risk_grade, risk_decision, risk_scorecard)
      SELECT pg_temp.rowid('c' || i, i), 'C-' || lpad(i::text, 7, '0'),
             (ARRAY['Amina','Peter','Lucy','Joseph','Grace','Samuel','Fatuma','Brian','Mercy','Kevin'])[1 + i % 10],
             (ARRAY['Otieno','Mwangi','Wanjiru','Kamau','Achieng','Njoroge','Hassan','Okafor','Mensah','Adeyemi'])[1 + (i / 10) % 10] || (i % 997),
             '+2547' || lpad(i::text, 8, '0'), 'ID' || i,
             (ARRAY['Nairobi','Mombasa','Kisumu','Nakuru','Eldoret'])[1 + i % 5], 'verified', now() - (i % 700) * interval '1 hour',
             40 + i % 90, (ARRAY['A', 'B', 'C', 'D', 'E'])[1 + i % 5], 'approve', ${scorecard}
      FROM ${series} i;
      INSERT INTO devices (id, serial_number, model_id, status, control_kind)
      SELECT pg_temp.rowid('d' || i, i), 'SN' || lpad(i::text, 9, '0'), '00000000-0000-4000-8000-00000000b001', 'assigned', ${control}
      FROM ${series} i;
      INSERT INTO contracts (id, number, customer_id, device_id, plan_id, terms, currency, cash_price, deposit, principal, apr,
                             frequency, term, interest_method, installment, total_interest, total_payable, start_date,
                             first_due_date, last_due_date, status, outstanding_principal,
                             paid_through_date, created_at, activated_at)
      SELECT pg_temp.rowid('k' || i, i), 'CT-' || lpad(i::text, greatest(6, length(i::text)), '0'), pg_temp.rowid('c' || i, i), pg_temp.rowid('d' || i, i),
             '${planId}', '${terms}', 'USD', 1300000, 100000, 1200000, 20, 'monthly', ${TERM}, 'flat',
             110000, 120000, 1320000, current_date - ${age}, current_date - ${age} + 30, current_date - ${age} + 30 * ${TERM},
             'active', 1200000, current_date - ${age},
             now() - ${age} * interval '1 day', now() - ${age} * interval '1 day' - interval '1 hour'
      FROM ${series} i;
      -- Their figures rows came with them (the insert trigger, decision 041), at the defaults.
      UPDATE contract_figures f SET outstanding_total = 1320000, next_due_date = current_date - ${age} + 30
      FROM ${series} i WHERE f.contract_id = pg_temp.rowid('k' || i, i);
      INSERT INTO contract_installments (contract_id, schedule_version, n, due_date, principal_due, interest_due, fee_due)
      SELECT pg_temp.rowid('k' || i, i), 1, n, current_date - ${age} + 30 * n, 100000, 10000, 0
      FROM ${series} i CROSS JOIN generate_series(1, ${TERM}) n
      -- A contract's schedule together on its pages, as the API writes it (one statement per contract).
      ORDER BY i, n;
      -- Each contract's timeline begins with its activation, as a real book's does.
      INSERT INTO contract_events (id, contract_id, type, message, at)
      SELECT pg_temp.rowid('e' || i, i), pg_temp.rowid('k' || i, i), 'activated', 'Contract activated',
             now() - ${age} * interval '1 day' - interval '1 hour'
      FROM ${series} i;
    `);
      if (shape.ledger)
        await client.query(`
      -- And its ledger, as the API writes it: the deposit received (a payment and its entry), then
      -- the activation's entry (the sale, the deposit applied, the unit out of stock at cost).
      INSERT INTO payments (id, receipt_number, contract_id, customer_id, amount, currency, method, provider,
                            received_at, value_date, status, posted_at)
      SELECT pg_temp.rowid('p' || i, i), 'R-' || lpad(i::text, 7, '0'), pg_temp.rowid('k' || i, i), pg_temp.rowid('c' || i, i),
             100000, 'USD', 'deposit', 'cash', now() - ${age} * interval '1 day' - interval '61 minutes',
             current_date - ${age}, 'posted', now() - ${age} * interval '1 day' - interval '61 minutes'
      FROM ${series} i;
      INSERT INTO journal_entries (id, number, business_date, description, source_type, source_id, currency)
      SELECT pg_temp.rowid(kind || i, i), 'JE-' || lpad((2 * i - n)::text, 7, '0'), current_date - ${age},
             description || 'CT-' || lpad(i::text, greatest(6, length(i::text)), '0'),
             source_type, pg_temp.rowid(source || i, i), 'USD'
      FROM ${series} i, (VALUES ('jd', 1, 'Deposit for ', 'deposit', 'p'),
                                ('ja', 0, 'Activation of ', 'contract_activation', 'k')) AS t(kind, n, description, source_type, source);
      INSERT INTO journal_lines (entry_id, account_code, debit, credit, contract_id, customer_id, memo)
      SELECT pg_temp.rowid(entry || i, i), account, debit, credit, pg_temp.rowid('k' || i, i), pg_temp.rowid('c' || i, i), memo
      FROM ${series} i, (VALUES ('jd', '1000', 100000, 0, NULL), ('jd', '2000', 0, 100000, 'deposit held until activation'),
                                ('ja', '1100', 1200000, 0, NULL), ('ja', '2000', 100000, 0, 'deposit applied to the sale'),
                                ('ja', '4000', 0, 1300000, NULL), ('ja', '5000', 900000, 0, NULL),
                                ('ja', '1200', 0, 900000, NULL)) AS t(entry, account, debit, credit, memo)
      ORDER BY i;
    `);
    }
    await client.query(
      `SELECT setval('contract_number_seq', ${count}), setval('customer_number_seq', ${count}),
              setval('receipt_number_seq', ${count}), setval('journal_number_seq', ${2 * count})`,
    );
    await client.query('VACUUM ANALYZE');
    const { rows } = await client.query<{ id: string }>('SELECT id FROM contracts ORDER BY number');
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** The bench plan (monthly, twelve instalments, flat 20 %) and a book of contracts on it. */
export async function benchBook(
  serverUrl: string,
  headers: Record<string, string>,
  databaseUrl: string,
  shape: PortfolioShape = {},
): Promise<string[]> {
  const planResponse = await fetch(`${serverUrl}/api/service-plans`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      code: 'BENCH-M',
      name: 'Monthly bench plan',
      frequency: 'monthly',
      allowedTerms: [TERM],
      apr: 20,
      interestMethod: 'flat',
    }),
  });
  const plan = (await planResponse.json()) as { id: string };
  return generate(databaseUrl, plan.id, shape);
}

/** PostgreSQL's own limit on this machine in this run: pgbench TPC-B, 32 clients, 10 s. */
function tpcb(adminUrl: string): number {
  const url = new URL(adminUrl);
  const name = `bench_tpcb_${Date.now().toString(36)}`;
  const env = {
    ...process.env,
    PGHOST: url.hostname,
    PGPORT: url.port || '5432',
    PGUSER: url.username || 'postgres',
  };
  execFileSync('psql', ['-d', 'postgres', '-c', `CREATE DATABASE ${name}`], { env, stdio: 'ignore' });
  try {
    execFileSync('pgbench', ['-i', '-q', '-s', '10', name], { env, stdio: 'ignore' });
    const out = execFileSync('pgbench', ['-c', '32', '-j', '2', '-T', '10', '-M', 'prepared', name], {
      env,
    }).toString();
    const match = /tps = ([\d.]+)/.exec(out);
    return match ? Number(match[1]) : 0;
  } finally {
    execFileSync('psql', ['-d', 'postgres', '-c', `DROP DATABASE ${name} WITH (FORCE)`], {
      env,
      stdio: 'ignore',
    });
  }
}

export async function paymentBenchmarks(): Promise<Measurement[]> {
  const database = await benchDatabase();
  if (!database)
    return [{ name: 'payments benchmarks', value: 0, unit: 'skipped', note: 'no PostgreSQL reachable' }];
  const adminUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  let server: RunningServer | undefined;
  try {
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'error' });
    const { headers } = await benchOwner(server.url);
    const ids = await benchBook(server.url, headers, database.url, { ledger: true });
    const baseline = tpcb(adminUrl);
    const url = `${server.url}/api/payments`;
    const results: Measurement[] = [
      { name: 'pgbench TPC-B (32 clients, same run): the baseline', value: baseline, unit: 'tps' },
    ];
    // Warm-up: the first requests of a process pay for JIT compilation and cold connections.
    let next = 0;
    const spread = () => ({ contractId: ids[next++ % ids.length], amount: 5_000, method: 'cash' });
    await drive({ url, headers, connections: 8, seconds: 3, body: spread });
    // Statistics for the tables the warm-up first filled, as autovacuum gives them on a live
    // database (it is off on this machine): without them the foreign-key checks into payments
    // and journal entries keep the sequential scans planned while those tables were empty.
    await runOnce(database.url, 'ANALYZE');
    // Warm again at the measured concurrency: the statistics just taken invalidate every
    // connection's prepared plans, and the posting run's first seconds re-planned them on all ten
    // pool connections (measured: p99 200-270 ms for 6 s, then 80-110 ms on the same run).
    await drive({ url, headers, connections: 32, seconds: 3, body: spread });

    // BENCH_ONLY=import measures the statement import alone (with BENCH_CONTRACTS, BENCH_IMPORT_ROWS);
    // BENCH_ONLY=posting the 32-client posting run alone; BENCH_ONLY=lists the lists under writes alone.
    const only = process.env.BENCH_ONLY;
    if (only === 'import')
      return [...results, ...(await importBenchmark(server.url, headers, database.url, ids))];
    if (only !== 'lists') {
      const cpuBefore = cpuSample(server.pid);
      const posting = await drive({ url, headers, connections: 32, seconds: 15, body: spread });
      const cpu = cpuPerRequest(cpuBefore, cpuSample(server.pid), posting.count);
      results.push({
        name: 'POST /api/payments, 32 clients, distinct contracts (allocation + ledger + audit)',
        value: posting.perSecond,
        unit: 'payments/s',
        budget: { limit: 1000, kind: 'min' },
        note: `p50 ${posting.p50.toFixed(1)} ms, p99 ${posting.p99.toFixed(1)} ms, ${posting.errors} errors; ${((100 * posting.perSecond) / baseline).toFixed(0)}% of TPC-B (goal 33%); ${cpu}${posting.firstError ? `; ${posting.firstError}` : ''}`,
      });
      results.push({
        name: 'POST /api/payments p99 (32 clients)',
        value: posting.p99,
        unit: 'ms',
        budget: { limit: 50, kind: 'max' },
      });
      // BENCH_ONLY=posting stops here: the posting figures alone, for iterating on the hot path.
      if (only === 'posting') return results;

      const one = ids[0];
      const contention = await drive({
        url,
        headers,
        connections: 50,
        seconds: 8,
        body: () => ({ contractId: one, amount: 1, method: 'cash' }),
      });
      results.push({
        name: 'POST /api/payments, 50 clients on ONE contract (serialised on its row lock)',
        value: contention.perSecond,
        unit: 'payments/s',
        note: `p99 ${contention.p99.toFixed(1)} ms, ${contention.errors} errors (a deadlock would be one)${contention.firstError ? `; ${contention.firstError}` : ''}`,
      });
    }

    // Lists and search while payments post at 500/s: caches stay correct (evicted by the writes) and
    // fast. 32 writers, so the rate is reached while the reads take their share of the two cores
    // (16 reached 245/s: each waited for its answer before sending the next).
    const writer = drive({ url, headers, connections: 32, seconds: 12, rate: 500, body: spread });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const reads: Array<[string, string]> = [
      ['GET /api/contracts page of 50 under 500 payments/s', '/api/contracts?pageSize=50'],
      ['GET /api/contracts search by name under 500 payments/s', '/api/contracts?q=wanjiru42&pageSize=50'],
      ['GET /api/payments page of 50 under 500 payments/s', '/api/payments?pageSize=50'],
    ];
    for (const [name, path] of reads) {
      const load = await loadTest({
        url: `${server.url}${path}`,
        seconds: 3,
        connections: 8,
        headers: { cookie: headers.cookie ?? '' },
      });
      results.push({
        name,
        value: load.p99,
        unit: 'ms p99',
        budget: { limit: 30, kind: 'max' },
        note: `${load.requestsPerSecond.toFixed(0)} req/s, ${load.non2xx} non-2xx`,
      });
    }
    const written = await writer;
    results.push({
      name: 'payments posted during the list reads',
      value: written.perSecond,
      unit: 'payments/s',
      note: `p99 ${written.p99.toFixed(1)} ms, ${written.errors} errors`,
    });
    if (only === 'lists') return results;

    results.push(...(await importBenchmark(server.url, headers, database.url, ids)));

    // Exactness after all of it: every payment's lines sum to it, and the books balance.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ bad: string; debit: string; credit: string }>(`
      SELECT (SELECT count(*) FROM payments p WHERE p.method <> 'deposit' AND p.amount <>
                (SELECT COALESCE(sum(a.amount), 0) FROM payment_allocations a WHERE a.payment_id = p.id AND a.superseded_at IS NULL)) AS bad,
             (SELECT sum(debit) FROM journal_lines) AS debit, (SELECT sum(credit) FROM journal_lines) AS credit`);
    await client.end();
    results.push({
      name: 'payments whose allocation lines do not sum to them, after the runs',
      value: Number(rows[0]?.bad),
      unit: 'payments',
      budget: { limit: 0, kind: 'max' },
      note: `ledger debits ${rows[0]?.debit} = credits ${rows[0]?.credit}`,
    });
    return results;
  } finally {
    await server?.stop();
    await database.drop();
  }
}

const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 20_000);

/**
 * Statement import: a CSV of IMPORT_ROWS rows over as many contracts (one payment each, dated
 * today), uploaded, previewed, confirmed and polled until posted; beside a raw COPY of the same
 * rows into a table of the same shape, in the same run.
 */
async function importBenchmark(
  url: string,
  headers: Record<string, string>,
  databaseUrl: string,
  ids: string[],
): Promise<Measurement[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // As autovacuum would after the posting runs (it is off on some machines): fresh statistics.
  await client.query('ANALYZE');
  const { rows } = await client.query<{ number: string }>(
    `SELECT number FROM contracts ORDER BY number DESC LIMIT ${IMPORT_ROWS}`,
  );
  const today = new Date().toISOString().slice(0, 10);
  const lines = rows.map((r, i) => `${r.number},12.50,IMP${String(i).padStart(7, '0')},${today}`);
  const csv = `contract,amount,reference,date\n${lines.join('\n')}\n`;
  // The machine's own limit: COPY of the same rows into a table shaped like payments.
  await client.query(
    'CREATE TABLE copy_baseline (id text, contract text, amount bigint, reference text, received_at date, status text)',
  );
  await client.end();
  const copyFile = path.join(tmpdir(), `copy-baseline-${process.pid}.csv`);
  writeFileSync(copyFile, rows.map((r, i) => `p${i},${r.number},1250,IMP${i},${today},posted`).join('\n'));
  const copyStarted = performance.now();
  execFileSync('psql', [databaseUrl, '-q', '-c', `\\copy copy_baseline FROM '${copyFile}' CSV`]);
  const copySeconds = (performance.now() - copyStarted) / 1000;
  rmSync(copyFile);
  const { 'content-type': _json, ...bare } = headers;
  const form = new FormData();
  form.set('source', 'bench-bank');
  form.set('method', 'bank_transfer');
  form.set(
    'mapping',
    JSON.stringify({ contract: 'contract', amount: 'amount', reference: 'reference', date: 'date' }),
  );
  form.set('file', new Blob([csv], { type: 'text/csv' }), 'statement.csv');
  const started = performance.now();
  const upload = await fetch(`${url}/api/payment-imports`, { method: 'POST', headers: bare, body: form });
  if (upload.status !== 201) throw new Error(`import upload: ${upload.status} ${await upload.text()}`);
  const preview = (await upload.json()) as { id: string; validCount: number };
  const previewed = performance.now();
  const confirm = await fetch(`${url}/api/payment-imports/${preview.id}/confirm`, {
    method: 'POST',
    headers: bare,
  });
  if (confirm.status !== 200) throw new Error(`import confirm: ${confirm.status} ${await confirm.text()}`);
  let state = { status: 'posting', postedCount: 0 };
  while (state.status === 'posting') {
    await new Promise((resolve) => setTimeout(resolve, 250));
    state = (await (
      await fetch(`${url}/api/payment-imports/${preview.id}`, { headers: bare })
    ).json()) as typeof state;
  }
  const seconds = (performance.now() - started) / 1000;
  const rate = state.postedCount / seconds;
  void ids;
  // The same number of payments' bare writes on the next contracts, rolled back: the floor.
  const floorClient = new pg.Client({ connectionString: databaseUrl });
  await floorClient.connect();
  const floor = await importFloor(floorClient, IMPORT_ROWS, IMPORT_ROWS).finally(() => floorClient.end());
  const floorRate = IMPORT_ROWS / floor.seconds;
  return [
    {
      name: `statement import: ${IMPORT_ROWS.toLocaleString('en-US')} rows validated and posted (upload to posted)`,
      value: rate,
      unit: 'rows/s',
      budget: { limit: 20_000, kind: 'min' },
      note: `${state.postedCount} of ${preview.validCount} posted, ${state.status}; preview ${((previewed - started) / 1000).toFixed(1)} s; raw COPY of the same rows (psql \\copy) ${Math.round(IMPORT_ROWS / copySeconds).toLocaleString('en-US')} rows/s (${((100 * rate * copySeconds) / IMPORT_ROWS).toFixed(1)}% of it); ${((100 * rate) / floorRate).toFixed(0)}% of the floor below`,
    },
    {
      name: `  floor: the same number of payments' bare writes, one backend (rolled back)`,
      value: floorRate,
      unit: 'rows/s',
      note: `${((100 * floorRate * copySeconds) / IMPORT_ROWS).toFixed(1)}% of COPY; ms: ${Object.entries(
        floor.steps,
      )
        .map(([step, ms]) => `${step} ${Math.round(ms)}`)
        .join(', ')}`,
    },
  ];
}
