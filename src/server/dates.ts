/**
 * One formatter per time zone and use: building an Intl.DateTimeFormat costs tens of
 * microseconds, and business dates are computed on hot paths (every calculator quote without a
 * start date). Each use names its locale and fields once, so two uses never share a formatter.
 */
const USES = {
  /** 'YYYY-MM-DD'. */
  date: { locale: 'en-CA', options: { year: 'numeric', month: '2-digit', day: '2-digit' } },
  /** 'HH:MM', 24-hour. */
  time: { locale: 'en-GB', options: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } },
  /** Every field of the wall clock, to the second, for the zone's offset. */
  wallClock: {
    locale: 'en-US',
    options: {
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    },
  },
} satisfies Record<string, { locale: string; options: Intl.DateTimeFormatOptions }>;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(use: keyof typeof USES, timeZone: string): Intl.DateTimeFormat {
  const key = `${use}|${timeZone}`;
  let found = formatters.get(key);
  if (!found) {
    const { locale, options } = USES[use];
    found = new Intl.DateTimeFormat(locale, { timeZone, ...options });
    formatters.set(key, found);
  }
  return found;
}

/** Today's business date ('YYYY-MM-DD') in a time zone: every date rule uses the organisation's. */
export function businessDate(at: Date, timeZone: string): string {
  return formatter('date', timeZone).format(at);
}

/** The wall-clock time ('HH:MM', 24-hour) of a moment in a time zone. */
export function localTime(at: Date, timeZone: string): string {
  return formatter('time', timeZone).format(at);
}

/** The UTC instant (ms) at which a calendar date ('YYYY-MM-DD') starts in a time zone. */
export function startOfDayIn(date: string, timeZone: string): number {
  return instantOfWallTime(Date.parse(`${date}T00:00:00Z`), timeZone);
}

/**
 * The instant (ms) of a wall-clock time in a time zone, the wall time given as if it were UTC.
 * The offset is taken twice: the offset at the first estimate holds across a change of offset.
 */
export function instantOfWallTime(wall: number, timeZone: string): number {
  return wall - zoneOffsetMs(wall - zoneOffsetMs(wall, timeZone), timeZone);
}

/** A time zone's offset at an instant (ms): its wall clock then, read as if it were UTC, less the instant's second. */
export function zoneOffsetMs(at: number, timeZone: string): number {
  const parts = formatter('wallClock', timeZone).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}
