import { and, count, eq, gt, lt, max } from 'drizzle-orm';
import { loginFailures } from '../../../db/schema';
import type { AppContext } from '../../context';
import { tooManyRequests } from '../../errors';

/**
 * Sign-in throttling (API.md: 429 after 5 failed attempts for one account or address within 15
 * minutes; issue 12 §4: a stranger who knows an e-mail must not be able to lock its owner out):
 * - one address: 5 failures within 15 minutes, whatever the accounts, and it waits;
 * - one account from one address: 5 failures within 15 minutes, and that pair waits;
 * - one account from many addresses (distributed guessing): after 5 failures, an address the
 *   account never signed in from waits 30 s after the last failure, doubling with each further
 *   failure up to 15 minutes. An address the account signed in from in the last 90 days is not
 *   held back by failures elsewhere, so the owner at their usual place always gets in.
 */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
const FIRST_DELAY_MS = 30_000;

export interface ThrottleSubject {
  email: string;
  ip: string;
  /** The account signed in from this address before (src/server/modules/audit/sign-ins.ts). */
  knownAddress: boolean;
}

const MESSAGE = 'Too many failed sign-in attempts. Wait 15 minutes and try again.';

export async function assertNotThrottled(ctx: AppContext, subject: ThrottleSubject): Promise<void> {
  const now = ctx.clock.now().getTime();
  const since = new Date(now - FAILURE_WINDOW_MS);
  const recent = gt(loginFailures.at, since);
  const [byIp] = await ctx.db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.ip, subject.ip), recent));
  const [byPair] = await ctx.db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, subject.email), eq(loginFailures.ip, subject.ip), recent));
  const retryAfter = Math.ceil(FAILURE_WINDOW_MS / 1000);
  if ((byIp?.n ?? 0) >= MAX_FAILURES || (byPair?.n ?? 0) >= MAX_FAILURES)
    throw tooManyRequests(MESSAGE, retryAfter);
  if (subject.knownAddress) return;
  const [account] = await ctx.db
    .select({ n: count(), last: max(loginFailures.at) })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, subject.email), recent));
  const failures = account?.n ?? 0;
  if (failures < MAX_FAILURES || !account?.last) return;
  const delay = Math.min(FIRST_DELAY_MS * 2 ** (failures - MAX_FAILURES), FAILURE_WINDOW_MS);
  const wait = account.last.getTime() + delay - now;
  if (wait > 0) throw tooManyRequests(MESSAGE, Math.ceil(wait / 1000));
}

/** Records a failure; answers how many the account has had within the window (to warn its owner). */
export async function recordFailure(ctx: AppContext, email: string, ip: string): Promise<number> {
  await ctx.db.insert(loginFailures).values({ email, ip, at: ctx.clock.now() });
  const since = new Date(ctx.clock.now().getTime() - FAILURE_WINDOW_MS);
  const [row] = await ctx.db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gt(loginFailures.at, since)));
  return row?.n ?? 0;
}

/** A successful sign-in clears the account's count (not the address's: one good account must not unlock guessing at others). */
export async function clearAccountFailures(ctx: AppContext, email: string): Promise<void> {
  await ctx.db.delete(loginFailures).where(eq(loginFailures.email, email));
}

export async function purgeOldFailures(ctx: AppContext): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - FAILURE_WINDOW_MS);
  await ctx.db.delete(loginFailures).where(lt(loginFailures.at, since));
}
