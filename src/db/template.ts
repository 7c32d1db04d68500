import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { projectPath } from '../server/paths';
import { type Database, openDatabase } from './client';
import { migrate } from './migrate';
import { withoutEntries } from './tar';

/**
 * A migrated, empty PGlite data directory, dumped once (at build time, and once per test run).
 * Creating a PGlite database from scratch runs initdb (4-5 s on this machine); loading this
 * dump takes under a second. Newer migrations are applied on top as usual.
 */
export const BUILD_TEMPLATE = projectPath('dist/pglite-template.tar.gz');

/** `prepare` adds what is installed besides the migrations (the job queue's schema and queues). */
export async function writeTemplate(
  file: string,
  prepare?: (database: Database) => Promise<void>,
): Promise<void> {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrate(database);
    await prepare?.(database);
    const dump = await compactDump(database);
    mkdirSync(path.dirname(file), { recursive: true });
    // Write then rename, so a concurrent reader never sees half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, dump);
    renameSync(partial, file);
  } finally {
    await database.close();
  }
}

/**
 * The data directory's dump without the write-ahead log segments a start does not need: after a
 * checkpoint only the segment of its redo point onwards is read. The others (written while the
 * database was filled, or recycled in advance) were most of a filled template's size and of the
 * time a start spends unpacking it.
 */
async function compactDump(database: Database): Promise<Buffer> {
  const wal = await database.withConnection(async (connection) => {
    await connection.exec('CHECKPOINT');
    const [row] = await connection.query<{ redo: string; current: string }>(
      `SELECT redo_wal_file AS redo, pg_walfile_name(pg_current_wal_insert_lsn()) AS current
       FROM pg_control_checkpoint()`,
    );
    return row;
  });
  const dump = await database.dumpDataDir();
  if (!wal) return dump;
  const kept = withoutEntries(gunzipSync(dump), (name) => {
    const segment = /pg_wal\/([0-9A-F]{24})$/.exec(name)?.[1];
    return segment !== undefined && (segment < wal.redo || segment > wal.current);
  });
  return gzipSync(kept);
}

/**
 * A template file as PGlite loads it. Typed as gzip (every template is written gzipped): PGlite
 * reads an untyped blob as a plain tar first and unpacks it only after that read fails.
 */
export function readTemplate(file: string): Blob | undefined {
  return existsSync(file) ? new Blob([readFileSync(file)], { type: 'application/gzip' }) : undefined;
}

/**
 * What a template's content depends on besides the code that fills it: the migrations' content
 * and the job queue it carries (pg-boss's version and the registered jobs' names), plus `extra`.
 * A template named by this key is rebuilt exactly when one of them changes.
 */
export function templateKey(jobNames: readonly string[], extra: readonly string[] = []): string {
  const directory = projectPath('src/db/migrations');
  const hash = createHash('sha256');
  for (const name of readdirSync(directory)
    .filter((file) => file.endsWith('.sql'))
    .sort()) {
    hash.update(name).update(readFileSync(path.join(directory, name)));
  }
  const boss = JSON.parse(readFileSync(projectPath('node_modules/pg-boss/package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(boss.version).update(jobNames.join(','));
  for (const part of extra) hash.update(part);
  return hash.digest('hex').slice(0, 16);
}
