/**
 * Daraja's times ('YYYYMMDDHHmmss', TransTime and TransactionDate) are wall-clock times in the
 * organisation's time zone (Africa/Nairobi for Safaricom): the instant they name.
 */

function offsetMs(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const value = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(
    value('year'),
    value('month') - 1,
    value('day'),
    value('hour'),
    value('minute'),
    value('second'),
  );
  return local - Math.floor(at / 1000) * 1000;
}

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
  let at = wall - offsetMs(wall, timeZone);
  const second = offsetMs(at, timeZone);
  if (second !== wall - at) at = wall - second;
  return new Date(at);
}

/** An instant as Daraja's 'YYYYMMDDHHmmss' in a time zone (the STK push Timestamp). */
export function providerTimeOf(at: Date, timeZone: string): string {
  const local = new Date(Math.floor(at.getTime() / 1000) * 1000 + offsetMs(at.getTime(), timeZone));
  return local.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
