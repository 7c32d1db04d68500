import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './auth';

/** A staff user's own preferences (seed /settings). */
export const userPreferences = pgTable('user_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  theme: text('theme', { enum: ['light', 'dark', 'system'] })
    .notNull()
    .default('system'),
  landingPage: text('landing_page').notNull().default('/'),
  /** Which notification types the user wants in the app: keyed by category, true = on. */
  notificationSettings: jsonb('notification_settings').$type<Record<string, boolean>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Steps of a help-centre tutorial a user has done (seed: tutorial progress). */
export const tutorialProgress = pgTable(
  'tutorial_progress',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tutorialId: text('tutorial_id').notNull(),
    stepId: text('step_id').notNull(),
    completed: boolean('completed').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tutorialId, t.stepId] })],
);

/**
 * Organisation-wide settings: one row (id = 1). Money, dates and delinquency everywhere follow
 * these; only administrators change them.
 */
export const organisationSettings = pgTable(
  'organisation_settings',
  {
    id: integer('id').primaryKey().default(1),
    name: text('name').notNull().default('My Lending Company'),
    currency: text('currency').notNull().default('USD'),
    timeZone: text('time_zone').notNull().default('UTC'),
    /** Default phone country for numbers typed without +country code (ISO 3166 alpha-2). */
    country: text('country').notNull().default('US'),
    /** Lower bounds (days past due) of each bucket after "current", ascending: default 1, 8, 31, 61, 91. */
    delinquencyBuckets: jsonb('delinquency_buckets').$type<number[]>().notNull().default([1, 8, 31, 61, 91]),
    /** No customer messages between these local times ('HH:MM'). */
    quietHoursStart: text('quiet_hours_start').notNull().default('20:00'),
    quietHoursEnd: text('quiet_hours_end').notNull().default('08:00'),
    /** Regulatory cap on a plan's APR, percent; null = no cap. */
    aprCap: numeric('apr_cap', { precision: 9, scale: 4 }),
    /**
     * Risk scorecard: three ascending monthly income thresholds in minor units of the currency;
     * null = not set (the US-dollar defaults apply to USD only).
     */
    incomeBands: jsonb('income_bands').$type<[number, number, number]>(),
    /**
     * Days the business date runs ahead of the calendar (API.md "Business date"): moved forward
     * only, and only where the server runs with BUSINESS_DATE_CONTROL=true.
     */
    businessDateOffset: integer('business_date_offset').notNull().default(0),
    /** The last business date the close of business completed. */
    lastClosedDate: date('last_closed_date', { mode: 'string' }),
    /**
     * The business date the stored arrears figures of every live contract were last brought to by
     * a refresh of the whole book (decision 034); null when the buckets changed since. The close's
     * first step has nothing to do when it is the date closed.
     */
    figuresDate: date('figures_date', { mode: 'string' }),
    /** Local time ('HH:MM') at which the daily close of business closes the day (decision 026). */
    closeOfBusinessTime: text('close_of_business_time').notNull().default('23:30'),
    /**
     * Accrual accounting of interest for contracts started on or after this business date; null =
     * interest is income when paid (decision 026).
     */
    interestAccrualFrom: date('interest_accrual_from', { mode: 'string' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by'),
  },
  (t) => [check('organisation_settings_single_row', sql`${t.id} = 1`)],
);
