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
