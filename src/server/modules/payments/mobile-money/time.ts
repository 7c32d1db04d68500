import { instantOfWallTime, zoneOffsetMs } from '../../../dates';

/**
 * Daraja's times ('YYYYMMDDHHmmss', TransTime and TransactionDate) are wall-clock times in the
 * organisation's time zone (Africa/Nairobi for Safaricom): the instant they name.
 */

/** The instant of a 'YYYYMMDDHHmmss' wall-clock time in a time zone; null when it is no real time. */
export function instantOfProviderTime(text: string, timeZone: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo - 1 ||
    check.getUTCDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  )
    return null;
  return new Date(instantOfWallTime(wall, timeZone));
}

/** An instant as Daraja's 'YYYYMMDDHHmmss' in a time zone (the STK push Timestamp). */
export function providerTimeOf(at: Date, timeZone: string): string {
  const local = new Date(Math.floor(at.getTime() / 1000) * 1000 + zoneOffsetMs(at.getTime(), timeZone));
  return local.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
