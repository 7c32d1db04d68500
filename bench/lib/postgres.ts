import pg from 'pg';

/** A throwaway PostgreSQL database for one benchmark, when a server is reachable. */
export async function benchDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const adminUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `bench_${Date.now().toString(36)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      // BENCH_KEEP_DB=1 keeps it, to EXPLAIN a benchmark's statements on its data afterwards.
      if (process.env.BENCH_KEEP_DB) return console.log(`kept database ${name}`);
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
