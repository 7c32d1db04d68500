import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A client's `Idempotency-Key`, scoped to the operation it was sent to (decision 015). The first
 * request claims the key with the fingerprint of what it asked and the id of what it made; a
 * replay with the same fingerprint answers with that id, one with another fingerprint is a 409.
 * The claim is written in the operation's transaction, so a rolled-back attempt leaves no claim.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** What the key was sent to: `contract.deposit`, `payment.create`... */
    operation: text('operation').notNull(),
    key: text('key').notNull(),
    /** sha256 of the canonical JSON of what was asked (target and body). */
    fingerprint: text('fingerprint').notNull(),
    /** What the first request made (a payment id). */
    resourceId: text('resource_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.operation, t.key] })],
);
