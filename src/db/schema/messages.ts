import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { MESSAGE_CHANNELS, MESSAGE_STATUSES } from '../../contracts/messages';
import { users } from './auth';
import { inList } from './helpers';

/**
 * Message templates (decision 027): one body per key, channel and language, with `{{variable}}`
 * placeholders. Built-in ones are seeded by the migration and may be edited; an edit raises the
 * version, which each outbox row records beside the body it rendered.
 */
export const messageTemplates = pgTable(
  'message_templates',
  {
    /** A built-in key (TEMPLATE_KEYS) or one staff created on /communications. */
    key: text('key').notNull(),
    channel: text('channel', { enum: MESSAGE_CHANNELS }).notNull(),
    language: text('language').notNull().default('en'),
    /** What staff call it (built-in ones: TEMPLATE_LABELS). */
    name: text('name'),
    /** E-mail only: the subject line, with the same variables as the body. */
    subject: text('subject'),
    body: text('body').notNull(),
    /** Seeded by the migration: may be edited, never deleted. */
    builtin: boolean('builtin').notNull().default(false),
    version: integer('version').notNull().default(1),
    updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.key, t.channel, t.language] }),
    check('message_templates_key_check', sql`${t.key} ~ '^[a-z][a-z0-9_]{1,47}$'`),
    check('message_templates_channel_check', inList(t.channel, MESSAGE_CHANNELS)),
  ],
);

/**
 * The outbox: every message to a customer, whatever sent it. `dedupe_key` is unique, so the same
 * reminder queued again (a close of business re-run, a retried request) adds nothing.
 */
export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    /**
     * Null only for a reply to a number no customer has yet (a conversation not yet linked). This
     * and the contract must exist: checked once per statement by a trigger (migration 0050,
     * decision 053) rather than by foreign keys, which lock both parent rows of each message.
     */
    customerId: text('customer_id'),
    contractId: text('contract_id'),
    channel: text('channel', { enum: MESSAGE_CHANNELS }).notNull(),
    /** E.164 phone at the time of queueing (an e-mail address for e-mail). */
    recipient: text('recipient').notNull(),
    templateKey: text('template_key').notNull(),
    templateVersion: integer('template_version').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull().default('queued'),
    /** Why it was never sent (no consent to the channel). */
    skippedReason: text('skipped_reason'),
    /** The last failed attempt's reason (kept once sent, so a retry that worked shows what failed). */
    failureReason: text('failure_reason'),
    attempts: integer('attempts').notNull().default(0),
    /** When the sender may take it next (queued only): now, after quiet hours, or after a back-off. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    provider: text('provider'),
    providerReference: text('provider_reference'),
    /** E-mail only: the rendered subject. */
    subject: text('subject'),
    /** The bulk send that queued it, if one did. */
    bulkSendId: text('bulk_send_id'),
    /** The conversation a staff or assistant reply belongs to. */
    conversationId: text('conversation_id'),
    sourceType: text('source_type'),
    sourceId: text('source_id'),
    dedupeKey: text('dedupe_key').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('messages_dedupe_key').on(t.dedupeKey),
    index('messages_due_idx').on(t.nextAttemptAt, t.id).where(sql`${t.status} = 'queued'`),
    index('messages_contract_idx').on(t.contractId, t.createdAt, t.id),
    index('messages_customer_idx').on(t.customerId, t.createdAt, t.id),
    index('messages_created_idx').on(t.createdAt, t.id),
    check('messages_status_check', inList(t.status, MESSAGE_STATUSES)),
    check('messages_channel_check', inList(t.channel, MESSAGE_CHANNELS)),
    index('messages_provider_reference_idx').on(t.provider, t.providerReference),
    index('messages_bulk_send_idx').on(t.bulkSendId).where(sql`${t.bulkSendId} IS NOT NULL`),
  ],
);

/**
 * Every version of every template (issue 15 "Versions"): the row written when a template is
 * created or edited, so an earlier text can be read and restored.
 */
export const messageTemplateVersions = pgTable(
  'message_template_versions',
  {
    key: text('key').notNull(),
    channel: text('channel', { enum: MESSAGE_CHANNELS }).notNull(),
    language: text('language').notNull(),
    version: integer('version').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.key, t.channel, t.language, t.version] })],
);
