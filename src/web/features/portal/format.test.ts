import { describe, expect, it } from 'vitest';
import { groupedToken, portalDate, readAmount, statusText } from './format';

describe('portal formats', () => {
  it('writes dates unambiguously and groups a token as it is typed on a keypad', () => {
    expect(portalDate('2026-12-05')).toBe('5 Dec 2026');
    expect(portalDate('2027-01-28T09:00:00.000Z')).toBe('28 Jan 2027');
    expect(groupedToken('301211585')).toBe('301 211 585');
  });

  it('reads an amount in major units, refusing zero and text', () => {
    expect(readAmount('322', 'KES')).toEqual({ value: 32_200 });
    expect(readAmount('1,500', 'UGX')).toEqual({ value: 1_500 });
    expect(readAmount('0', 'KES')).toHaveProperty('error');
    expect(readAmount('abc', 'KES')).toHaveProperty('error');
  });

  it('names statuses for customers', () => {
    expect(statusText('defaulted')).toBe('In arrears');
    expect(statusText('paid_off')).toBe('Paid off');
  });
});
