import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client';
import type { Executor } from './context';

/** The next number of a sequence as text, `CT-000123` (never cut short beyond the width). */
export function numbered(sequence: string, prefix: string, width = 6) {
  return sql`(SELECT ${prefix} || lpad(s::text, greatest(${width}, length(s::text)), '0') FROM nextval(${sequence}) AS s)`;
}

export async function nextNumber(
  executor: Executor,
  sequence: string,
  prefix: string,
  width = 6,
): Promise<string> {
  const [row] = await queryRows<{ number: string }>(
    executor,
    sql`SELECT ${numbered(sequence, prefix, width)} AS number`,
  );
  if (!row) throw new Error(`No number from ${sequence}`);
  return row.number;
}
