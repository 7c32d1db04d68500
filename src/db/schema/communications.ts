import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './auth';
import { contracts } from './contracts';
import { customers } from './customers';
import { inList } from './helpers';

/**
 * Communications (issue 15): the messaging providers' settings, saved segments, bulk sends,
 * conversations (inbound and outbound threads per phone) and the small staff tasks a hand-off
 * creates. The outbox itself is `messages` (decision 027).
 */

export const SMS_PROVIDERS = ['simulator', 'http'] as const;
export const WHATSAPP_PROVIDERS = ['simulator', 'cloud'] as const;
export const EMAIL_PROVIDERS = ['simulator', 'smtp'] as const;

/**
 * One row (`id = 'default'`), edited by administrators under integrations. Every credential is
 * encrypted with the app key (Keyring) and never returned by the API, only whether it is set.
 */
export const messagingSettings = pgTable(
  'messaging_settings',
  {
    id: text('id').primaryKey(),
    smsProvider: text('sms_provider', { enum: SMS_PROVIDERS }).notNull().default('simulator'),
    smsUrl: text('sms_url'),
    smsUsername: text('sms_username'),
    smsApiKey: text('sms_api_key'),
    smsSenderId: text('sms_sender_id'),
    /** Minor units per SMS segment, for the cost estimate. */
    smsCostPerSegment: bigint('sms_cost_per_segment', { mode: 'number' }).notNull().default(0),
    smsRatePerSecond: integer('sms_rate_per_second').notNull().default(50),
    whatsappProvider: text('whatsapp_provider', { enum: WHATSAPP_PROVIDERS }).notNull().default('simulator'),
    /** The Graph API base, e.g. https://graph.facebook.com/v21.0 (a fake server's in tests). */
    whatsappApiUrl: text('whatsapp_api_url'),
    whatsappPhoneNumberId: text('whatsapp_phone_number_id'),
    whatsappAccessToken: text('whatsapp_access_token'),
    /** Signs the webhook's X-Hub-Signature-256. */
    whatsappAppSecret: text('whatsapp_app_secret'),
    /** Answered in the webhook's verify handshake (hub.verify_token). */
    whatsappVerifyToken: text('whatsapp_verify_token'),
    whatsappRatePerSecond: integer('whatsapp_rate_per_second').notNull().default(50),
    emailProvider: text('email_provider', { enum: EMAIL_PROVIDERS }).notNull().default('simulator'),
    smtpHost: text('smtp_host'),
    smtpPort: integer('smtp_port'),
    smtpSecure: text('smtp_secure'),
    smtpUser: text('smtp_user'),
    smtpPassword: text('smtp_password'),
    emailFrom: text('email_from'),
    emailRatePerSecond: integer('email_rate_per_second').notNull().default(10),
    /** The simulator's share of failed sends (0 to 1), to rehearse retries. */
    simulatorFailureRate: doublePrecision('simulator_failure_rate').notNull().default(0),
    /** Optional OpenAI-compatible endpoint that classifies free text into the assistant's intents. */
    aiBaseUrl: text('ai_base_url'),
    aiApiKey: text('ai_api_key'),
    aiModel: text('ai_model'),
    updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    check('messaging_settings_one_row', sql`${t.id} = 'default'`),
    check('messaging_settings_sms_check', inList(t.smsProvider, SMS_PROVIDERS)),
    check('messaging_settings_whatsapp_check', inList(t.whatsappProvider, WHATSAPP_PROVIDERS)),
    check('messaging_settings_email_check', inList(t.emailProvider, EMAIL_PROVIDERS)),
    check(
      'messaging_settings_ranges_check',
      sql`${t.simulatorFailureRate} BETWEEN 0 AND 1 AND ${t.smsRatePerSecond} >= 1 AND ${t.whatsappRatePerSecond} >= 1 AND ${t.emailRatePerSecond} >= 1 AND ${t.smsCostPerSegment} >= 0`,
    ),
  ],
);

/** A saved filter over customers and their contracts (bucket, DPD range, region, plan, product, agent, tag). */
export const segments = pgTable(
  'segments',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    filter: jsonb('filter').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('segments_name_key').on(sql`lower(${t.name})`)],
);

export const BULK_SEND_STATUSES = ['scheduled', 'queued', 'cancelled'] as const;

/**
 * A message to a segment: counted before it is confirmed, queued (one INSERT … SELECT) when its
 * time comes, spread over time by `rate_per_minute` so the provider's limit holds.
 */
export const bulkSends = pgTable(
  'bulk_sends',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    segmentId: text('segment_id').references(() => segments.id, { onDelete: 'set null' }),
    /** The filter as it was confirmed (the segment may change later). */
    filter: jsonb('filter').notNull(),
    templateKey: text('template_key').notNull(),
    channel: text('channel').notNull(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    ratePerMinute: integer('rate_per_minute').notNull(),
    status: text('status', { enum: BULK_SEND_STATUSES }).notNull().default('scheduled'),
    /** Counted when confirmed. */
    recipients: integer('recipients').notNull().default(0),
    excludedConsent: integer('excluded_consent').notNull().default(0),
    /** Written when queued. */
    queued: integer('queued').notNull().default(0),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    check('bulk_sends_status_check', inList(t.status, BULK_SEND_STATUSES)),
    check('bulk_sends_rate_check', sql`${t.ratePerMinute} >= 1`),
    index('bulk_sends_due_idx').on(t.scheduledAt).where(sql`${t.status} = 'scheduled'`),
  ],
);

export const CONVERSATION_MODES = ['assistant', 'staff'] as const;
export const CONVERSATION_CHANNELS = ['sms', 'whatsapp', 'portal'] as const;

/**
 * One thread per phone number (a customer has one phone): inbound and outbound messages of every
 * channel. An unknown number's thread has no customer until staff link one. The assistant answers
 * while `mode` is `assistant`; a person who takes it over sets `staff` until they hand it back.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    /** E.164. */
    phone: text('phone').notNull(),
    customerId: text('customer_id').references(() => customers.id),
    /** The channel of the last inbound message: replies go back the same way. */
    channel: text('channel', { enum: CONVERSATION_CHANNELS }).notNull(),
    mode: text('mode', { enum: CONVERSATION_MODES }).notNull().default('assistant'),
    takenOverBy: text('taken_over_by').references(() => users.id, { onDelete: 'set null' }),
    /** Identity confirmed (by the customer's national id or account number) until this moment. */
    verifiedUntil: timestamp('verified_until', { withTimezone: true }),
    /** What the assistant asked and waits for (e.g. the identity check before re-sending a token). */
    pending: text('pending'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('conversations_phone_key').on(t.phone),
    index('conversations_customer_idx').on(t.customerId),
    index('conversations_last_idx').on(t.lastMessageAt, t.id),
    check('conversations_mode_check', inList(t.mode, CONVERSATION_MODES)),
    check('conversations_channel_check', inList(t.channel, CONVERSATION_CHANNELS)),
  ],
);

export const CONVERSATION_AUTHORS = ['customer', 'assistant', 'staff', 'system'] as const;

/** A line of a thread. Outbound lines on SMS or WhatsApp go through the outbox (`message_id`). */
export const conversationMessages = pgTable(
  'conversation_messages',
  {
    id: text('id').primaryKey(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    author: text('author', { enum: CONVERSATION_AUTHORS }).notNull(),
    channel: text('channel', { enum: CONVERSATION_CHANNELS }).notNull(),
    body: text('body').notNull(),
    /** The assistant's reading of an inbound line, or the intent an answer replies to. */
    intent: text('intent'),
    /** The provider's id of an inbound message (WhatsApp wamid, SMS id): de-duplicates retries. */
    providerMessageId: text('provider_message_id'),
    messageId: text('message_id'),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The raw provider payload of an inbound line. */
    payload: jsonb('payload'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversation_messages_thread_idx').on(t.conversationId, t.createdAt, t.id),
    uniqueIndex('conversation_messages_provider_key')
      .on(t.channel, t.providerMessageId)
      .where(sql`${t.providerMessageId} IS NOT NULL`),
    check('conversation_messages_direction_check', inList(t.direction, ['in', 'out'])),
    check('conversation_messages_author_check', inList(t.author, CONVERSATION_AUTHORS)),
    check('conversation_messages_channel_check', inList(t.channel, CONVERSATION_CHANNELS)),
  ],
);

export const TASK_STATUSES = ['open', 'done'] as const;

/**
 * A small, general piece of work for a person (a hand-off from the assistant today; the CRM
 * extends them later): what, for whom, about whom, and whether it is done.
 */
export const staffTasks = pgTable(
  'staff_tasks',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    detail: text('detail'),
    status: text('status', { enum: TASK_STATUSES }).notNull().default('open'),
    assignedTo: text('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    customerId: text('customer_id').references(() => customers.id),
    contractId: text('contract_id').references(() => contracts.id),
    conversationId: text('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    /** What created it (e.g. `assistant.handoff`). */
    source: text('source').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
    doneBy: text('done_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('staff_tasks_open_idx').on(t.assignedTo, t.createdAt).where(sql`${t.status} = 'open'`),
    index('staff_tasks_customer_idx').on(t.customerId),
    check('staff_tasks_status_check', inList(t.status, TASK_STATUSES)),
  ],
);
