import { type Database, openDatabase } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { templateBlob, templateTar } from '../../src/db/template';
import { createScratchDatabase } from './scratch-database';
import { postgresTemplateName, testTemplatePath } from './template';

export type DatabaseKind = 'pglite' | 'postgres';

/** Every integration suite runs on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set. */
export const DATABASE_KINDS: DatabaseKind[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

export interface TestDatabase {
  database: Database;
  /** Connection string of the PostgreSQL database (undefined on PGlite). */
  url: string | undefined;
  drop(): Promise<void>;
}

let testTemplate: Buffer | undefined;
/** The PGlite template as a plain tar, read and unpacked once per worker instead of per database. */
function pgliteTemplate(): Blob {
  testTemplate ??= templateTar(testTemplatePath());
  return templateBlob(testTemplate);
}

/** A fresh, migrated database of the given kind; `drop` removes it. */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const migrated = options.migrate ?? true;
  if (kind === 'pglite') {
    const database = await openDatabase({
      dataDir: 'memory://',
      template: migrated ? pgliteTemplate() : undefined,
      // A test's few rows fit a small pool, which opens faster (0.46 s against 0.80 s).
      sharedBuffers: '32MB',
    });
    if (migrated) await migrate(database);
    return { database, url: undefined, drop: () => database.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  // A copy of the run's migrated template (global setup), as PGlite starts from its dump: copying
  // takes a tenth of the time of running every migration again. `migrate` below then finds nothing
  // to apply, and would apply what a template somehow lacked.
  const scratch = await createScratchDatabase(adminUrl, 't', migrated ? postgresTemplateName() : undefined);
  const database = await openDatabase({ url: scratch.url, dataDir: 'unused', poolSize: 5 });
  if (migrated) await migrate(database);
  return {
    database,
    url: scratch.url,
    drop: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}
