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
  let dump: Buffer;
  try {
    await migrate(database);
    await prepare?.(database);
    dump = await compactDump(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  // Write then rename, so a concurrent reader never sees half a file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, dump);
  renameSync(partial, file);
}

/** Names how `compactDump` writes a template, in every template key. */
const DUMP_FORM = 'clean shutdown, checkpoint segment only';

/**
 * The data directory after a clean shutdown (a start from it skips crash recovery: a fifth of a
 * start from the test template), gzipped, without the write-ahead log segments a start does not
 * read. It reads the segment of the shutdown checkpoint only, written where the log ends after a
 * checkpoint (the next segment too when that is within a page of the segment's end). The others
 * (written while the database was filled, or recycled in advance) were most of a filled
 * template's size and of the time a start spends unpacking it.
 */
async function compactDump(database: Database): Promise<Buffer> {
  const wal = await database.withConnection(async (connection) => {
    await connection.exec('CHECKPOINT');
    const [row] = await connection.query<{ first: string; last: string }>(
      `SELECT pg_walfile_name(pg_current_wal_insert_lsn()) AS first,
              pg_walfile_name(pg_current_wal_insert_lsn() + 8192) AS last`,
    );
    return row;
  });
  const tar = await database.closeAndDump();
  if (!wal) return gzipSync(tar);
  return gzipSync(
    withoutEntries(tar, (name) => {
      const segment = /pg_wal\/([0-9A-F]{24})$/.exec(name)?.[1];
      return segment !== undefined && (segment < wal.first || segment > wal.last);
    }),
  );
}

/**
 * A template file as PGlite loads it: unpacked here (zlib's native gunzip, not PGlite's stream) and
 * handed over as bytes (`templateBlob`).
 */
export function readTemplate(file: string): Blob | undefined {
  return existsSync(file) ? templateBlob(templateTar(file)) : undefined;
}

/** A template file's plain tar (every template is written gzipped). */
export function templateTar(file: string): Buffer {
  return gunzipSync(readFileSync(file));
}

/**
 * A plain tar for PGlite's `loadDataDir`, which asks only for `arrayBuffer()`: this answers with a
 * copy of the bytes at once. A Blob built from them is read back through Node's blob stream, a
 * chunk at a time, which took 0.45 s of every 1.7 s PGlite start from the 46 MB test template.
 */
export function templateBlob(tar: Uint8Array): Blob {
  return new TemplateBytes(tar);
}

class TemplateBytes extends Blob {
  readonly #tar: Uint8Array;

  constructor(tar: Uint8Array) {
    super([]);
    this.#tar = tar;
  }

  override get size(): number {
    return this.#tar.byteLength;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    // A copy: PGlite's unpacking keeps views of it, and the caller may load the same bytes again.
    return Promise.resolve(this.#tar.slice().buffer);
  }
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
  // The dump's form too (clean shutdown, the WAL it keeps): a template written otherwise is rebuilt.
  hash.update(DUMP_FORM).update(boss.version).update(jobNames.join(','));
  for (const part of extra) hash.update(part);
  return hash.digest('hex').slice(0, 16);
}
