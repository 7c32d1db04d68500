import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  COMMAND_KINDS,
  COMMAND_STATES,
  CONTROL_KINDS,
  DEVICE_CATEGORIES,
  DEVICE_CONDITIONS,
  DEVICE_STATUSES,
  LOCK_STATES,
  TOKEN_TYPES,
} from '../../contracts/devices';
import { users } from './auth';
import { inList } from './helpers';

/** PRODUCT.md section 2, Device model (the catalogue). */
export const deviceModels = pgTable(
  'device_models',
  {
    id: text('id').primaryKey(),
    make: text('make').notNull(),
    model: text('model').notNull(),
    category: text('category', { enum: DEVICE_CATEGORIES }).notNull(),
    sku: text('sku'),
    costPrice: bigint('cost_price', { mode: 'number' }),
    retailPrice: bigint('retail_price', { mode: 'number' }).notNull(),
    controlKind: text('control_kind', { enum: CONTROL_KINDS }).notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_models_sku_key').on(t.sku).where(sql`${t.sku} IS NOT NULL`),
    uniqueIndex('device_models_make_model_key').on(sql`lower(${t.make})`, sql`lower(${t.model})`),
    check('device_models_category_check', inList(t.category, DEVICE_CATEGORIES)),
    check('device_models_control_check', inList(t.controlKind, CONTROL_KINDS)),
    check(
      'device_models_prices_check',
      sql`${t.retailPrice} >= 0 AND (${t.costPrice} IS NULL OR ${t.costPrice} >= 0)`,
    ),
  ],
);

/** One physical unit: PRODUCT.md section 2, Device unit, with its OpenPAYGO control settings. */
export const devices = pgTable(
  'devices',
  {
    id: text('id').primaryKey(),
    serialNumber: text('serial_number').notNull(),
    imei: text('imei'),
    modelId: text('model_id')
      .notNull()
      .references(() => deviceModels.id),
    status: text('status', { enum: DEVICE_STATUSES }).notNull().default('in_stock'),
    lockState: text('lock_state', { enum: LOCK_STATES }).notNull().default('unknown'),
    /** Paid-through date the device may run until (pay-as-you-go). */
    activeUntil: date('active_until', { mode: 'string' }),
    controlKind: text('control_kind', { enum: CONTROL_KINDS }).notNull(),
    /** OpenPAYGO: 16-byte key, hex, encrypted with the app key (never returned by the API). */
    openpaygoSecret: text('openpaygo_secret'),
    openpaygoStartingCode: text('openpaygo_starting_code'),
    openpaygoCount: integer('openpaygo_count'),
    openpaygoTimeDivider: integer('openpaygo_time_divider'),
    notes: text('notes'),
    /** The state the unit came back in from a customer (a repossession records it), and what was seen. */
    condition: text('condition', { enum: DEVICE_CONDITIONS }),
    conditionNotes: text('condition_notes'),
    /** What the unit cost when received (the model's cost then): inventory is debited and, on sale, credited by it. */
    costPrice: bigint('cost_price', { mode: 'number' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Raised by every status change (transition()). */
    version: integer('version').notNull().default(1),
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`lower(serial_number || ' ' || coalesce(imei, ''))`),
  },
  (t) => [
    uniqueIndex('devices_serial_key').on(t.serialNumber),
    uniqueIndex('devices_imei_key').on(t.imei).where(sql`${t.imei} IS NOT NULL`),
    index('devices_search_trgm_idx')
      .using('gin', t.searchText.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
    index('devices_model_idx').on(t.modelId),
    index('devices_status_idx').on(t.status, t.createdAt),
    index('devices_created_idx').on(t.createdAt, t.id),
    check('devices_status_check', inList(t.status, DEVICE_STATUSES)),
    check('devices_lock_state_check', inList(t.lockState, LOCK_STATES)),
    check(
      'devices_condition_check',
      sql`${t.condition} IS NULL OR ${inList(t.condition, DEVICE_CONDITIONS)}`,
    ),
    check('devices_control_check', inList(t.controlKind, CONTROL_KINDS)),
    check(
      'devices_openpaygo_check',
      sql`${t.controlKind} <> 'openpaygo' OR (${t.openpaygoSecret} IS NOT NULL AND ${t.openpaygoStartingCode} IS NOT NULL AND ${t.openpaygoCount} IS NOT NULL)`,
    ),
    // Token values are days × divider, at most 995 (decision 029).
    check(
      'devices_time_divider_check',
      sql`${t.openpaygoTimeDivider} IS NULL OR ${t.openpaygoTimeDivider} BETWEEN 1 AND 995`,
    ),
  ],
);

/** Every status change of a unit, with who and why. */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: text('id').primaryKey(),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    reason: text('reason'),
    contractId: text('contract_id'),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_events_device_idx').on(t.deviceId, t.at)],
);

/** OpenPAYGO tokens issued for a unit: who, when, what. */
export const deviceTokens = pgTable(
  'device_tokens',
  {
    id: text('id').primaryKey(),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    type: text('type', { enum: TOKEN_TYPES }).notNull(),
    /** The value in the token: days × the unit's time divider (ADD_TIME, SET_TIME). */
    value: integer('value'),
    /** The unit's time divider when issued: the token gives value / divider days. */
    timeDivider: integer('time_divider').notNull().default(1),
    count: integer('count').notNull(),
    token: text('token').notNull(),
    contractId: text('contract_id'),
    issuedBy: text('issued_by').references(() => users.id, { onDelete: 'set null' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('device_tokens_device_idx').on(t.deviceId, t.issuedAt),
    uniqueIndex('device_tokens_count_key').on(t.deviceId, t.count),
    check('device_tokens_type_check', inList(t.type, TOKEN_TYPES)),
  ],
);

/**
 * The device command log (PRODUCT.md, Device control): lock, unlock, token, release, each
 * `queued -> sent -> acknowledged | failed`. A payment that clears arrears queues an unlock here
 * in its own transaction; delivery to the provider (retries, back-off) is the device control job's.
 */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: text('id').primaryKey(),
    // Must name a unit: checked once per statement by a trigger (migration 0044, decision 034)
    // rather than a foreign key, which key-share locks each unit row a command names (the close
    // queues a lock for every unit past its lock-after days in one statement).
    deviceId: text('device_id').notNull(),
    contractId: text('contract_id'),
    kind: text('kind', { enum: COMMAND_KINDS }).notNull(),
    state: text('state', { enum: COMMAND_STATES }).notNull().default('queued'),
    reason: text('reason').notNull(),
    /** What the command carries beyond its kind: a token's days (`{ days }`), the token once issued. */
    payload: jsonb('payload'),
    /** Who delivered (or is delivering) it: simulator, lock_api or openpaygo. */
    provider: text('provider'),
    /** What caused it (a payment id, a close of business run), when not a person. */
    sourceType: text('source_type'),
    sourceId: text('source_id'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('device_commands_device_idx').on(t.deviceId, t.createdAt),
    index('device_commands_state_idx').on(t.state, t.nextAttemptAt),
    index('device_commands_created_idx').on(t.createdAt, t.id),
    check('device_commands_kind_check', inList(t.kind, COMMAND_KINDS)),
    check('device_commands_state_check', inList(t.state, COMMAND_STATES)),
  ],
);
