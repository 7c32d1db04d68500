import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../db/client';
import type { Config } from './config';
import type { InvalidationBus } from './invalidation';
import type { Keyring } from './secrets';
import type { SessionStore } from './sessions';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A transaction handle; functions that take an `Executor` work inside or outside one. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

/** What every service needs, built once per app instance. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  keyring: Keyring;
  clock: Clock;
  sessions: SessionStore;
  bus: InvalidationBus;
  log: FastifyBaseLogger;
}

/**
 * The app's context without its database handle. Code running inside a transaction takes this
 * (or a TxContext): a read through `db` there would run outside the transaction, and on PGlite
 * (one connection) wait for the transaction that waits for it.
 */
export type AppServices = Omit<AppContext, 'db'>;

/**
 * What a service that writes is given: the app's context bound to one transaction, opened by
 * the route handler or job that owns it (`withTransaction`, transaction.ts). Every read and write
 * of the service goes through `tx`, so several services compose in one transaction; a service
 * never opens its own (decision 011).
 */
export interface TxContext extends AppServices {
  tx: Tx;
  /** Undoes work outside the database (a stored file) if the transaction does not commit. */
  onRollback(undo: () => Promise<void>): void;
}
