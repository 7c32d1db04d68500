import pg from 'pg';
import { addDays } from '../src/domain';
import { startBookServer } from './lib/book-server';
import { closeFloor } from './lib/close-floor';
import { longRequest } from './lib/long-post';
import { benchOwnerAgain } from './lib/owner';
import { benchAdminUrl } from './lib/postgres';

/**
 * The close of business timed on a copy of a kept, never-closed bench book, so one book serves
 * many runs (decisions 056 and 058 were measured this way). Keep a book once:
 *   BENCH_KEEP_DB=1 BENCH_EOD_BOOK_ONLY=1 [BENCH_EOD_CONTRACTS=1000000] npm run bench close-of-business
 * (rename the kept database if you like), then:
 *   npx tsx bench/close-copy.ts <book database>
 * Each run copies the book (FILE_COPY, then a checkpoint), closes its business date through the
 * API, prints each step with the WAL written, and drops the copy. Optional, by environment:
 * - BASELINE=1: first a full UPDATE of the instalments on the copy (the benchmarks' baseline);
 * - NEXT=1: then the next day's start and close, as `npm run bench close-of-business` times them;
 * - EXPLAIN=<ms>: auto_explain (analyze, buffers, WAL, nested) of every statement slower than that,
 *   into the server's log;
 * - WAL_COMPRESSION=<lz4|off>: that setting for the copy's sessions;
 * - FLOOR=1: after the close, the floor under it: the rows it wrote, written again by bare statements
 *   (`lib/close-floor.ts`) on one backend; FLOOR=2: on two side by side;
 * - KEEP=1: keep the copy.
 * The server is the build (`npm run build` first) on the admin URL of BENCH_DATABASE_URL or
 * TEST_DATABASE_URL, as the benchmarks'.
 */
const source = process.argv[2];
if (!source || !/^\w+$/.test(source)) throw new Error('Usage: npx tsx bench/close-copy.ts <book database>');
const adminUrl = benchAdminUrl();
const copy = `close_copy_${Date.now()}`;
const copyUrl = Object.assign(new URL(adminUrl), { pathname: `/${copy}` }).toString();

const settings: Record<string, string> = {};
if (process.env.EXPLAIN)
  Object.assign(settings, {
    session_preload_libraries: 'auto_explain',
    'auto_explain.log_min_duration': String(Number(process.env.EXPLAIN)),
    'auto_explain.log_analyze': 'on',
    'auto_explain.log_buffers': 'on',
    'auto_explain.log_wal': 'on',
    'auto_explain.log_nested_statements': 'on',
  });
if (process.env.WAL_COMPRESSION) settings.wal_compression = process.env.WAL_COMPRESSION;

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${copy} TEMPLATE ${source} STRATEGY FILE_COPY`);
for (const [name, value] of Object.entries(settings))
  await admin.query(`ALTER DATABASE ${copy} SET ${name} = ${pg.escapeLiteral(value)}`);
await admin.query('CHECKPOINT');

const server = await startBookServer(copyUrl, { BUSINESS_DATE_CONTROL: 'true' });
const client = new pg.Client({ connectionString: copyUrl });
try {
  await client.connect();
  const { headers } = await benchOwnerAgain(server.url);
  const { businessDate } = (await (await fetch(`${server.url}/api/business-date`, { headers })).json()) as {
    businessDate: string;
  };
  /** Times one request (it must answer 200) and the WAL written meanwhile. */
  const timed = async (label: string, method: 'POST' | 'PUT', path: string, body: unknown) => {
    const lsn = (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn')).rows[0]?.lsn;
    const started = performance.now();
    const answer = await longRequest(method, `${server.url}${path}`, headers, body);
    const ms = Math.round(performance.now() - started);
    if (answer.status !== 200) throw new Error(`${label}: ${answer.status}`);
    const wal = await client.query<{ bytes: string }>(
      'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS bytes',
      [lsn],
    );
    console.log(`${label}: ${ms} ms, ${Math.round(Number(wal.rows[0]?.bytes) / 1e6)} MB of WAL`);
    return answer;
  };
  const close = async (date: string) => {
    const answer = await timed(`close of ${date}`, 'POST', '/api/eod/run', { businessDate: date });
    const run = (answer.json() as { runs: Run[] }).runs.at(-1);
    console.log(`  ${run?.status}`);
    for (const step of run?.steps ?? [])
      console.log(
        `  ${step.step.padEnd(17)} ${String(step.durationMs).padStart(7)} ms  ${JSON.stringify(step.counts)}`,
      );
  };
  if (process.env.BASELINE) {
    const started = performance.now();
    await client.query('UPDATE contract_installments SET penalty_due = penalty_due');
    console.log(`baseline, UPDATE every instalment: ${Math.round(performance.now() - started)} ms`);
  }
  const closing = new Date();
  await close(businessDate);
  if (process.env.FLOOR) {
    const lanes = [client];
    if (process.env.FLOOR === '2') {
      const second = new pg.Client({ connectionString: copyUrl });
      await second.connect();
      lanes.push(second);
    }
    const floor = await closeFloor(lanes, businessDate, closing).finally(() =>
      Promise.all(lanes.slice(1).map((lane) => lane.end())),
    );
    console.log(`the floor under it, ${lanes.length} backend(s): ${floor.seconds.toFixed(1)} s`);
    for (const [step, ms] of Object.entries(floor.steps))
      console.log(`  ${step.padEnd(17)} ${String(ms).padStart(7)} ms  ${floor.rows[step] ?? ''}`);
    console.log(`  rows: ${JSON.stringify(floor.rows)}`);
  }
  if (process.env.NEXT) {
    const next = addDays(businessDate, 1);
    await timed(`the day's start of ${next}`, 'PUT', '/api/business-date', { businessDate: next });
    await close(next);
  }
} finally {
  await client.end();
  await server.stop();
  if (process.env.KEEP) console.log(`kept ${copy}`);
  else await admin.query(`DROP DATABASE ${copy}`);
  await admin.end();
}

interface Run {
  status: string;
  steps: { step: string; durationMs: number; counts: Record<string, number> }[];
}
