import { sql } from 'drizzle-orm';

/** `column in ('a', 'b')` for CHECK constraints of enumerated text columns (values are our own constants). */
export const inList = (column: unknown, values: readonly string[]) =>
  sql`${column} in (${sql.raw(values.map((value) => `'${value}'`).join(', '))})`;
