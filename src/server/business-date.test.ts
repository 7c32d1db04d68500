import { describe, expect, it } from 'vitest';
import { businessDateOf, businessToday } from './business-date';

const nairobi = (businessDateOffset: number) => ({ timeZone: 'Africa/Nairobi', businessDateOffset });

describe('business date', () => {
  it('is the calendar date in the organisation’s time zone when not moved', () => {
    // 22:30 UTC is already the next day in Nairobi (UTC+3), still the same day in UTC.
    const at = new Date('2026-03-31T22:30:00Z');
    expect(businessDateOf(at, nairobi(0))).toBe('2026-04-01');
    expect(businessDateOf(at, { timeZone: 'UTC', businessDateOffset: 0 })).toBe('2026-03-31');
  });

  it('runs the offset’s days ahead, across months, leap days and years', () => {
    expect(businessDateOf(new Date('2028-02-27T09:00:00Z'), nairobi(2))).toBe('2028-02-29');
    expect(businessDateOf(new Date('2026-12-20T09:00:00Z'), nairobi(40))).toBe('2027-01-29');
    expect(businessDateOf(new Date('2026-03-31T22:30:00Z'), nairobi(30))).toBe('2026-05-01');
  });

  it('takes today from the clock', () => {
    const clock = { now: () => new Date('2026-06-15T12:00:00Z') };
    expect(businessToday({ clock }, nairobi(0))).toBe('2026-06-15');
    expect(businessToday({ clock }, nairobi(17))).toBe('2026-07-02');
  });
});
