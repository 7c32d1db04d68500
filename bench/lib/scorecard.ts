import type pg from 'pg';
import { scorecardOf } from '../../src/server/modules/customers/risk';

/** The organisation's scorecard settings, as the server reads them. */
export const SCORECARD_SETTINGS_SQL = 'SELECT currency, income_bands FROM organisation_settings WHERE id = 1';

/**
 * The key of the scorecard the server scores with, for customers a benchmark writes straight in
 * SQL: without it the server rescores every one of them in the background (customers/rescore.ts),
 * a batch of 500 at a time for minutes, evicting the customer lists each batch while the
 * benchmark measures (the payments bench's lists were measured beside it until 2026-12-02).
 */
export function scorecardKeyOf(
  row: { currency: string; income_bands: [number, number, number] | null } | undefined,
) {
  return scorecardOf({ currency: row?.currency ?? 'USD', incomeBands: row?.income_bands ?? null }).key;
}

/** `scorecardKeyOf` the organisation's settings, as a SQL literal for a bench's generated rows. */
export async function scorecardLiteral(client: pg.Client): Promise<string> {
  const settings = await client.query(SCORECARD_SETTINGS_SQL);
  return `'${scorecardKeyOf(settings.rows[0]).replaceAll("'", "''")}'`;
}
