import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { devices } from './devices';

/**
 * OpenPAYGO Metrics (decision 029): each accepted request of a unit, with the readings it
 * carried (data in simple names, and the history steps each with its timestamp).
 */
export const deviceMetrics = pgTable(
  'device_metrics',
  {
    id: text('id').primaryKey(),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** When the device collected the data (data_collection_timestamp, else its timestamp, else receipt). */
    collectedAt: timestamp('collected_at', { withTimezone: true }).notNull(),
    requestCount: bigint('request_count', { mode: 'number' }),
    requestTimestamp: bigint('request_timestamp', { mode: 'number' }),
    authMethod: text('auth_method').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    history: jsonb('history').$type<Record<string, unknown>[]>().notNull(),
    /** Tokens sent back in the answer. */
    tokensSent: integer('tokens_sent').notNull().default(0),
  },
  (t) => [index('device_metrics_device_idx').on(t.deviceId, t.receivedAt)],
);

/** The last accepted request count and timestamp of a unit: anything not above them is a replay. */
export const deviceMetricsState = pgTable('device_metrics_state', {
  deviceId: text('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  lastRequestCount: bigint('last_request_count', { mode: 'number' }),
  lastRequestTimestamp: bigint('last_request_timestamp', { mode: 'number' }),
  lastReceivedAt: timestamp('last_received_at', { withTimezone: true }).notNull(),
});
