import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows } from '../../db/client';
import type { AppContext } from '../context';
import { defineJob } from './definition';

/**
 * Vacuums and analyses every table of the embedded database (PGlite). PGlite runs PostgreSQL in one
 * process with no autovacuum worker (its `autovacuum` setting reads on, and nothing acts on it), so
 * without this no dead row version is ever reclaimed, the files grow with every update, and the
 * planner never has statistics: its estimates stay those of empty tables however large the book
 * grows (decision 061). On PostgreSQL the server's autovacuum does both, as the deployment sets
 * it; the job leaves the server's tables alone. Answers how many tables it vacuumed.
 */
export async function maintainDatabase(ctx: AppContext): Promise<{ tables: number }> {
  if (ctx.database.kind !== 'pglite') return { tables: 0 };
  // Outside any transaction (VACUUM refuses one): the one connection waits for the transaction
  // under way, and a request arriving meanwhile waits for the VACUUM.
  await ctx.db.execute(sql`VACUUM (ANALYZE)`);
  const [row] = await queryRows<{ tables: number }>(
    ctx.db,
    sql`SELECT count(*)::int AS tables FROM pg_stat_user_tables WHERE last_vacuum IS NOT NULL`,
  );
  return { tables: row?.tables ?? 0 };
}

/** Nightly, before the runs' pruning and long after a usual close of business. */
export const maintainDatabaseJob = defineJob({
  name: 'database.maintain',
  description: 'Vacuums and analyses the embedded database nightly (PostgreSQL: its autovacuum does)',
  payload: z.object({}),
  schedule: { cron: '20 3 * * *' },
  retry: { limit: 2, delaySeconds: 300, backoff: false },
  expireInSeconds: 3600,
  singletonKey: 'database.maintain',
  run: (ctx) => maintainDatabase(ctx),
});
