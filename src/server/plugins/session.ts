import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors';
import type { ActiveSession, SessionStore } from '../sessions';
import { rotateCsrfSecret } from './csrf';

export const SESSION_COOKIE = 'sid';

declare module 'fastify' {
  interface FastifyRequest {
    /** The staff session of the request, resolved from the cookie before access checks. */
    session: ActiveSession | null;
  }
}

function cookieOptions(request: FastifyRequest) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    // Secure whenever the app is reached over HTTPS (directly, or behind a trusted proxy).
    secure: request.protocol === 'https',
  };
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  absoluteHours: number,
): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: absoluteHours * 3600 });
  rotateCsrfSecret(request, reply);
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
  rotateCsrfSecret(request, reply);
}

export async function resolveSession(request: FastifyRequest, sessions: SessionStore): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  request.session = token && token.length <= 100 ? await sessions.resolve(token) : null;
}

/** The signed-in user's id; only for routes whose access rule already requires a session. */
export function userId(request: FastifyRequest): string {
  const id = request.session?.user.id;
  if (!id) throw unauthorized();
  return id;
}
