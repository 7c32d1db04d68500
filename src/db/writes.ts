import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './client';
import { queryRows } from './client';

/**
 * A part of one data-modifying statement (decision 022): the areas a payment touches each
 * contribute their writes as named CTEs (`name AS (INSERT …)`) and the columns to select (a
 * returned number), so a payment's writes are one round trip while each area keeps writing its
 * own tables. Every CTE runs, read or not. `after` runs once the statement succeeded: a cache
 * eviction (decision 024: inside a transaction it costs no statement, it is sent at commit).
 */
export interface Writes {
  with: SQL[];
  select?: SQL[];
  after?: Array<() => Promise<void>>;
}

/** Runs the parts as one statement and answers its one row; `prepared` for a hot path's statement (`queryRows`). */
export async function runWrites<T = Record<string, unknown>>(
  executor: Pick<Db, 'execute'>,
  parts: readonly Writes[],
  options: { prepared?: boolean } = {},
): Promise<T> {
  const ctes = parts.flatMap((part) => part.with);
  const columns = parts.flatMap((part) => part.select ?? []);
  const [row] = await queryRows<T>(
    executor,
    sql`${ctes.length ? sql`WITH ${sql.join(ctes, sql`, `)} ` : sql``}SELECT ${
      columns.length ? sql.join(columns, sql`, `) : sql`1`
    }`,
    options,
  );
  if (!row) throw new Error('A write statement answered no row');
  for (const step of parts.flatMap((part) => part.after ?? [])) await step();
  return row;
}
