import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessagingSettings } from '@/contracts/messaging-settings';
import { stubApi } from '@/web/features/devices/test-api';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { bodyOf, draftOf, ProvidersTab } from './providers-tab';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SETTINGS: MessagingSettings = {
  smsProvider: 'http',
  smsUrl: 'https://sms.example.com/version1/messaging',
  smsUsername: 'lender',
  smsApiKeySet: true,
  smsSenderId: 'LENDER',
  smsCostPerSegment: 80,
  smsRatePerSecond: 50,
  whatsappProvider: 'simulator',
  whatsappApiUrl: null,
  whatsappPhoneNumberId: null,
  whatsappAccessTokenSet: false,
  whatsappAppSecretSet: false,
  whatsappVerifyTokenSet: false,
  whatsappRatePerSecond: 50,
  emailProvider: 'simulator',
  smtpHost: null,
  smtpPort: null,
  smtpSecure: false,
  smtpUser: null,
  smtpPasswordSet: false,
  emailFrom: null,
  emailRatePerSecond: 10,
  simulatorFailureRate: 0,
  aiBaseUrl: null,
  aiApiKeySet: false,
  aiModel: null,
  updatedAt: '2026-01-06T09:00:00.000Z',
  smsCallbackUrl: '/api/webhooks/sms/status?token=abc123',
  whatsappWebhookUrl: '/api/webhooks/whatsapp',
};

describe('providers tab rules', () => {
  it('sends blanks as null, keeps a secret left empty, and sends one typed', () => {
    const draft = draftOf(SETTINGS);
    const body = bodyOf(draft);
    expect(body).toMatchObject({
      smsProvider: 'http',
      smsUrl: SETTINGS.smsUrl,
      whatsappApiUrl: null,
      smtpPort: null,
    });
    expect('smsApiKey' in body).toBe(false);
    expect(bodyOf({ ...draft, smsApiKey: 'new-key' }).smsApiKey).toBe('new-key');
    expect(Number.isNaN(bodyOf({ ...draft, smsRatePerSecond: '' }).smsRatePerSecond)).toBe(true);
  });
});

describe('ProvidersTab', () => {
  it('shows secrets only as Set or Not set, the callback URL, saves, and sends a test', async () => {
    const calls = stubApi({
      'GET /api/messaging/settings': () => jsonResponse(SETTINGS),
      'PUT /api/messaging/settings': (call) =>
        jsonResponse({
          ...SETTINGS,
          smsRatePerSecond: (call.body as { smsRatePerSecond: number }).smsRatePerSecond,
        }),
      'POST /api/messaging/settings/test': () =>
        jsonResponse({
          ok: false,
          provider: 'sms_http',
          reference: null,
          reason: 'InvalidPhoneNumber (403)',
          latencyMs: 12,
        }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ProvidersTab />);
    expect(await screen.findByTestId('badge-messaging-smsApiKey')).toHaveTextContent('Set');
    expect(screen.getByTestId('input-messaging-smsApiKey')).toHaveValue('');
    expect(screen.getByTestId('text-sms-callback-url')).toHaveTextContent(
      `${window.location.origin}/api/webhooks/sms/status?token=abc123`,
    );
    // WhatsApp is on the simulator: its credentials are not asked for.
    expect(screen.queryByTestId('input-messaging-whatsappAccessToken')).toBeNull();

    const rate = screen.getByTestId('input-messaging-smsRatePerSecond');
    await user.clear(rate);
    await user.type(rate, '20');
    await user.click(screen.getByTestId('button-save-messaging'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>;
    expect(put).toMatchObject({ smsRatePerSecond: 20, smsProvider: 'http' });
    expect(put).not.toHaveProperty('smsApiKey');

    await user.type(screen.getByTestId('input-test-sms'), '+254700000000');
    await user.click(screen.getByTestId('button-test-sms'));
    expect(await screen.findByTestId('text-test-sms')).toHaveTextContent(
      'Not sent by sms_http: InvalidPhoneNumber (403)',
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      channel: 'sms',
      recipient: '+254700000000',
    });
  });
});
