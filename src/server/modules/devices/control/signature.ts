import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed JSON for the lock API (in the manner of Knox Guard and most webhook providers): the
 * `X-Signature` header is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the shared
 * secret. The timestamp is inside the signed text, so a captured request cannot be replayed later
 * than the tolerance; the body is signed as sent, byte for byte.
 */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The header value for a body sent now. */
export function signBody(secret: string, body: string, now: Date): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

/** Whether a header signs this body with this secret, within the tolerance of `now`. */
export function verifySignature(
  secret: string,
  body: string,
  header: string | undefined,
  now: Date,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  const parts = new Map(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureOf(secret, timestamp, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
