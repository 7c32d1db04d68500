import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/contracts/auth';
import type { WhatsappTestResult } from '@/contracts/conversations';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { WhatsappTestPanel } from './whatsapp-test-panel';

const manager = {
  id: 'u1',
  email: 'm@example.com',
  firstName: 'Mo',
  lastName: 'Manager',
  role: 'manager',
  isOwner: false,
} as User;

const result: WhatsappTestResult = {
  status: 200,
  signature: `sha256=${'a'.repeat(64)}`,
  signatureValid: true,
  inbound: { object: 'whatsapp_business_account', entry: [] },
  conversationId: '3f1c2a9e-0000-4000-8000-000000000001',
  customerName: 'Amina Otieno',
  lines: [
    {
      id: 'l1',
      direction: 'in',
      author: 'customer',
      channel: 'whatsapp',
      body: 'What is my balance?',
      intent: 'balance',
      userName: null,
      messageId: null,
      messageStatus: null,
      createdAt: '2026-02-05T10:00:00.000Z',
    },
    {
      id: 'l2',
      direction: 'out',
      author: 'assistant',
      channel: 'whatsapp',
      body: 'Your balance: CT-000042: KES 12,000.00.',
      intent: 'balance',
      userName: null,
      messageId: 'm1',
      messageStatus: 'queued',
      createdAt: '2026-02-05T10:00:00.001Z',
    },
  ],
  outbound: [
    { messaging_product: 'whatsapp', to: '254712345678', type: 'text', text: { body: 'Your balance' } },
  ],
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the WhatsApp test panel', () => {
  it('sends the phone and text, and shows the answer, the signature, both payloads and the thread', async () => {
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/user') return jsonResponse(manager);
      if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 't' });
      if (url === '/api/whatsapp-test') {
        expect(JSON.parse(String(init?.body))).toEqual({
          phone: '+254712345678',
          text: 'What is my balance?',
        });
        return jsonResponse(result);
      }
      return jsonResponse({ message: 'not found' }, 404);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<WhatsappTestPanel />);
    await userEvent.type(screen.getByTestId('input-wa-phone'), '+254712345678');
    await userEvent.type(screen.getByTestId('input-wa-text'), 'What is my balance?');
    await userEvent.click(screen.getByTestId('button-wa-send'));
    expect(await screen.findByText('Your balance: CT-000042: KES 12,000.00.')).toBeTruthy();
    expect(screen.getByTestId('text-signature-result').textContent).toContain('Signature verified');
    expect(screen.getByTestId('json-inbound').textContent).toContain('whatsapp_business_account');
    expect(screen.getByTestId('json-outbound').textContent).toContain('"messaging_product": "whatsapp"');
    expect(screen.getByTestId('link-wa-thread').getAttribute('href')).toBe(
      '/ai-customer-service?conversation=3f1c2a9e-0000-4000-8000-000000000001',
    );
  });
});
