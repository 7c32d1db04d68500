import { inject } from 'vitest';
import { createScratchDatabase } from '../../tests/support/scratch-database';

/** Where a browser file's server keeps its data. */
export type ServerDatabase = 'embedded' | 'postgres';

/** A browser file's own database: what its server's environment needs, and how to remove it. */
export interface FileDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * The database a browser file's server starts on. `embedded`: none given, so the server makes a
 * new embedded database in its fresh data directory, as a first start does. `postgres`: a copy of
 * the run's migrated template (`global-setup.ts`) when the suite has PostgreSQL (TEST_DATABASE_URL),
 * dropped after the file; without it, embedded. A server on PostgreSQL costs half the CPU of one on
 * the embedded database (no template to unpack and load, native queries), and the money path is
 * what lenders run on PostgreSQL, so those files run there and the rest on the embedded database:
 * the browser suite covers both (decision 040).
 */
export async function fileDatabase(wanted: ServerDatabase): Promise<FileDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (wanted === 'embedded' || !adminUrl || !template) return { env: {}, drop: async () => {} };
  const scratch = await createScratchDatabase(adminUrl, 'e2e', template);
  return { env: { DATABASE_URL: scratch.url }, drop: scratch.drop };
}
