/**
 * Quiet hours (the organisation's `quiet_hours_start` and `quiet_hours_end`, 'HH:MM' in its time
 * zone): no reminder goes out between them; the sender holds it until they end (decision 027).
 * A window whose start is after its end runs past midnight (20:00–08:00); equal ends mean none.
 */

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** Whether the local time ('HH:MM') falls in the quiet hours. */
export function inQuietHours(local: string, start: string, end: string): boolean {
  const [t, s, e] = [minutesOf(local), minutesOf(start), minutesOf(end)];
  if (s === e) return false;
  return s < e ? t >= s && t < e : t >= s || t < e;
}

/**
 * When the quiet hours that `now` falls in end (the start of the minute `end`, local), or null
 * when `now` is outside them. `local` is `now` as 'HH:MM' in the organisation's time zone. (A
 * change of summer time inside the window moves the end by its hour; the sender then waits
 * another hour or sends an hour early, never in the middle of the night.)
 */
export function quietHoursEnd(now: Date, local: string, start: string, end: string): Date | null {
  if (!inQuietHours(local, start, end)) return null;
  const wait = (minutesOf(end) - minutesOf(local) + 1440) % 1440;
  const minuteStart = now.getTime() - (now.getTime() % 60_000);
  return new Date(minuteStart + wait * 60_000);
}
