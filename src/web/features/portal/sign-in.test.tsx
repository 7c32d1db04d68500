import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { PortalSignIn } from './sign-in';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Answers the CSRF token, then what the test gives per path. */
function serve(answers: Record<string, () => Response>) {
  const calls: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const answer = answers[url];
      return answer ? answer() : jsonResponse({ message: 'not found', code: 'NOT_FOUND' }, 404);
    }),
  );
  return calls;
}

describe('PortalSignIn', () => {
  it('asks for a code, then signs in with it', async () => {
    const calls = serve({
      '/api/portal/otp': () => jsonResponse({ ok: true }, 202),
      '/api/portal/login': () => jsonResponse({ customer: { id: 'c1', firstName: 'Amina', lastName: 'W' } }),
    });
    renderWithProviders(<PortalSignIn />);
    await userEvent.type(screen.getByLabelText('Phone number'), '+254712345678');
    await userEvent.click(screen.getByTestId('button-send-code'));
    expect(await screen.findByTestId('text-code-sent')).toHaveTextContent('If this number is registered');
    await userEvent.type(screen.getByLabelText('6-digit code'), '12a3456');
    expect(screen.getByLabelText('6-digit code')).toHaveValue('123456');
    await userEvent.click(screen.getByTestId('button-portal-sign-in'));
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/portal/login'));
    expect(calls.find((c) => c.url === '/api/portal/login')?.body).toEqual({
      phone: '+254712345678',
      code: '123456',
    });
  });

  it('shows the server’s refusal in the alert region', async () => {
    serve({
      '/api/portal/otp': () =>
        jsonResponse({ message: 'Too many codes were asked for this number.', code: 'RATE_LIMITED' }, 429),
    });
    renderWithProviders(<PortalSignIn />);
    await userEvent.type(screen.getByLabelText('Phone number'), '0712345678');
    await userEvent.click(screen.getByTestId('button-send-code'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many codes');
  });
});
