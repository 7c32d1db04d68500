import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';

/**
 * Append-only record of every mutation and sign-in: who, what, which entity, before and after.
 * Written in the same transaction as the change it records, unsealed (no hash, no chain_seq); the
 * sealer chains it within a second of commit (decision 023). A trigger refuses UPDATE, DELETE and
 * TRUNCATE, except sealing an unsealed row once (migrations 0015, 0019); the keyed hash chain and
 * the checkpoints detect what gets past it (decision 016).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: text('actor_id'),
    actorLabel: text('actor_label'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    requestId: text('request_id'),
    /** Hash of the previous row in chain order (null for the first): deleting or reordering rows breaks the chain. */
    prevHash: text('prev_hash'),
    /**
     * HMAC of prevHash and the row's content with a key from the app secret (src/server/audit.ts);
     * null until the sealer chains the row.
     */
    hash: text('hash'),
    /** The row's place in the chain (1, 2, 3, …), given when it is sealed: seal order, not id order. */
    chainSeq: bigint('chain_seq', { mode: 'number' }),
    /**
     * HMAC of the row's content alone, computed by the writer (`writeMac`, src/server/audit.ts):
     * proves the app wrote it as it stands, before it is chained. Null on rows older than it.
     */
    writeMac: text('write_mac'),
    /**
     * 3: written with a write seal, chained by the sealer after commit (decision 023). 2: chained
     * with the keyed HMAC as it was written (decision 016), all sealed. 1: chained with plain sha256
     * (migration 0002), waiting to be sealed with the key; the trigger lets a row go from 1 to 2 only.
     */
    chainVersion: smallint('chain_version').notNull().default(3),
  },
  (t) => [
    index('audit_log_entity_idx').on(t.entityType, t.entityId),
    index('audit_log_at_idx').on(t.at),
    unique('audit_log_chain_seq_key').on(t.chainSeq),
    // Rows written now carry a write seal and are chained whole (hash and place together) or not
    // at all; rows of the keyed chain before it are all chained.
    check(
      'audit_log_sealed_whole',
      sql`chain_version = 1
          OR (chain_version = 2 AND hash IS NOT NULL AND chain_seq IS NOT NULL)
          OR (chain_version = 3 AND write_mac IS NOT NULL AND (hash IS NULL) = (chain_seq IS NULL))`,
    ),
    // What the sealer reads: the rows still waiting, in id order.
    index('audit_log_unsealed_idx').on(t.id).where(sql`chain_seq IS NULL`),
  ],
);

/**
 * Where the audit chain stood (its row count and newest hash), recorded outside `audit_log` by
 * the audit.checkpoint job, so that rows removed from its end are missed by `verify`. Each is
 * signed with the chain key; append-only like the log. The newest is also kept in DATA_DIR.
 */
export const auditCheckpoints = pgTable('audit_checkpoints', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  rows: bigint('rows', { mode: 'number' }).notNull(),
  lastId: bigint('last_id', { mode: 'number' }).notNull(),
  lastHash: text('last_hash').notNull(),
  mac: text('mac').notNull(),
});
