import pg from 'pg';
import { type RunningServer, startServer } from '../tests/support/server-process';
import { benchOwner } from './lib/owner';
import { benchDatabase } from './lib/postgres';
import type { Measurement } from './lib/report';
import { benchBook } from './payments';

/**
 * Issue 14's budget: the close of business of one date over 100,000 active contracts (a fifth of
 * them 75 days behind: late fees, locks for half their units, defaults) in at most 10 s, with
 * each step's share, beside a full UPDATE of the instalments table in the same run.
 */
export async function closeOfBusinessBenchmarks(): Promise<Measurement[]> {
  const database = await benchDatabase();
  if (!database)
    return [
      { name: 'close of business benchmarks', value: 0, unit: 'skipped', note: 'no PostgreSQL reachable' },
    ];
  let server: RunningServer | undefined;
  try {
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'error' });
    const { headers } = await benchOwner(server.url);
    const terms = JSON.stringify({
      allocationStrategy: 'default',
      lateFeeKind: 'percent',
      lateFeeValue: 5,
      graceDays: 3,
      lockAfterDays: 7,
      defaultAfterDays: 60,
    });
    await benchBook(server.url, headers, database.url, { terms, overdueEvery: 5, lockApiEvery: 2 });
    const { businessDate } = (await (await fetch(`${server.url}/api/business-date`, { headers })).json()) as {
      businessDate: string;
    };
    const started = performance.now();
    const response = await fetch(`${server.url}/api/eod/run`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ businessDate }),
    });
    const elapsed = performance.now() - started;
    const result = (await response.json()) as {
      runs: {
        status: string;
        steps: { step: string; durationMs: number; counts: Record<string, number> }[];
      }[];
    };
    const run = result.runs.at(-1);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const before = performance.now();
    await client.query('UPDATE contract_installments SET penalty_due = penalty_due');
    const baseline = performance.now() - before;
    await client.end();
    return [
      {
        name: 'close of business, one date, 100,000 active contracts (API)',
        value: elapsed / 1000,
        unit: 's',
        budget: { limit: 10, kind: 'max' },
        note: `${run?.status ?? response.status}; baseline full UPDATE of 1.2 M instalments ${(baseline / 1000).toFixed(2)} s`,
      },
      ...(run?.steps ?? []).map((step) => ({
        name: `  step ${step.step}`,
        value: step.durationMs,
        unit: 'ms',
        note: Object.entries(step.counts)
          .map(([key, value]) => `${key} ${value}`)
          .join(', '),
      })),
      { name: 'baseline: UPDATE every instalment row (same run)', value: baseline, unit: 'ms' },
    ];
  } finally {
    await server?.stop();
    await database.drop();
  }
}
