import { describe, expect, it } from 'vitest';
import { kycErrors, maskedPhone } from './simulation-steps';

describe('the simulated identity check', () => {
  it('asks for a name and a plausible phone number, each with its message', () => {
    expect(kycErrors({ name: '', phone: '' })).toEqual({
      name: 'Enter a name (any name: this is a simulation)',
      phone: 'Enter a phone number of 7 to 15 digits',
    });
    expect(kycErrors({ name: 'Amina', phone: '+254 712 345 678' })).toEqual({});
    expect(kycErrors({ name: 'Amina', phone: '12-34' })).toHaveProperty('phone');
  });

  it('shows only the last digits of the number the SMS would go to', () => {
    expect(maskedPhone('+254 712 345 678')).toBe('•••• 678');
    expect(maskedPhone('12')).toBe('12');
  });
});
