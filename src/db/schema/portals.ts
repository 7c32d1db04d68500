import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { customers } from './customers';
import { inList } from './helpers';

/**
 * Issue 16: who outside the staff reaches the product (customers by phone and one-time code,
 * investors by an investor code), and the public financing demo's content.
 */

export const GUEST_KINDS = ['customer', 'investor'] as const;
export const INVESTOR_SCOPE_KINDS = ['portfolio', 'tag'] as const;
export const DEMO_VERSION_STATUSES = ['draft', 'published', 'archived'] as const;

/**
 * One-time sign-in codes of the customer portal (6 digits, 5 minutes, 5 tries). Only the code's
 * HMAC is kept. A row is written for every request, known phone or not (customer_id null), so the
 * rate limits per phone and per address count the same whoever asks.
 */
export const portalOtps = pgTable(
  'portal_otps',
  {
    id: text('id').primaryKey(),
    /** E.164, as the customer typed it normalised. */
    phone: text('phone').notNull(),
    customerId: text('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Wrong codes tried against it; at 5 it is void. */
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    index('portal_otps_phone_idx').on(t.phone, t.createdAt),
    index('portal_otps_ip_idx').on(t.ip, t.createdAt),
    check('portal_otps_attempts_check', sql`${t.attempts} >= 0`),
  ],
);

/**
 * Investor portal codes: shown once at issue, stored as SHA-256. Scope: the whole portfolio, or
 * the contracts of customers carrying a tag (a fund).
 */
export const investorCodes = pgTable(
  'investor_codes',
  {
    id: text('id').primaryKey(),
    label: text('label').notNull(),
    codeHash: text('code_hash').notNull(),
    /** The code's last 4 characters, so staff can tell codes apart without the code. */
    hint: text('hint').notNull(),
    scopeKind: text('scope_kind', { enum: INVESTOR_SCOPE_KINDS }).notNull().default('portfolio'),
    /** The customer tag of a 'tag' scope. */
    scopeTag: text('scope_tag'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    useCount: integer('use_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('investor_codes_code_hash_key').on(t.codeHash),
    index('investor_codes_created_idx').on(t.createdAt),
    check('investor_codes_scope_kind_check', inList(t.scopeKind, INVESTOR_SCOPE_KINDS)),
    check('investor_codes_scope_check', sql`(${t.scopeKind} = 'tag') = (${t.scopeTag} IS NOT NULL)`),
  ],
);

/**
 * Sessions of customers (portal) and investors: their own cookies and table, never a staff
 * session. The id is the SHA-256 of the cookie token.
 */
export const guestSessions = pgTable(
  'guest_sessions',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: GUEST_KINDS }).notNull(),
    customerId: text('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    investorCodeId: text('investor_code_id').references(() => investorCodes.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('guest_sessions_customer_idx').on(t.customerId),
    index('guest_sessions_investor_code_idx').on(t.investorCodeId),
    index('guest_sessions_expires_idx').on(t.expiresAt),
    check('guest_sessions_kind_check', inList(t.kind, GUEST_KINDS)),
    check(
      'guest_sessions_subject_check',
      sql`(${t.kind} = 'customer' AND ${t.customerId} IS NOT NULL AND ${t.investorCodeId} IS NULL)
       OR (${t.kind} = 'investor' AND ${t.investorCodeId} IS NOT NULL AND ${t.customerId} IS NULL)`,
    ),
  ],
);

/**
 * The public demo's content (devices, plans, texts, image references) as versions: at most one
 * draft and one published at a time; older published ones are archived and can be restored.
 */
export const demoVersions = pgTable(
  'demo_versions',
  {
    id: text('id').primaryKey(),
    version: integer('version').notNull(),
    status: text('status', { enum: DEMO_VERSION_STATUSES }).notNull(),
    content: jsonb('content').notNull(),
    note: text('note'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    publishedBy: text('published_by').references(() => users.id, { onDelete: 'set null' }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('demo_versions_version_key').on(t.version),
    uniqueIndex('demo_versions_one_draft').on(t.status).where(sql`${t.status} = 'draft'`),
    uniqueIndex('demo_versions_one_published').on(t.status).where(sql`${t.status} = 'published'`),
    check('demo_versions_status_check', inList(t.status, DEMO_VERSION_STATUSES)),
  ],
);

/** Images the demo's content names; the file lives in the storage (DATA_DIR or S3), like KYC files. */
export const demoImages = pgTable('demo_images', {
  id: text('id').primaryKey(),
  storageKey: text('storage_key').notNull(),
  fileName: text('file_name').notNull(),
  /** Detected from the content, never from the name. */
  mimeType: text('mime_type').notNull(),
  size: integer('size').notNull(),
  sha256: text('sha256').notNull(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
