import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database of one test file or benchmark, on the PostgreSQL server of `adminUrl`. */
export interface ScratchDatabase {
  name: string;
  url: string;
  /** Drops it, closing whatever is still connected. */
  drop(): Promise<void>;
}

/** One statement on the server's administrative connection. */
async function onServer(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A new database named `<prefix>_<time>_<random>` (never the same twice, even from parallel
 * workers), empty or a copy of `template`: the integration files' test databases, the browser
 * files' servers on PostgreSQL and the benchmarks all make theirs here. Light on imports (only
 * `pg`), so a browser worker does not load the server's modules to make one.
 */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await onServer(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => onServer(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
