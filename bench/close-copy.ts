import pg from 'pg';
import { addDays } from '../src/domain';
import { startBookServer } from './lib/book-server';
import { longRequest } from './lib/long-post';
import { benchOwnerAgain } from './lib/owner';

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
 * - KEEP=1: keep the copy.
 * The server is the build (`npm run build` first) on the admin URL of BENCH_DATABASE_URL or
 * TEST_DATABASE_URL, as the benchmarks'.
 */
const source = process.argv[2];
if (!source || !/^\w+$/.test(source)) throw new Error('Usage: npx tsx bench/close-copy.ts <book database>');
const adminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const copy = `close_copy_${Date.now()}`;
const copyUrl = Object.assign(new URL(adminUrl), { pathname: `/${copy}` }).toString();

interface Run {
  status: string;
  steps: { step: string; durationMs: number; counts: Record<string, number> }[];
}

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${copy} TEMPLATE ${source} STRATEGY FILE_COPY`);
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
  const timed = async (label: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    const ms = Math.round(performance.now() - started);
    console.log(`${label}: ${ms} ms`);
    return ms;
  };
  const printSteps = (run: Run | undefined) => {
    for (const step of run?.steps ?? [])
      console.log(
        `  ${step.step.padEnd(17)} ${String(step.durationMs).padStart(7)} ms  ${JSON.stringify(step.counts)}`,
      );
  };
  const walAt = async () =>
    (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn')).rows[0]?.lsn;
  const walSince = async (lsn: string | undefined) =>
    Number(
      (await client.query<{ d: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS d', [lsn]))
        .rows[0]?.d,
    );
  const close = async (date: string) => {
    const lsn = await walAt();
    let run: Run | undefined;
    await timed(`close of ${date}`, async () => {
      const answer = await longRequest('POST', `${server.url}/api/eod/run`, headers, { businessDate: date });
      run = (answer.json() as { runs: Run[] }).runs.at(-1);
    });
    console.log(`  ${run?.status}, ${Math.round((await walSince(lsn)) / 1e6)} MB of WAL`);
    printSteps(run);
  };
  if (process.env.BASELINE)
    await timed('baseline: UPDATE every instalment', () =>
      client.query('UPDATE contract_installments SET penalty_due = penalty_due'),
    );
  await close(businessDate);
  if (process.env.NEXT) {
    const next = addDays(businessDate, 1);
    await timed(`the day's start of ${next}`, () =>
      longRequest('PUT', `${server.url}/api/business-date`, headers, { businessDate: next }),
    );
    await close(next);
  }
} finally {
  await client.end();
  await server.stop();
  if (process.env.KEEP) console.log(`kept ${copy}`);
  else await admin.query(`DROP DATABASE ${copy}`);
  await admin.end();
}
