import { sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { contracts, customers, devices } from '../../../db/schema';
import type { Executor } from '../../context';

/** A contract as a statement line names it: enough to check and post the line. */
export interface ContractByReference {
  id: string;
  number: string;
  status: string;
  currency: string;
  activatedAt: Date | null;
  createdAt: Date;
}

/**
 * The contracts that thousands of references name, in one statement per 5,000 values (a
 * statement import resolves every line before its preview): by contract number, by the serial
 * of the financed unit, or by the customer's phone (E.164). Keyed by the value as given; a serial
 * or a phone may name several contracts (a unit financed again, a customer with two), newest first.
 */
export async function contractsByReference(
  executor: Executor,
  key: 'contract_number' | 'device_serial' | 'phone',
  values: readonly string[],
): Promise<Map<string, ContractByReference[]>> {
  const found = new Map<string, ContractByReference[]>();
  const unique = [...new Set(values)];
  for (let start = 0; start < unique.length; start += 5000) {
    const batch = unique.slice(start, start + 5000);
    const match =
      key === 'contract_number'
        ? sql`JOIN ${contracts} c ON c.number = v.value`
        : key === 'device_serial'
          ? sql`JOIN ${devices} d ON d.serial_number = v.value JOIN ${contracts} c ON c.device_id = d.id`
          : sql`JOIN ${customers} p ON p.phone = v.value JOIN ${contracts} c ON c.customer_id = p.id`;
    const rows = await queryRows<
      ContractByReference & { value: string; activated_at: string | null; created_at: string }
    >(
      executor,
      sql`SELECT v.value, c.id, c.number, c.status, c.currency, c.activated_at, c.created_at
        FROM unnest(${sql.param(batch)}::text[]) AS v(value) ${match}
        ORDER BY c.created_at DESC, c.id`,
    );
    for (const row of rows) {
      const list = found.get(row.value) ?? [];
      list.push({
        id: row.id,
        number: row.number,
        status: row.status,
        currency: row.currency,
        activatedAt: row.activated_at ? new Date(row.activated_at) : null,
        createdAt: new Date(row.created_at),
      });
      found.set(row.value, list);
    }
  }
  return found;
}
