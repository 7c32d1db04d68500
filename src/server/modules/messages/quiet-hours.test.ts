import { describe, expect, it } from 'vitest';
import { inQuietHours, quietHoursEnd } from './quiet-hours';

describe('quiet hours', () => {
  it.each([
    // [local, start, end, quiet]
    ['19:59', '20:00', '08:00', false],
    ['20:00', '20:00', '08:00', true],
    ['23:59', '20:00', '08:00', true],
    ['00:00', '20:00', '08:00', true],
    ['07:59', '20:00', '08:00', true],
    ['08:00', '20:00', '08:00', false],
    ['12:30', '12:00', '14:00', true],
    ['14:00', '12:00', '14:00', false],
    ['03:00', '00:00', '00:00', false],
  ] as const)('%s in %s–%s: %s', (local, start, end, quiet) => {
    expect(inQuietHours(local, start, end)).toBe(quiet);
  });

  it('holds a message until the end of the window, across midnight', () => {
    // 21:30:20 local (UTC+3) is 18:30:20 UTC; 08:00 local is 05:00 UTC the next day.
    const now = new Date('2026-03-01T18:30:20.500Z');
    expect(quietHoursEnd(now, '21:30', '20:00', '08:00')?.toISOString()).toBe('2026-03-02T05:00:00.000Z');
    expect(quietHoursEnd(new Date('2026-03-02T02:15:00Z'), '05:15', '20:00', '08:00')?.toISOString()).toBe(
      '2026-03-02T05:00:00.000Z',
    );
    expect(quietHoursEnd(new Date('2026-03-02T06:00:00Z'), '09:00', '20:00', '08:00')).toBeNull();
  });
});
