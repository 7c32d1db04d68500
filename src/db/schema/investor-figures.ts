import { bigint, date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** The `fund` of the whole portfolio's rows (a customer tag is never empty). */
export const PORTFOLIO_FUND = '';

/**
 * The investor portal's figures at the end of a business date (issue 16 §3), written by the close
 * of business in the same statement as `portfolio_snapshots` (snapshot.ts), from the same per-
 * contract figures. One row per fund (a customer tag, or PORTFOLIO_FUND for the whole book) and
 * vintage (the month its contracts started), so a fund's summary, cash flows and vintage curves
 * are sums over a few dozen rows instead of the payments. Cumulative columns count everything up
 * to the date (a row is exact on its own; a month's flow is the difference of two month ends);
 * the others are the stock at the end of the date.
 */
export const investorFigures = pgTable(
  'investor_figures',
  {
    fund: text('fund').notNull(),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    /** The first day of the month its contracts started. */
    vintage: date('vintage', { mode: 'string' }).notNull(),
    /** Cumulative: contracts activated and their principal. */
    contracts: integer('contracts').notNull(),
    disbursed: bigint('disbursed', { mode: 'number' }).notNull(),
    /** Cumulative: instalment amounts collected (deposits and credit excluded), and their principal part. */
    collected: bigint('collected', { mode: 'number' }).notNull(),
    collectedPrincipal: bigint('collected_principal', { mode: 'number' }).notNull(),
    /** Cumulative: regular instalment amounts (principal, interest, fee) due by the date. */
    due: bigint('due', { mode: 'number' }).notNull(),
    /** Stock: live contracts, their outstanding principal and the part more than 30 / 90 days late. */
    liveCount: integer('live_count').notNull(),
    outstandingPrincipal: bigint('outstanding_principal', { mode: 'number' }).notNull(),
    par30Amount: bigint('par30_amount', { mode: 'number' }).notNull(),
    par90Amount: bigint('par90_amount', { mode: 'number' }).notNull(),
    /** Stock: live contracts in default and their outstanding principal. */
    defaultedCount: integer('defaulted_count').notNull(),
    defaultedPrincipal: bigint('defaulted_principal', { mode: 'number' }).notNull(),
    /** Cumulative: contracts closed as written off / repossessed, and the principal they left unpaid. */
    writtenOffCount: integer('written_off_count').notNull(),
    writtenOffPrincipal: bigint('written_off_principal', { mode: 'number' }).notNull(),
    repossessedCount: integer('repossessed_count').notNull(),
    repossessedPrincipal: bigint('repossessed_principal', { mode: 'number' }).notNull(),
  },
  // A fund's reads go by date within the fund: the latest date, month ends, a date's vintages.
  (t) => [primaryKey({ columns: [t.fund, t.businessDate, t.vintage] })],
);
