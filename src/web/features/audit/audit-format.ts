import { format, subDays } from 'date-fns';

/** Seconds as '1h 2m 3s', '4m 5s' or '6s' (0 -> '0s'). */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h ${m}m ${s}s`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

/** A date as the value of an <input type="date">: 'YYYY-MM-DD' in the browser's time zone. */
export function dateInputValue(date: Date): string {
  return format(date, 'yyyy-MM-dd');
}

/** The default usage range: the last 7 days, today included. */
export function lastSevenDays(today = new Date()): { from: string; to: string } {
  return { from: dateInputValue(subDays(today, 6)), to: dateInputValue(today) };
}

export function formatAuditTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format(date, 'd MMM yyyy, HH:mm:ss');
}

export interface DiffRow {
  key: string;
  before: string | undefined;
  after: string | undefined;
  changed: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const show = (value: unknown): string | undefined =>
  value === undefined ? undefined : JSON.stringify(value);

/**
 * Field-by-field comparison of an audit row's before and after, when both are objects (or
 * absent); null when either is something else, which is then shown as raw JSON.
 */
export function diffEntries(before: unknown, after: unknown): DiffRow[] | null {
  const b = before ?? {};
  const a = after ?? {};
  if (!isRecord(b) || !isRecord(a)) return null;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys.map((key) => {
    const was = show(b[key]);
    const now = show(a[key]);
    return { key, before: was, after: now, changed: was !== now };
  });
}
