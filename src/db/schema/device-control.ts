import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ATTEMPT_OUTCOMES, DELIVERY_PROVIDERS, LOCK_PROVIDERS } from '../../contracts/device-control';
import { users } from './auth';
import { deviceCommands } from './devices';
import { inList } from './helpers';

/**
 * Every attempt to deliver a device command (issue 14 §4: "every attempt is visible"): when, to
 * which provider, what came of it, the error and what the provider answered. Owned by the devices
 * area's device control (`modules/devices/control/`).
 */
export const deviceCommandAttempts = pgTable(
  'device_command_attempts',
  {
    id: text('id').primaryKey(),
    commandId: text('command_id')
      .notNull()
      .references(() => deviceCommands.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    provider: text('provider', { enum: DELIVERY_PROVIDERS }).notNull(),
    outcome: text('outcome', { enum: ATTEMPT_OUTCOMES }).notNull().default('pending'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    error: text('error'),
    response: jsonb('response'),
  },
  (t) => [
    uniqueIndex('device_command_attempts_key').on(t.commandId, t.attempt),
    check('device_command_attempts_provider_check', inList(t.provider, DELIVERY_PROVIDERS)),
    check('device_command_attempts_outcome_check', inList(t.outcome, ATTEMPT_OUTCOMES)),
  ],
);

/**
 * The provider settings of device control: one row (`id = 'default'`), edited by administrators.
 * The lock API's signing secret is encrypted with the app key (never returned by the API).
 */
export const deviceControlSettings = pgTable(
  'device_control_settings',
  {
    id: text('id').primaryKey(),
    provider: text('provider', { enum: LOCK_PROVIDERS }).notNull().default('simulator'),
    lockApiUrl: text('lock_api_url'),
    lockApiSecret: text('lock_api_secret'),
    simulatorLatencyMs: integer('simulator_latency_ms').notNull().default(200),
    simulatorFailureRate: doublePrecision('simulator_failure_rate').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    retryBaseSeconds: integer('retry_base_seconds').notNull().default(30),
    updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    check('device_control_settings_one_row', sql`${t.id} = 'default'`),
    check('device_control_settings_provider_check', inList(t.provider, LOCK_PROVIDERS)),
    check(
      'device_control_settings_ranges_check',
      sql`${t.simulatorFailureRate} BETWEEN 0 AND 1 AND ${t.simulatorLatencyMs} >= 0 AND ${t.maxAttempts} >= 1 AND ${t.retryBaseSeconds} >= 1`,
    ),
  ],
);
