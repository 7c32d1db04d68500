import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { auditLog } from '../../../db/schema';
import type { Executor } from '../../context';

/** How long an address where the account signed in stays "known" to the sign-in throttle. */
export const KNOWN_ADDRESS_DAYS = 90;

/**
 * Whether the account signed in successfully from this address in the last 90 days: the audit
 * trail records every sign-in with its address, so the throttle asks it rather than keeping a
 * second copy (issue 12 §4: a stranger's failures elsewhere never lock the owner out here).
 */
export async function signedInFrom(
  executor: Executor,
  userId: string,
  ip: string,
  now: Date,
): Promise<boolean> {
  const since = new Date(now.getTime() - KNOWN_ADDRESS_DAYS * 86_400_000);
  const [row] = await executor
    .select({ found: sql<number>`1` })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entityType, 'user'),
        eq(auditLog.entityId, userId),
        inArray(auditLog.action, ['auth.login', 'auth.admin_login']),
        eq(auditLog.ip, ip),
        gt(auditLog.at, since),
      ),
    )
    .limit(1);
  return row !== undefined;
}
