import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../errors';
import type { Keyring } from '../secrets';
import { randomToken } from '../secrets';

/**
 * Signed double-submit CSRF protection. A random value lives in an httpOnly cookie; the token the
 * page sends in `x-csrf-token` is its HMAC under the app key. Another site can neither read the
 * token nor forge one for its own cookie value.
 */
export const CSRF_COOKIE = 'csrf';
export const CSRF_HEADER = 'x-csrf-token';
const PURPOSE = 'csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function issueCsrfToken(request: FastifyRequest, reply: FastifyReply, keyring: Keyring): string {
  let secret = request.cookies[CSRF_COOKIE];
  if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) {
    secret = randomToken(32);
    reply.setCookie(CSRF_COOKIE, secret, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
    });
  }
  return keyring.sign(PURPOSE, secret);
}

export function checkCsrf(request: FastifyRequest, keyring: Keyring): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.routeOptions.config.csrf === false) return;
  const secret = request.cookies[CSRF_COOKIE];
  const fromQuery =
    request.routeOptions.config.csrf === 'beacon' ? (request.query as { csrf?: unknown }).csrf : undefined;
  const token = request.headers[CSRF_HEADER] ?? fromQuery;
  if (!secret || typeof token !== 'string' || !keyring.verify(PURPOSE, secret, token)) {
    throw forbidden('Invalid or missing CSRF token. Reload the page and try again.', 'CSRF');
  }
}
