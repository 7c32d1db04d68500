import { getTableColumns, type Table } from 'drizzle-orm';

/**
 * A row read by raw SQL (`SELECT t.*`, snake-case names) in drizzle's shape for its table: each
 * column mapped as drizzle's own select would (bigints to numbers, timestamps to dates, JSON
 * parsed), so a hand-written statement can read a table's rows beside other things.
 */
export function fromRow<T extends Table>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}
