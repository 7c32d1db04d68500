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
