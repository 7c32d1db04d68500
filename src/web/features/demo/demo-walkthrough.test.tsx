import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DemoContent } from '@/contracts/demo';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { DemoWalkthrough } from './demo-walkthrough';

const step = (heading: string) => ({ heading, help: '' });
const CONTENT: DemoContent = {
  devices: [
    { id: 'phone', name: 'Phone One', category: 'phone', price: 20000, imageId: null, description: '' },
  ],
  plans: [
    {
      id: 'weekly',
      name: 'Weekly',
      depositPercent: 10,
      frequency: 'weekly',
      term: 2,
      apr: 0,
      interestMethod: 'flat',
    },
  ],
  texts: {
    title: 'Demo',
    intro: '',
    steps: {
      device: step('Pick a device'),
      plan: step('Pick a plan'),
      schedule: step('Payments'),
      kyc: step('Details'),
      payment: step('Deposit'),
      unlock: step('Code'),
    },
    kycNote: 'Nothing is saved.',
    closing: 'Thanks',
  },
  heroImageId: null,
};

const QUOTE = {
  currency: 'USD',
  principal: 18000,
  installment: 9000,
  totalInterest: 0,
  totalServiceFees: 0,
  totalPayable: 18000,
  schedule: [
    { n: 1, dueDate: '2026-12-05', principal: 9000, interest: 0, serviceFee: 0, total: 9000, balance: 9000 },
    { n: 2, dueDate: '2026-12-12', principal: 9000, interest: 0, serviceFee: 0, total: 9000, balance: 0 },
  ],
};
const PAYMENT = {
  simulated: true,
  receipt: 'DEMO-0A1B2C3D',
  amount: 2000,
  currency: 'USD',
  method: 'Mobile money (simulated)',
  deviceName: 'Phone One',
  planName: 'Weekly',
  unlockCode: '123 456 789',
  days: 7,
  sms: 'DEMO: $20.00 received. Unlock code 123 456 789 (7 days).',
};

let requests: Array<{ url: string; body: unknown }>;

describe('the demo walk-through', () => {
  beforeEach(() => {
    requests = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        requests.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
        if (url.startsWith('/api/calculator/quote')) return jsonResponse(QUOTE);
        if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
        if (url === '/api/demo/payment') return jsonResponse(PAYMENT);
        return jsonResponse({ message: 'not found' }, 404);
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('goes from a device to the unlock code, and sends nothing the visitor typed', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DemoWalkthrough content={CONTENT} currency="USD" preview={false} />);
    const next = () => user.click(screen.getByTestId('button-demo-next'));

    expect(screen.getByTestId('button-demo-next')).toBeDisabled();
    await user.click(screen.getByTestId('choice-device-phone'));
    await next();
    expect(screen.getByTestId('text-step-heading')).toHaveTextContent('Pick a plan');
    expect(screen.getByTestId('text-step-heading')).toHaveFocus();
    await user.click(screen.getByTestId('choice-plan-weekly'));
    await next();

    expect(await screen.findByTestId('text-demo-instalment')).toHaveTextContent('$90.00');
    expect(screen.getByTestId('text-demo-deposit')).toHaveTextContent('$20.00');
    expect(requests.find((r) => r.url.startsWith('/api/calculator/quote'))?.url).toContain('deposit=2000');
    await next();

    await next();
    expect(screen.getByTestId('error-demo-name')).toBeInTheDocument();
    await user.type(screen.getByTestId('input-demo-name'), 'Secret Name');
    await user.type(screen.getByTestId('input-demo-phone'), '0712345678{Enter}');

    expect(screen.getByTestId('text-demo-payment-amount')).toHaveTextContent('$20.00');
    await user.click(screen.getByTestId('button-demo-pay'));
    expect(await screen.findByTestId('text-demo-receipt')).toHaveTextContent('DEMO-0A1B2C3D');
    await next();
    expect(screen.getByTestId('text-demo-unlock-code')).toHaveTextContent('123 456 789');

    const payment = requests.find((r) => r.url === '/api/demo/payment');
    expect(payment?.body).toEqual({ deviceId: 'phone', planId: 'weekly', preview: false });
    expect(JSON.stringify(requests)).not.toMatch(/Secret Name|0712345678/);

    await user.click(screen.getByTestId('button-demo-restart'));
    await waitFor(() => expect(screen.getByTestId('text-step-heading')).toHaveTextContent('Pick a device'));
    expect(screen.getByTestId('button-demo-next')).toBeDisabled();
  });
});
