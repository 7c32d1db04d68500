import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type EmscriptenFs, PGLITE_DATA_DIR, pgliteDataDirTar } from './pglite-files';
import { pgliteQueries } from './pglite-query';
import { changesSchema } from './pglite-statements';
import * as schema from './schema';

/** The one query interface of the application, whichever engine is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Raw access to a single connection, for migrations and advisory locks. */
export interface Connection {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Several parameterless statements at once. */
  exec(sql: string): Promise<void>;
}

/**
 * How the job queue (pg-boss) reaches the database (decision 009): on PostgreSQL its own small
 * pool from the connection string; on PGlite this process's one connection, through pg-boss's
 * `executeSql` adapter.
 */
export type JobQueueConnection =
  | { connectionString: string }
  | { db: { executeSql: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }> } };

export interface Database {
  kind: 'pglite' | 'postgres';
  /** Transactions that can be open at once: PGlite's one connection, or the pool's size. */
  connections: number;
  db: Db;
  jobQueue: JobQueueConnection;
  withConnection<T>(fn: (connection: Connection) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; the returned function stops listening. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * PGlite in memory only: shuts the database down, cleanly, and answers its whole data directory
   * as a plain tar. A start from it finds a database that was shut down and skips the crash
   * recovery a live dump (PGlite's `dumpDataDir`) costs every start: its replay and its checkpoint.
   */
  closeAndDump(): Promise<Buffer>;
  /**
   * Calls `listener` with the text of every statement sent through `db` (BEGIN and COMMIT too on
   * PostgreSQL; PGlite opens its transactions itself) until the returned function is called:
   * tests count a request's round trips with it.
   */
  watchStatements(listener: (sql: string) => void): () => void;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory; `memory://` keeps it in memory (tests). */
  dataDir: string;
  poolSize?: number;
  /** PGlite only: a dumped data directory to start from when the database does not exist yet. */
  template?: Blob | undefined;
  /**
   * PGlite only: the buffer pool's size (PostgreSQL's default, 128MB, unless given). A start zeroes
   * the whole pool: a small test database opens in 0.46 s with 32MB against 0.80 s, while the demo
   * book's build, whose data outgrows 32MB, took 13 % longer with it.
   */
  sharedBuffers?: string;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10)
    : openPglite(options.dataDir, options.template, options.sharedBuffers);
}

/** drizzle's logger, forwarding each statement to the watchers (none, outside tests). */
function statementWatchers() {
  const listeners = new Set<(sql: string) => void>();
  return {
    logger: {
      logQuery: (query: string) => {
        for (const listener of listeners) listener(query);
      },
    },
    watchStatements: (listener: (sql: string) => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** Whether the embedded database in `dataDir` exists already (a template is loaded only when not). */
export function pgliteExists(dataDir: string): boolean {
  return (
    !dataDir.startsWith('memory://') && existsSync(path.join(path.resolve(dataDir, 'pglite'), 'PG_VERSION'))
  );
}

/**
 * A database in memory (tests, and the templates built in them) is gone with its process, so the
 * write-ahead log need not survive a crash: no full page images after a checkpoint, no WAL for
 * what a transaction created itself, no zero-filled 16 MB segments (each written through the
 * in-memory file system a growth at a time), no WAL flush at each commit. The demo book builds in
 * 163 s instead of 175 s, the PGlite integration files take a tenth less. A data directory on disk
 * keeps PostgreSQL's defaults.
 */
const IN_MEMORY_SETTINGS = [
  'full_page_writes=off',
  'wal_level=minimal',
  'max_wal_senders=0',
  'wal_init_zero=off',
  'synchronous_commit=off',
].flatMap((setting) => ['-c', setting]);

async function openPglite(
  dataDir: string,
  template: Blob | undefined,
  sharedBuffers: string | undefined,
): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  const location = inMemory ? dataDir : path.resolve(dataDir, 'pglite');
  const exists = pgliteExists(dataDir);
  if (!inMemory) mkdirSync(location, { recursive: true });
  // Extensions the schema uses must be loaded by PGlite itself (PostgreSQL ships them as contrib).
  const client = new PGlite(location, {
    extensions: { pg_trgm },
    ...(template && !exists ? { loadDataDir: template } : {}),
    startParams: [
      ...PGlite.defaultStartParams,
      ...(inMemory ? IN_MEMORY_SETTINGS : []),
      ...(sharedBuffers ? ['-c', `shared_buffers=${sharedBuffers}`] : []),
    ],
  });
  await client.waitReady;
  const queries = pgliteQueries(client);
  const connection: Connection = {
    query: async <T>(sql: string, params?: unknown[]) => (await queries.query<T>(sql, params)).rows,
    exec: async (sql) => {
      await client.exec(sql);
      // Migrations come this way: a statement kept by name may read a table they changed.
      queries.forgetPrepared();
    },
  };
  const { logger, watchStatements } = statementWatchers();
  return {
    kind: 'pglite',
    connections: 1,
    db: drizzlePglite({ client: queries as unknown as PGlite, schema, logger }) as unknown as Db,
    watchStatements,
    jobQueue: {
      db: {
        executeSql: async (text, values) => {
          if (values?.length) return queries.query(text, values);
          // Parameterless commands may be several statements, some with their own BEGIN and COMMIT:
          // run inside PGlite's transaction(), whose ROLLBACK on failure never leaves the shared
          // connection in an aborted transaction (the nested BEGIN and the final COMMIT only warn).
          const results = await client.transaction((tx) => tx.exec(text));
          // The queue's own schema, installed or upgraded at start: its kept statements read afresh.
          if (changesSchema(text)) queries.forgetPrepared();
          return { rows: results.at(-1)?.rows ?? [] };
        },
      },
    },
    // PGlite is a single connection: every caller already shares it.
    withConnection: (fn) => fn(connection),
    listen: async (channel, handler) => {
      const stop = await client.listen(channel, handler);
      return async () => stop();
    },
    closeAndDump: async () => {
      if (!inMemory) throw new Error('Only an in-memory embedded database is dumped this way');
      // The module's in-memory file system outlives close(), which writes the shutdown checkpoint.
      const fs = (client as unknown as { mod: { FS: EmscriptenFs } }).mod.FS;
      await client.close();
      return pgliteDataDirTar(fs, PGLITE_DATA_DIR);
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  // A new connection's first queries load the catalog for every table and index they plan over
  // (tens of milliseconds), so connections are kept through quiet minutes instead of pg-pool's 10 s.
  // JIT compilation off: our statements are index lookups and set-based batches bound by I/O and
  // index upkeep, where compiling a plan costs more than it saves (1 to 2 s on a close of business
  // statement over 100,000 contracts), and PGlite has no JIT, so both engines plan alike.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 5 * 60_000,
    options: '-c jit=off',
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
  const probe = await pool.connect();
  probe.release();
  const listeners: pg.Client[] = [];
  const { logger, watchStatements } = statementWatchers();
  return {
    kind: 'postgres',
    connections: poolSize,
    db: drizzlePostgres({ client: pool, schema, logger }) as unknown as Db,
    watchStatements,
    jobQueue: { connectionString: url },
    withConnection: async (fn) => {
      const client = await pool.connect();
      try {
        return await fn({
          query: async <T>(sql: string, params?: unknown[]) =>
            (await client.query(sql, params as unknown[])).rows as T[],
          exec: async (sql) => {
            await client.query(sql);
          },
        });
      } finally {
        client.release();
      }
    },
    listen: async (channel, handler) => {
      // LISTEN needs a connection of its own that stays out of the pool.
      const client = new pg.Client({ connectionString: url });
      client.on('error', (error) => console.error(`PostgreSQL listener (${channel}) error:`, error.message));
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) handler(message.payload ?? '');
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      listeners.push(client);
      return async () => {
        listeners.splice(listeners.indexOf(client), 1);
        await client.end();
      };
    },
    closeAndDump: () => Promise.reject(new Error('Only the embedded database can be dumped this way')),
    close: async () => {
      await Promise.all(listeners.splice(0).map((client) => client.end()));
      await pool.end();
    },
  };
}

/** Rows of a raw SQL query, typed by the caller; both drivers answer with `{rows}`. */
export async function queryRows<T>(
  executor: Pick<Db, 'execute'>,
  query: SQL,
  options: { prepared?: boolean } = {},
): Promise<T[]> {
  if (options.prepared) return queryNamed<T>(executor, query);
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * For the rest of the caller's transaction, prepared statements keep one generic plan
 * (decision 044). For statements that take their values as arrays and touch only the rows they
 * name (a batch of payments, an import's chunk): PostgreSQL otherwise re-plans them for each
 * array, and with thousands of values may hash-join whole tables to update a few rows of them.
 */
export async function planGenerically(tx: Pick<Db, 'execute'>): Promise<void> {
  await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
}

/** The name of a statement's text: the same text has the same name on every connection. */
const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 500;

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `q_${createHash('sha1').update(text).digest('base64url')}`;
    // The hot statements are a handful of texts; a caller building texts from data would grow
    // this without end, so past the bound names are computed again (cheap) instead of kept.
    if (statementNames.size < MAX_STATEMENT_NAMES) statementNames.set(text, name);
  }
  return name;
}

/**
 * A hot raw statement (a payment's lock-and-read and its writes, decision 022) run as a named
 * prepared statement: on PostgreSQL each connection parses and plans its text once (decision 008;
 * the payment's two statements spent 2.7 ms of every payment planning), PGlite ignores the name.
 * The text must not carry data (values are parameters), or each would be a statement of its own.
 */
async function queryNamed<T>(executor: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  // drizzle's own path for `execute`, with a name: its session and dialect are not in its types.
  const handle = executor as unknown as {
    dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
    session: {
      prepareQuery(
        query: { sql: string; params: unknown[] },
        fields: undefined,
        name: string,
        arrayMode: boolean,
      ): { execute(): Promise<unknown> };
    };
  };
  const built = handle.dialect.sqlToQuery(query);
  const result = (await handle.session
    .prepareQuery(built, undefined, statementName(built.sql), false)
    .execute()) as { rows: T[] };
  return result.rows;
}
