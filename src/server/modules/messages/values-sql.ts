import { type SQL, sql } from 'drizzle-orm';

/**
 * Values in a message as SQL writes them, for the statements that render many messages at once
 * (the close's reminders, broken promises, bulk sends): the same text as `messageMoney` and
 * `messageDate` (src/domain/message-template.ts) write in code.
 */

/** Minor units as "KES 1,250.00": the currency's code (`currency`, a text), the grouped amount, its decimals. */
export const messageMoneySql = (amount: SQL, currency: SQL, digits: number) =>
  sql`(${currency} || ' ' || to_char(${amount}::numeric / ${10 ** digits}::numeric,
        ${`FM999,999,999,999,990${digits > 0 ? `.${'0'.repeat(digits)}` : ''}`}))`;

/** A date as "6 Dec 2026": `to_char`'s month names are English whatever the locale. */
export const messageDateSql = (date: SQL) => sql`to_char(${date}, 'FMDD Mon YYYY')`;
