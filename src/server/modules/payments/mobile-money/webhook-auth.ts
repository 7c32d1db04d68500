import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../../config';
import { unauthorized } from '../../../errors';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Who may call the M-Pesa callbacks (decision 020): the `token` query parameter equal to
 * MPESA_CALLBACK_TOKEN (compared in constant time, over digests so the length does not show), or
 * a caller address listed in MPESA_ALLOWED_IPS. With neither configured every callback is refused.
 * Anything else is a 401 before a thing is read or written.
 */
export function checkCallbackCaller(
  config: Pick<Config, 'MPESA_CALLBACK_TOKEN' | 'MPESA_ALLOWED_IPS'>,
  request: Pick<FastifyRequest, 'ip'>,
  token: string | undefined,
): void {
  const expected = config.MPESA_CALLBACK_TOKEN;
  if (expected && typeof token === 'string' && timingSafeEqual(digest(token), digest(expected))) return;
  if (config.MPESA_ALLOWED_IPS.length && config.MPESA_ALLOWED_IPS.includes(request.ip)) return;
  throw unauthorized('Invalid or missing callback token');
}
