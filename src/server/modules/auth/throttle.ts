import { and, eq, gt, lt, or, type SQL, sql } from 'drizzle-orm';
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

/** Counts rows matching `condition` among those the query reads. */
const countWhere = (condition: SQL | undefined) =>
  sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

export async function assertNotThrottled(ctx: AppContext, subject: ThrottleSubject): Promise<void> {
  const now = ctx.clock.now().getTime();
  const since = new Date(now - FAILURE_WINDOW_MS);
  const ofIp = eq(loginFailures.ip, subject.ip);
  const ofAccount = eq(loginFailures.email, subject.email);
  // One read for the three counts: the address's, the account's from this address, the account's.
  const [row] = await ctx.db
    .select({
      byIp: countWhere(ofIp),
      byPair: countWhere(and(ofAccount, ofIp)),
      byAccount: countWhere(ofAccount),
      last: sql<Date | null>`max(${loginFailures.at}) filter (where ${ofAccount})`.mapWith(loginFailures.at),
    })
    .from(loginFailures)
    .where(and(gt(loginFailures.at, since), or(ofIp, ofAccount)));
  const retryAfter = Math.ceil(FAILURE_WINDOW_MS / 1000);
  if ((row?.byIp ?? 0) >= MAX_FAILURES || (row?.byPair ?? 0) >= MAX_FAILURES)
    throw tooManyRequests(MESSAGE, retryAfter);
  if (subject.knownAddress) return;
  const failures = row?.byAccount ?? 0;
  if (failures < MAX_FAILURES || !row?.last) return;
  const delay = Math.min(FIRST_DELAY_MS * 2 ** (failures - MAX_FAILURES), FAILURE_WINDOW_MS);
  const wait = row.last.getTime() + delay - now;
  if (wait > 0) throw tooManyRequests(MESSAGE, Math.ceil(wait / 1000));
}

/** Records a failure; answers how many the account has had within the window (to warn its owner). */
export async function recordFailure(ctx: AppContext, email: string, ip: string): Promise<number> {
  const at = ctx.clock.now();
  const since = new Date(at.getTime() - FAILURE_WINDOW_MS);
  // One statement: the count reads the table as it was before the insert beside it, hence the + 1.
  const inserted = ctx.db
    .$with('inserted')
    .as(ctx.db.insert(loginFailures).values({ email, ip, at }).returning({ at: loginFailures.at }));
  const [row] = await ctx.db
    .with(inserted)
    .select({ n: sql<number>`count(*) + 1`.mapWith(Number) })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gt(loginFailures.at, since)));
  return row?.n ?? 1;
}

/** A successful sign-in clears the account's count (not the address's: one good account must not unlock guessing at others). */
export async function clearAccountFailures(ctx: AppContext, email: string): Promise<void> {
  await ctx.db.delete(loginFailures).where(eq(loginFailures.email, email));
}

export async function purgeOldFailures(ctx: AppContext): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - FAILURE_WINDOW_MS);
  await ctx.db.delete(loginFailures).where(lt(loginFailures.at, since));
}
