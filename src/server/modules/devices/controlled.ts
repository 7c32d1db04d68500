import { type SQL, sql } from 'drizzle-orm';
import { devices } from '../../../db/schema';

/**
 * The ids of units under device control (OpenPAYGO or a lock API), as a subquery for another
 * area's set-based statement (close of business: a lock warning goes only to controlled units).
 */
export function controlledDeviceIds(): SQL {
  return sql`SELECT d.id FROM ${devices} d WHERE d.control_kind <> 'none'`;
}
