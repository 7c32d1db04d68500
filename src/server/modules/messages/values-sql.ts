import { type SQL, sql } from 'drizzle-orm';
import { splitTemplate } from '../../../domain';

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

/**
 * A template as one SQL text expression: its pieces and variables joined as `renderTemplate` joins
 * them (`splitTemplate`), each variable's text from `value`, so a statement renders a whole set of
 * messages without parsing the template per row. A template naming a variable outside `allowed` is
 * refused here (an edit naming one is refused before it is saved); a variable whose value is null
 * leaves the whole text null, which the outbox refuses, failing the statement rather than sending
 * a message with a blank in it.
 */
export function templateSql(body: string, allowed: readonly string[], value: (name: string) => SQL): SQL {
  const { pieces, names } = splitTemplate(body);
  const unknown = names.filter((name) => !allowed.includes(name));
  if (unknown.length)
    throw new Error(`The template uses ${unknown.join(', ')}, which its messages are not given`);
  const parts: SQL[] = [sql`${pieces[0] ?? ''}::text`];
  names.forEach((name, i) => {
    parts.push(value(name), sql`${pieces[i + 1] ?? ''}::text`);
  });
  return sql`(${sql.join(parts, sql` || `)})`;
}
