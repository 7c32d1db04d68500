import { and, count, eq, gt, lt } from 'drizzle-orm';
import { loginFailures } from '../../../db/schema';
import type { AppContext } from '../../context';
import { tooManyRequests } from '../../errors';

/** API.md: 429 after 5 failed attempts for one account or one address within 15 minutes. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;

export async function assertNotThrottled(ctx: AppContext, email: string, ip: string): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - FAILURE_WINDOW_MS);
  const [byEmail] = await ctx.db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gt(loginFailures.at, since)));
  const [byIp] = await ctx.db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.ip, ip), gt(loginFailures.at, since)));
  if ((byEmail?.n ?? 0) >= MAX_FAILURES || (byIp?.n ?? 0) >= MAX_FAILURES) {
    throw tooManyRequests(
      'Too many failed sign-in attempts. Wait 15 minutes and try again.',
      Math.ceil(FAILURE_WINDOW_MS / 1000),
    );
  }
}

export async function recordFailure(ctx: AppContext, email: string, ip: string): Promise<void> {
  await ctx.db.insert(loginFailures).values({ email, ip, at: ctx.clock.now() });
}

/** A successful sign-in clears the account's count (not the address's: one good account must not unlock guessing at others). */
export async function clearAccountFailures(ctx: AppContext, email: string): Promise<void> {
  await ctx.db.delete(loginFailures).where(eq(loginFailures.email, email));
}

export async function purgeOldFailures(ctx: AppContext): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - FAILURE_WINDOW_MS);
  await ctx.db.delete(loginFailures).where(lt(loginFailures.at, since));
}
