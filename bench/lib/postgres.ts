import pg from 'pg';
import { createScratchDatabase } from '../../tests/support/scratch-database';

/** The PostgreSQL server benchmarks make their databases on (a database of it to connect to). */
export const benchAdminUrl = (): string =>
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

/** A throwaway PostgreSQL database for one benchmark, when a server is reachable. */
export async function benchDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const adminUrl = benchAdminUrl();
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  await admin.end();
  const scratch = await createScratchDatabase(adminUrl, 'bench');
  return {
    url: scratch.url,
    drop: async () => {
      // BENCH_KEEP_DB=1 keeps it, to EXPLAIN a benchmark's statements on its data afterwards.
      if (process.env.BENCH_KEEP_DB) return console.log(`kept database ${scratch.name}`);
      await scratch.drop();
    },
  };
}

/**
 * One statement on its own connection, opened and closed around it: `ANALYZE` as autovacuum would
 * run it after a burst of inserts, `CHECKPOINT` so what is timed next starts at rest.
 */
export async function runOnce(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
