import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ensureDemoTemplate } from '../src/server/demo/template';
import { median, ownerSession, startServer } from '../tests/support/server-process';
import { loadTest } from './lib/load';
import { phonePerformance } from './lib/page-performance';
import { benchDatabase } from './lib/postgres';
import type { Measurement } from './lib/report';

/**
 * Budgets of issues 2-4: start-up; throughput of GET /api/user (>= 5,000/s), the unread count
 * every open tab polls (>= 5,000/s) and the public calculator quote (>= 3,000/s); first-load JS
 * of /login and /calculator, and of the customer portal (issue 16: <= 120 KB on a phone).
 */
export async function platformBenchmarks(): Promise<Measurement[]> {
  return [
    ...(await startup()),
    ...(await throughput([
      { name: 'GET /api/user with a session', path: '/api/user', minimum: 5000 },
      { name: 'GET /api/notifications/unread-count', path: '/api/notifications/unread-count', minimum: 5000 },
      {
        name: 'GET /api/calculator/quote (52 weekly instalments)',
        path: '/api/calculator/quote?price=1500000&deposit=150000&frequency=weekly&term=52&apr=36&interestMethod=declining',
        minimum: 3000,
      },
    ])),
    ...(await firstLoad('/login', 'first load of /login')),
    ...(await firstLoad('/calculator', 'first load of /calculator')),
    ...(await firstLoad('/customer', 'first load of /customer', 120, { phoneScore: true })),
  ];
}

async function startup(): Promise<Measurement[]> {
  // The demo book is built once into its template (decision 025); a fresh start loads it, timed here.
  await ensureDemoTemplate((message) => console.log(message));
  const fresh: number[] = [];
  const restart: number[] = [];
  const freshPostgres: number[] = [];
  for (let run = 0; run < 3; run++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-start-'));
    const first = await startServer({ DATA_DIR: dataDir, DEMO_DATA: 'true' });
    fresh.push(first.readyMs);
    await first.stop();
    const again = await startServer({ DATA_DIR: dataDir, DEMO_DATA: 'true' });
    restart.push(again.readyMs);
    await again.stop();
    rmSync(dataDir, { recursive: true, force: true });
    const postgres = await benchDatabase();
    if (!postgres) continue;
    const onPostgres = await startServer({ DATABASE_URL: postgres.url, DEMO_DATA: 'true' });
    freshPostgres.push(onPostgres.readyMs);
    await onPostgres.stop();
    await postgres.drop();
  }
  const budget = { limit: 5000, kind: 'max' } as const;
  const median3 = (name: string, values: number[]): Measurement => ({
    name,
    value: median(values),
    unit: 'ms',
    budget,
    note: `median of 3: ${values.map(Math.round).join(', ')}`,
  });
  return [
    median3('start to /api/health 200, new data dir (the whole demo book)', fresh),
    median3('start to /api/health 200, existing data dir', restart),
    ...(freshPostgres.length
      ? [median3('start to /api/health 200, new PostgreSQL database (the whole demo book)', freshPostgres)]
      : []),
  ];
}

interface Endpoint {
  name: string;
  path: string;
  /** Requests per second it must sustain. */
  minimum: number;
}

async function throughput(endpoints: Endpoint[]): Promise<Measurement[]> {
  const results: Measurement[] = [];
  // The load comes from one address: lift the calculator's per-address limit (600 a minute by
  // default) so the bench measures capacity, not the limiter.
  const unlimited = { CALCULATOR_RATE_LIMIT_PER_MINUTE: String(1e9) };
  const targets: Array<{ label: string; env: Record<string, string>; drop?: () => Promise<void> }> = [
    { label: 'PGlite', env: unlimited },
  ];
  const postgres = await benchDatabase();
  if (postgres)
    targets.push({
      label: 'PostgreSQL',
      env: { ...unlimited, DATABASE_URL: postgres.url },
      drop: postgres.drop,
    });
  for (const target of targets) {
    const server = await startServer(target.env);
    try {
      const { cookie } = await ownerSession(server.url);
      for (const endpoint of endpoints) {
        const url = `${server.url}${endpoint.path}`;
        await loadTest({ url, seconds: 2, connections: 50, headers: { cookie } }); // warm-up
        const load = await loadTest({ url, seconds: 10, connections: 50, headers: { cookie } });
        results.push({
          name: `${endpoint.name} (${target.label})`,
          value: load.requestsPerSecond,
          unit: 'req/s',
          budget: { limit: endpoint.minimum, kind: 'min' },
          note: `p50 ${load.p50} ms, p99 ${load.p99} ms, non-2xx ${load.non2xx}, errors ${load.errors}`,
        });
        if (load.non2xx || load.errors)
          throw new Error(`${endpoint.path} answered non-2xx ${load.non2xx}, errors ${load.errors}`);
      }
    } finally {
      await server.stop();
      await target.drop?.();
    }
  }
  return results;
}

/**
 * Loads a page in Chromium and sums the gzipped size of every JavaScript file it fetched (what a
 * first visit downloads), from the built files on disk.
 */
export async function firstLoad(
  route: string,
  name: string,
  limitKb = 150,
  options: { phoneScore?: boolean } = {},
): Promise<Measurement[]> {
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await page.goto(`${server.url}${route}`, { waitUntil: 'networkidle' });
    let total = 0;
    for (const script of scripts)
      total += gzipSync(readFileSync(path.join('dist/web', script)), { level: 9 }).length;
    const size: Measurement = {
      name,
      value: total / 1024,
      unit: 'KB gzipped JS',
      budget: { limit: limitKb, kind: 'max' },
      note: `${scripts.size} files`,
    };
    if (!options.phoneScore) return [size];
    const phone = await phonePerformance(browser, `${server.url}${route}`);
    return [
      size,
      {
        name: `${route} on a throttled phone: Lighthouse-style score`,
        value: phone.score,
        unit: 'of 100',
        budget: { limit: 90, kind: 'min' },
        note: `FCP ${phone.fcpMs.toFixed(0)} ms, LCP ${phone.lcpMs.toFixed(0)} ms, TBT ${phone.tbtMs.toFixed(0)} ms, CLS ${phone.cls.toFixed(3)} (slow 4G, CPU 4x, from Chromium's trace)`,
      },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}
