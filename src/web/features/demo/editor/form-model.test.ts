import { describe, expect, it } from 'vitest';
import type { DemoContent } from '@/contracts/demo';
import { fromForm, moved, serverFieldErrors, toForm } from './form-model';

const content: DemoContent = {
  devices: [
    { id: 'phone', name: 'Phone', category: 'phone', price: 18000, imageId: null, description: '' },
    { id: 'tv', name: 'TV', category: 'tv', price: 42000, imageId: null, description: 'Big' },
  ],
  plans: [
    {
      id: 'weekly',
      name: 'Weekly',
      depositPercent: 15,
      frequency: 'weekly',
      term: 52,
      apr: 30,
      interestMethod: 'declining',
    },
  ],
  texts: {
    title: 'Demo',
    intro: '',
    steps: {
      device: { heading: 'Device', help: '' },
      plan: { heading: 'Plan', help: '' },
      schedule: { heading: 'Schedule', help: '' },
      kyc: { heading: 'KYC', help: '' },
      payment: { heading: 'Payment', help: '' },
      unlock: { heading: 'Unlock', help: '' },
    },
    kycNote: '',
    closing: '',
  },
  heroImageId: null,
};

describe('the demo editor form', () => {
  it('round-trips content through the typed text (prices in major units)', () => {
    const form = toForm(content, 'USD');
    expect(form.devices[0]?.price).toBe('180.00');
    expect(form.plans[0]?.term).toBe('52');
    expect(fromForm(form, 'USD')).toEqual({ content, errors: {} });
  });

  it('names each wrong field by its path, as the server does', () => {
    const form = toForm(content, 'USD');
    form.devices[1] = {
      ...form.devices[1],
      id: 'tv',
      name: '',
      price: '12.345',
      category: 'tv',
      imageId: null,
      description: '',
    };
    form.plans[0] = {
      ...form.plans[0],
      id: 'weekly',
      name: 'W',
      frequency: 'weekly',
      interestMethod: 'declining',
      depositPercent: '95',
      term: '',
      apr: '30',
    };
    const result = fromForm(form, 'USD');
    expect(result.content).toBeNull();
    expect(Object.keys(result.errors)).toEqual(
      expect.arrayContaining(['devices.1.name', 'devices.1.price', 'plans.0.depositPercent', 'plans.0.term']),
    );
    expect(result.errors['plans.0.depositPercent']).toBe('Deposit must be at most 90 %');
  });

  it('reads the server’s field names and reorders lists', () => {
    expect(serverFieldErrors({ 'content.devices.0.imageId': 'Upload again' })).toEqual({
      'devices.0.imageId': 'Upload again',
    });
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
  });
});
