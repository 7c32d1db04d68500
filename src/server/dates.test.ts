import { describe, expect, it } from 'vitest';
import { instantOfWallTime, startOfDayIn, zoneOffsetMs } from './dates';

describe('startOfDayIn', () => {
  it('is midnight on the zone’s wall clock', () => {
    expect(startOfDayIn('2030-01-02', 'UTC')).toBe(Date.UTC(2030, 0, 2));
    expect(startOfDayIn('2030-01-02', 'Africa/Nairobi')).toBe(Date.UTC(2030, 0, 1, 21));
    expect(startOfDayIn('2030-01-02', 'America/New_York')).toBe(Date.UTC(2030, 0, 2, 5));
  });
  it('holds on a day the offset changes', () => {
    // Summer time in New York begins at 02:00 on 10 March 2030; the day starts at 05:00 UTC.
    expect(startOfDayIn('2030-03-10', 'America/New_York')).toBe(Date.UTC(2030, 2, 10, 5));
    expect(startOfDayIn('2030-03-11', 'America/New_York')).toBe(Date.UTC(2030, 2, 11, 4));
  });
});

describe('instantOfWallTime and zoneOffsetMs', () => {
  it('reads a wall time on either side of a change of offset', () => {
    // London: 01:00 UTC on 30 March 2025 the clocks go from 01:00 to 02:00 (BST, +1).
    expect(instantOfWallTime(Date.UTC(2025, 2, 30, 0, 30), 'Europe/London')).toBe(
      Date.UTC(2025, 2, 30, 0, 30),
    );
    expect(instantOfWallTime(Date.UTC(2025, 2, 30, 3, 0), 'Europe/London')).toBe(Date.UTC(2025, 2, 30, 2, 0));
    expect(instantOfWallTime(Date.UTC(2025, 6, 1, 12, 0), 'Europe/London')).toBe(Date.UTC(2025, 6, 1, 11, 0));
    expect(instantOfWallTime(Date.UTC(2025, 6, 1, 12, 0), 'Africa/Nairobi')).toBe(Date.UTC(2025, 6, 1, 9, 0));
  });
  it('gives the offset at an instant, to the second', () => {
    expect(zoneOffsetMs(Date.UTC(2025, 0, 15, 12), 'Asia/Kathmandu')).toBe((5 * 60 + 45) * 60_000);
    expect(zoneOffsetMs(Date.UTC(2025, 6, 1, 12), 'America/New_York')).toBe(-4 * 3_600_000);
    expect(zoneOffsetMs(Date.UTC(2025, 6, 1, 12) + 999, 'UTC')).toBe(0);
  });
});
