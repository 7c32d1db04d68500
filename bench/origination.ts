import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase, queryRows } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { BUILD_TEMPLATE, readTemplate } from '../src/db/template';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { rescoreCustomers } from '../src/server/modules/customers/rescore';
import { ownerSession, type RunningServer, startServer } from '../tests/support/server-process';
import { loadTest } from './lib/load';
import { benchDatabase } from './lib/postgres';
import type { Measurement } from './lib/report';
import { SCORECARD_SETTINGS_SQL, scorecardKeyOf } from './lib/scorecard';

const CUSTOMERS = 100_000;
const CONNECTIONS = 32;
const SECONDS = 10;
/** A fragment of one surname in ten (about 10,000 matching customers). */
const SURNAME_FRAGMENT = 'anjik';

const FIRST_NAMES = [
  'Amina',
  'Baraka',
  'Chebet',
  'Daudi',
  'Esther',
  'Faith',
  'Grace',
  'Hassan',
  'Imani',
  'Joseph',
];
const LAST_NAMES = [
  'Otieno',
  'Wanjiku',
  'Kamau',
  'Mwangi',
  'Achieng',
  'Njoroge',
  'Odhiambo',
  'Kiplagat',
  'Mutua',
  'Nyambura',
];
const REGIONS = ['Nairobi', 'Mombasa', 'Kisumu', 'Nakuru', 'Eldoret', 'Thika', 'Machakos', 'Nyeri'];

const textArray = (values: string[]) => sql.raw(`ARRAY[${values.map((v) => `'${v}'`).join(', ')}]`);

/**
 * 100,000 customers in one set-based statement: names, unique phones and IDs, regions, KYC
 * states and risk grades spread over the rows, creation times spread over the last 70 days.
 */
export async function insertCustomers(database: Database, count: number): Promise<number> {
  const started = performance.now();
  // Scored under the organisation's current scorecard, so the server does not rescore them all
  // while the lists are measured.
  const [org] = await queryRows<{ currency: string; income_bands: [number, number, number] | null }>(
    database.db,
    sql.raw(SCORECARD_SETTINGS_SQL),
  );
  const scorecard = scorecardKeyOf(org);
  await database.db.execute(sql`
    INSERT INTO customers (id, account_number, first_name, last_name, phone, email, national_id, region,
                           kyc_status, risk_score, risk_grade, risk_decision, risk_scorecard, created_at, updated_at)
    SELECT gen_random_uuid()::text,
           'C-' || lpad(nextval('customer_number_seq')::text, 6, '0'),
           (${textArray(FIRST_NAMES)})[1 + g % 10],
           (${textArray(LAST_NAMES)})[1 + (g / 10) % 10],
           '+2547' || lpad(g::text, 8, '0'),
           'customer' || g || '@example.com',
           'N' || lpad(g::text, 8, '0'),
           (${textArray(REGIONS)})[1 + g % 8],
           (ARRAY['not_started', 'pending', 'verified', 'verified', 'rejected'])[1 + g % 5],
           40 + g % 90,
           (ARRAY['A', 'B', 'C', 'D', 'E'])[1 + g % 5],
           'approve',
           ${scorecard},
           now() - make_interval(secs => g * 60),
           now()
    FROM generate_series(1, ${count}) AS g`);
  // As autovacuum would soon after (it is off on some machines): statistics and the visibility map.
  await database.db.execute(sql`VACUUM ANALYZE customers`);
  return performance.now() - started;
}

/**
 * After an administrator changes the income bands, every stored score is redone in the
 * background (customers/rescore.ts): timed here in-process over the same rows.
 */
async function timeRescore(databaseUrl: string): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-rescore-'));
  const database = await openDatabase({ url: databaseUrl, dataDir, poolSize: 4 });
  try {
    await database.db.execute(
      sql`UPDATE organisation_settings SET income_bands = '[500000, 1500000, 4000000]'::jsonb WHERE id = 1`,
    );
    const app = await buildApp({
      config: loadConfig({ DATA_DIR: dataDir, DEMO_DATA: 'false', LOG_LEVEL: 'silent' }),
      database,
      appSecret: 'bench-secret-that-is-at-least-32-characters-long',
      logger: false,
      webRoot: path.join(dataDir, 'no-web'),
    });
    try {
      const started = performance.now();
      const rescored = await rescoreCustomers(app.ctx);
      if (rescored < CUSTOMERS) throw new Error(`rescored ${rescored} of ${CUSTOMERS} customers`);
      return performance.now() - started;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Target {
  label: string;
  /** Where the rows are, when another process may open them too (PostgreSQL). */
  url?: string;
  start: () => Promise<{ server: RunningServer; cookie: string; insertMs: number }>;
  cleanup: () => Promise<void>;
}

function pgliteTarget(): Target {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-origination-'));
  return {
    label: 'PGlite',
    start: async () => {
      // The embedded database belongs to one process: fill it first, then start the server on it.
      const first = await startServer({ DATA_DIR: dataDir });
      const { cookie } = await ownerSession(first.url);
      await first.stop();
      const database = await openDatabase({ dataDir, template: readTemplate(BUILD_TEMPLATE) });
      await migrate(database);
      const insertMs = await insertCustomers(database, CUSTOMERS);
      await database.close();
      return { server: await startServer({ DATA_DIR: dataDir }), cookie, insertMs };
    },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function postgresTarget(): Promise<Target | undefined> {
  const postgres = await benchDatabase();
  if (!postgres) return undefined;
  return {
    label: 'PostgreSQL',
    url: postgres.url,
    start: async () => {
      const server = await startServer({ DATABASE_URL: postgres.url });
      const { cookie } = await ownerSession(server.url);
      const database = await openDatabase({ url: postgres.url, dataDir: 'unused', poolSize: 1 });
      const insertMs = await insertCustomers(database, CUSTOMERS);
      await database.close();
      return { server, cookie, insertMs };
    },
    cleanup: postgres.drop,
  };
}

/** Issue: list endpoints (page of 50) over 100k customers, >= 3,000 req/s and p99 <= 30 ms. */
export async function originationBenchmarks(): Promise<Measurement[]> {
  const results: Measurement[] = [];
  const targets = [pgliteTarget(), await postgresTarget()].filter((target): target is Target => !!target);
  for (const target of targets) {
    try {
      const { server, cookie, insertMs } = await target.start();
      try {
        results.push({
          name: `insert ${CUSTOMERS.toLocaleString('en-US')} customers, set-based (${target.label})`,
          value: insertMs,
          unit: 'ms',
        });
        const probe = await fetch(`${server.url}/api/customers?q=${SURNAME_FRAGMENT}`, {
          headers: { cookie },
        });
        const matches = ((await probe.json()) as { total: number }).total;
        for (const [label, query] of [
          ['GET /api/customers (page of 50)', '/api/customers'],
          [
            `GET /api/customers?q=${SURNAME_FRAGMENT} (${matches.toLocaleString('en-US')} matches)`,
            `/api/customers?q=${SURNAME_FRAGMENT}`,
          ],
        ] as const) {
          // Warm-up (JIT, caches), not measured.
          await loadTest({
            url: `${server.url}${query}`,
            seconds: 2,
            connections: CONNECTIONS,
            headers: { cookie },
          });
          const load = await loadTest({
            url: `${server.url}${query}`,
            seconds: SECONDS,
            connections: CONNECTIONS,
            headers: { cookie },
          });
          if (load.non2xx || load.errors) {
            throw new Error(`${label} answered non-2xx ${load.non2xx}, errors ${load.errors}`);
          }
          results.push(
            {
              name: `${label}, ${CONNECTIONS} clients (${target.label})`,
              value: load.requestsPerSecond,
              unit: 'req/s',
              budget: { limit: 3000, kind: 'min' },
              note: `p50 ${load.p50} ms, p99 ${load.p99} ms`,
            },
            {
              name: `${label} p99 (${target.label})`,
              value: load.p99,
              unit: 'ms',
              budget: { limit: 30, kind: 'max' },
            },
          );
        }
      } finally {
        await server.stop();
      }
      if (target.url) {
        results.push({
          name: `rescore ${CUSTOMERS.toLocaleString('en-US')} customers after an income-band change (${target.label})`,
          value: (await timeRescore(target.url)) / 1000,
          unit: 's',
        });
      }
    } finally {
      await target.cleanup();
    }
  }
  return results;
}
