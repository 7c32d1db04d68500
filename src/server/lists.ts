import { type SQL, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';

/** The most rows one CSV export returns; beyond it the export asks for narrower filters. */
export const CSV_EXPORT_LIMIT = 100_000;

/** `%text%` for LIKE, with the user's own % and _ taken literally. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * Substring search over a lower-case search column with a trigram index: fast for 3+ characters;
 * shorter queries match the column's start (a btree-friendly prefix) to stay cheap.
 */
export function searchCondition(column: SQL | unknown, q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const text = q.toLowerCase();
  return text.length >= 3
    ? sql`${column} LIKE ${likePattern(text)}`
    : sql`${column} LIKE ${`${text.replace(/[\\%_]/g, '\\$&')}%`}`;
}

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

/** RFC 4180 CSV; cells that a spreadsheet would run as a formula are prefixed with ' (CSV injection). */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const cell = (value: string | number | boolean | null | undefined): string => {
    if (value === null || value === undefined) return '';
    let text = String(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [columns.map((column) => cell(column.header)).join(',')];
  for (const row of rows) lines.push(columns.map((column) => cell(column.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function sendCsv(reply: FastifyReply, filename: string, csv: string): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .send(csv);
}

/**
 * `column` within whole days of the organisation's calendar (`YYYY-MM-DD`, both ends included),
 * compared as instants so an index on the timestamp applies.
 */
export function withinDays(
  column: SQL | unknown,
  from: string | undefined,
  to: string | undefined,
  timeZone: string,
): SQL[] {
  const conditions: SQL[] = [];
  if (from) conditions.push(sql`${column} >= (${from}::date::timestamp AT TIME ZONE ${timeZone})`);
  if (to) conditions.push(sql`${column} < ((${to}::date + 1)::timestamp AT TIME ZONE ${timeZone})`);
  return conditions;
}

/** JSON already serialised (and validated against the response schema when it was made). */
export function sendJsonBytes(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.header('content-type', 'application/json; charset=utf-8').send(bytes);
}

/** Offset for a 1-based page. */
export function offsetOf(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}
