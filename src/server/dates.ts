/**
 * One formatter per time zone and use: building an Intl.DateTimeFormat costs tens of
 * microseconds, and business dates are computed on hot paths (every calculator quote without a
 * start date).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(
  locale: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, { timeZone, ...options });
    formatters.set(key, found);
  }
  return found;
}

/** Today's business date ('YYYY-MM-DD') in a time zone: every date rule uses the organisation's. */
export function businessDate(at: Date, timeZone: string): string {
  return formatter('en-CA', timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The wall-clock time ('HH:MM', 24-hour) of a moment in a time zone. */
export function localTime(at: Date, timeZone: string): string {
  return formatter('en-GB', timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

/** The UTC instant (ms) at which a calendar date ('YYYY-MM-DD') starts in a time zone. */
export function startOfDayIn(date: string, timeZone: string): number {
  const guess = Date.parse(`${date}T00:00:00Z`);
  // The zone's offset at a moment: its wall clock read as if it were UTC, less the moment.
  const offsetAt = (t: number) => {
    const parts = formatter('en-US', timeZone, {
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(t);
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - t;
  };
  // Twice: the offset at the first estimate holds across a change of offset that day.
  return guess - offsetAt(guess - offsetAt(guess));
}
