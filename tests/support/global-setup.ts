import { existsSync } from 'node:fs';
import pg from 'pg';
import { openDatabase } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { writeTemplate } from '../../src/db/template';
import { isAlive } from '../../src/server/demo/build-lock';
import { prepareJobQueue } from '../../src/server/jobs/queue';
import { JOBS } from '../../src/server/jobs/registry';
import { postgresTemplateName, testTemplatePath } from './template';

/**
 * Once per test run, the databases every test database starts from (saves running the migrations
 * per file): a migrated PGlite dump, and a migrated PostgreSQL database when TEST_DATABASE_URL is set.
 */
export default async function setup(): Promise<void> {
  const file = testTemplatePath();
  if (!existsSync(file)) await writeTemplate(file, (database) => prepareJobQueue(database, JOBS));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) await ensurePostgresTemplate(adminUrl);
}

/**
 * The PostgreSQL template under the migrations' key, built when absent: migrated under a name of
 * its own, then renamed, so a run stopped mid-way never leaves a half-built template under the
 * key. Connections to it are refused (a copy needs it idle). Templates of other keys are dropped,
 * and builds left by runs that were stopped (their process is gone).
 */
export async function ensurePostgresTemplate(adminUrl: string): Promise<void> {
  const name = postgresTemplateName();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 't\\_template\\_%' OR datname LIKE 't\\_building\\_%'`,
    );
    for (const { datname } of rows) {
      const builder = /^t_building_(\d+)$/.exec(datname)?.[1];
      if (datname === name || (builder && isAlive(Number(builder)))) continue;
      await admin.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`);
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
    if (rows.some((row) => row.datname === name)) return;
    const building = `t_building_${process.pid}`;
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    const database = await openDatabase({ url: url.toString(), dataDir: 'unused', poolSize: 1 });
    try {
      await migrate(database);
    } finally {
      await database.close();
    }
    try {
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      // Another run built it meanwhile: its copy is the same.
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount) return;
      throw error;
    }
    await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  } finally {
    await admin.end();
  }
}
