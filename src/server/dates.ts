/**
 * One formatter per time zone: building an Intl.DateTimeFormat costs tens of microseconds, and
 * business dates are computed on hot paths (every calculator quote without a start date).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today's business date ('YYYY-MM-DD') in a time zone: every date rule uses the organisation's. */
export function businessDate(at: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(at);
}

const clockFormatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time ('HH:MM', 24-hour) of a moment in a time zone. */
export function localTime(at: Date, timeZone: string): string {
  let formatter = clockFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    clockFormatters.set(timeZone, formatter);
  }
  return formatter.format(at);
}
