import { describe, expect, it } from 'vitest';
import { latestSlot, slotJobId } from './slots';

describe('job slots', () => {
  it('finds the latest slot at or before now in the organisation time zone', () => {
    // 18:00 in Nairobi (UTC+3) is 15:00 UTC.
    expect(latestSlot('0 18 * * *', 'Africa/Nairobi', new Date('2026-11-24T15:00:00Z')).toISOString()).toBe(
      '2026-11-24T15:00:00.000Z',
    );
    expect(latestSlot('0 18 * * *', 'Africa/Nairobi', new Date('2026-11-24T14:59:59Z')).toISOString()).toBe(
      '2026-11-23T15:00:00.000Z',
    );
    expect(latestSlot('*/5 * * * *', 'UTC', new Date('2026-11-24T10:07:30Z')).toISOString()).toBe(
      '2026-11-24T10:05:00.000Z',
    );
  });

  it('gives each slot of each job one id, the same on every instance', () => {
    const slot = new Date('2026-11-24T15:00:00Z');
    expect(slotJobId('a.job', slot)).toBe(slotJobId('a.job', new Date(slot)));
    expect(slotJobId('a.job', slot)).not.toBe(slotJobId('b.job', slot));
    expect(slotJobId('a.job', slot)).not.toBe(slotJobId('a.job', new Date('2026-11-25T15:00:00Z')));
    expect(slotJobId('a.job', slot)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });
});
