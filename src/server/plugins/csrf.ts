import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../errors';
import type { Keyring } from '../secrets';
import { randomToken } from '../secrets';

/**
 * Signed double-submit CSRF protection, bound to the session (issue 12 §4). A random value lives
 * in an httpOnly cookie; the token the page sends in `x-csrf-token` is the HMAC, under the app key,
 * of that value and the session it was issued for. Another site can neither read the token nor
 * forge one, and a token pair planted in a victim's browser (a cookie value and token the attacker
 * got for their own session, or signed out) does not pass with the victim's session. The cookie
 * value is renewed at every sign-in and sign-out, so each session starts with a fresh pair; the
 * web drops its cached token then (the seed's rule that a 403 drops it stays as it was).
 */
export const CSRF_COOKIE = 'csrf';
export const CSRF_HEADER = 'x-csrf-token';
const PURPOSE = 'csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What the token signs: the cookie's value and the session (none when signed out). */
function material(secret: string, request: FastifyRequest): string {
  return `${secret}|${request.session?.id ?? 'signed-out'}`;
}

function newSecret(request: FastifyRequest, reply: FastifyReply): string {
  const secret = randomToken(32);
  reply.setCookie(CSRF_COOKIE, secret, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
  return secret;
}

export function issueCsrfToken(request: FastifyRequest, reply: FastifyReply, keyring: Keyring): string {
  let secret = request.cookies[CSRF_COOKIE];
  if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) secret = newSecret(request, reply);
  return keyring.sign(PURPOSE, material(secret, request));
}

/** At sign-in and sign-out: a new cookie value, so no token from before stays valid. */
export function rotateCsrfSecret(request: FastifyRequest, reply: FastifyReply): void {
  newSecret(request, reply);
}

export function checkCsrf(request: FastifyRequest, keyring: Keyring): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.routeOptions.config.csrf === false) return;
  const secret = request.cookies[CSRF_COOKIE];
  const fromQuery =
    request.routeOptions.config.csrf === 'beacon' ? (request.query as { csrf?: unknown }).csrf : undefined;
  const token = request.headers[CSRF_HEADER] ?? fromQuery;
  if (!secret || typeof token !== 'string' || !keyring.verify(PURPOSE, material(secret, request), token)) {
    throw forbidden('Invalid or missing CSRF token. Reload the page and try again.', 'CSRF');
  }
}
