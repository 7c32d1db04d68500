import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { guestSessions, investorCodes } from '../db/schema';
import type { AppContext, Executor } from './context';
import { rotateCsrfSecret } from './plugins/csrf';
import { randomToken, sha256 } from './secrets';

/**
 * Sessions of the two kinds of people who are not staff (issue 16): customers in the portal and
 * investors in theirs. Each kind has its own cookie and rows in `guest_sessions`, so a customer or
 * investor cookie never opens a staff route (those read only `sid`), and a staff cookie never
 * opens a portal route. Looked up in the database on each portal request (no cache): a revoked
 * investor code or an ended session stops at the next request on every instance.
 */

export type GuestKind = 'customer' | 'investor';

export const GUEST_COOKIES: Record<GuestKind, string> = { customer: 'psid', investor: 'isid' };

/** A customer's portal session: only this customer's data may be reached with it. */
export interface CustomerSession {
  id: string;
  customerId: string;
}

/** An investor's session: aggregates of its code's scope only. */
export interface InvestorSession {
  id: string;
  codeId: string;
  label: string;
  scope: { kind: 'portfolio' } | { kind: 'tag'; tag: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved only on routes whose access is 'customer'. */
    customerSession: CustomerSession | null;
    /** Resolved only on routes whose access is 'investor'. */
    investorSession: InvestorSession | null;
  }
}

/** Sessions last 12 hours at most, and end after 30 idle minutes (a phone left on a table). */
const ABSOLUTE_MS = 12 * 3600_000;
const IDLE_MS = 30 * 60_000;
const TOUCH_INTERVAL_MS = 60_000;

function cookieOptions(request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

/** Starts a session (in the caller's transaction) and sets its cookie; the CSRF pair is renewed. */
export async function startGuestSession(
  ctx: AppContext,
  executor: Executor,
  request: FastifyRequest,
  reply: FastifyReply,
  subject: { kind: 'customer'; customerId: string } | { kind: 'investor'; investorCodeId: string },
): Promise<void> {
  const token = randomToken(32);
  const now = ctx.clock.now();
  await executor.insert(guestSessions).values({
    id: sha256(token),
    kind: subject.kind,
    customerId: subject.kind === 'customer' ? subject.customerId : null,
    investorCodeId: subject.kind === 'investor' ? subject.investorCodeId : null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + ABSOLUTE_MS),
    ip: request.ip ?? null,
    userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
  });
  reply.setCookie(GUEST_COOKIES[subject.kind], token, {
    ...cookieOptions(request),
    maxAge: ABSOLUTE_MS / 1000,
  });
  rotateCsrfSecret(request, reply);
}

/** Ends the request's session of this kind (if any) and clears its cookie. */
export async function endGuestSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: GuestKind,
): Promise<void> {
  const token = request.cookies[GUEST_COOKIES[kind]];
  if (token && token.length <= 100)
    await ctx.db
      .delete(guestSessions)
      .where(and(eq(guestSessions.id, sha256(token)), eq(guestSessions.kind, kind)));
  reply.clearCookie(GUEST_COOKIES[kind], cookieOptions(request));
  rotateCsrfSecret(request, reply);
}

/** Ends every session of a customer, or of an investor code (when it is revoked). */
export async function endGuestSessionsOf(
  executor: Executor,
  subject: { customerId: string } | { investorCodeId: string },
): Promise<void> {
  await executor
    .delete(guestSessions)
    .where(
      'customerId' in subject
        ? eq(guestSessions.customerId, subject.customerId)
        : eq(guestSessions.investorCodeId, subject.investorCodeId),
    );
}

async function liveSession(ctx: AppContext, kind: GuestKind, token: string | undefined) {
  if (!token || token.length > 100) return null;
  const id = sha256(token);
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .select({
      id: guestSessions.id,
      customerId: guestSessions.customerId,
      investorCodeId: guestSessions.investorCodeId,
      lastSeenAt: guestSessions.lastSeenAt,
      label: investorCodes.label,
      scopeKind: investorCodes.scopeKind,
      scopeTag: investorCodes.scopeTag,
    })
    .from(guestSessions)
    .leftJoin(
      investorCodes,
      and(
        eq(investorCodes.id, guestSessions.investorCodeId),
        isNull(investorCodes.revokedAt),
        gt(investorCodes.expiresAt, now),
      ),
    )
    .where(
      and(
        eq(guestSessions.id, id),
        eq(guestSessions.kind, kind),
        gt(guestSessions.expiresAt, now),
        gt(guestSessions.lastSeenAt, new Date(now.getTime() - IDLE_MS)),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS)
    await ctx.db.update(guestSessions).set({ lastSeenAt: now }).where(eq(guestSessions.id, id));
  return row;
}

/** Resolves the customer or investor session a route's access asks for (app.ts onRequest). */
export async function resolveGuestSession(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const access = request.routeOptions.config.access;
  if (access === 'customer') {
    const row = await liveSession(ctx, 'customer', request.cookies[GUEST_COOKIES.customer]);
    request.customerSession = row?.customerId ? { id: row.id, customerId: row.customerId } : null;
  } else if (access === 'investor') {
    const row = await liveSession(ctx, 'investor', request.cookies[GUEST_COOKIES.investor]);
    // A revoked or expired code leaves the join empty: its sessions end with it.
    request.investorSession =
      row?.investorCodeId && row.label && row.scopeKind
        ? {
            id: row.id,
            codeId: row.investorCodeId,
            label: row.label,
            scope:
              row.scopeKind === 'tag' && row.scopeTag
                ? { kind: 'tag', tag: row.scopeTag }
                : { kind: 'portfolio' },
          }
        : null;
  }
}

/** The customer of the request's portal session; only for routes whose access is 'customer'. */
export function portalCustomerId(request: FastifyRequest): string {
  const id = request.customerSession?.customerId;
  if (!id) throw new Error('portalCustomerId on a route without customer access');
  return id;
}

/** The investor session of the request; only for routes whose access is 'investor'. */
export function investorSessionOf(request: FastifyRequest): InvestorSession {
  const session = request.investorSession;
  if (!session) throw new Error('investorSessionOf on a route without investor access');
  return session;
}
