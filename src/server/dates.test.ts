import { describe, expect, it } from 'vitest';
import { startOfDayIn } from './dates';

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
