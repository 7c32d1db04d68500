import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { DOCUMENT_STATUSES, KYC_DOCUMENT_TYPES, KYC_STATUSES } from '../../contracts/customers';
import { users } from './auth';
import { inList } from './helpers';

/** Account numbers C-000001, C-000002, ... (never reused, even after a failed insert). */
export const customerNumbers = pgSequence('customer_number_seq');

/** PRODUCT.md section 2, Customer. Consents are timestamps: null = not given. */
export const customers = pgTable(
  'customers',
  {
    id: text('id').primaryKey(),
    accountNumber: text('account_number').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    otherNames: text('other_names'),
    /** E.164, unique. */
    phone: text('phone').notNull(),
    email: text('email'),
    /** Unique when given; masked outside the profile. */
    nationalId: text('national_id'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    gender: text('gender'),
    address: text('address'),
    region: text('region'),
    occupation: text('occupation'),
    employment: text('employment'),
    /** Minor units of the organisation's currency per month. */
    monthlyIncome: bigint('monthly_income', { mode: 'number' }),
    assignedAgentId: text('assigned_agent_id').references(() => users.id, { onDelete: 'set null' }),
    consentSmsAt: timestamp('consent_sms_at', { withTimezone: true }),
    consentWhatsappAt: timestamp('consent_whatsapp_at', { withTimezone: true }),
    consentEmailAt: timestamp('consent_email_at', { withTimezone: true }),
    /** Two-letter language for messages; a template missing in it falls back to English. */
    language: text('language').notNull().default('en'),
    /** Lower-case labels staff give (a fund, a campaign, a partner), for lists and segments. */
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    consentMarketingAt: timestamp('consent_marketing_at', { withTimezone: true }),
    consentDataProcessingAt: timestamp('consent_data_processing_at', { withTimezone: true }),
    kycStatus: text('kyc_status', { enum: KYC_STATUSES }).notNull().default('not_started'),
    kycRejectionReason: text('kyc_rejection_reason'),
    kycReviewedBy: text('kyc_reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    kycReviewedAt: timestamp('kyc_reviewed_at', { withTimezone: true }),
    riskScore: integer('risk_score'),
    riskGrade: text('risk_grade'),
    riskDecision: text('risk_decision'),
    /** The scorecard's points per factor, as the engine returned them. */
    riskDetails: jsonb('risk_details'),
    /** The scorecard that gave the score (customers/risk.ts scorecardOf); null before any. */
    riskScorecard: text('risk_scorecard'),
    /** Lower-case text of names, numbers and ids, for substring search (trigram index). */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower(first_name || ' ' || last_name || ' ' || coalesce(other_names, '') || ' ' || phone || ' ' || account_number || ' ' || coalesce(national_id, '') || ' ' || coalesce(email, ''))`,
      ),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Raised on every change: an update naming an older version is a 409 (lost update). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('customers_account_number_key').on(t.accountNumber),
    uniqueIndex('customers_phone_key').on(t.phone),
    uniqueIndex('customers_national_id_key').on(t.nationalId).where(sql`${t.nationalId} IS NOT NULL`),
    index('customers_search_trgm_idx')
      .using('gin', t.searchText.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
    index('customers_created_idx').on(t.createdAt, t.id),
    index('customers_name_idx').on(t.lastName, t.firstName, t.id),
    index('customers_kyc_idx').on(t.kycStatus, t.createdAt),
    index('customers_region_idx').on(t.region),
    index('customers_agent_idx').on(t.assignedAgentId),
    index('customers_tags_idx').using('gin', t.tags),
    check('customers_kyc_status_check', inList(t.kycStatus, KYC_STATUSES)),
    check('customers_income_check', sql`${t.monthlyIncome} IS NULL OR ${t.monthlyIncome} >= 0`),
  ],
);

/** Files a customer gave for KYC; the file itself lives in the storage (DATA_DIR or S3). */
export const kycDocuments = pgTable(
  'kyc_documents',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    type: text('type', { enum: KYC_DOCUMENT_TYPES }).notNull(),
    storageKey: text('storage_key').notNull(),
    fileName: text('file_name').notNull(),
    /** Detected from the content, never from the name. */
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    status: text('status', { enum: DOCUMENT_STATUSES }).notNull().default('pending'),
    rejectionReason: text('rejection_reason'),
    uploadedBy: text('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedBy: text('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** Raised by its review (transition()). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('kyc_documents_customer_idx').on(t.customerId, t.uploadedAt),
    check('kyc_documents_type_check', inList(t.type, KYC_DOCUMENT_TYPES)),
    check('kyc_documents_status_check', inList(t.status, DOCUMENT_STATUSES)),
  ],
);
