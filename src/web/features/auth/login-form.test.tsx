import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authEndpoints } from '@/contracts/auth';
import { queryKeys } from '@/web/lib/query-keys';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { LoginForm } from './login-form';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function messageOf(input: HTMLElement): string | null {
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id.split(' ').at(-1) ?? '')?.textContent ?? null) : null;
}

describe('LoginForm: messages per field', () => {
  it('shows a message under each empty field, linked to it', async () => {
    renderWithProviders(<LoginForm endpoint={authEndpoints.login} />);
    await userEvent.click(screen.getByTestId('button-submit'));
    const email = screen.getByLabelText('Email');
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(messageOf(email)).toBe('Email is required');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(messageOf(password)).toBe('Password is required');
  });

  it('says when the e-mail is not valid (the shared schema message)', async () => {
    renderWithProviders(<LoginForm endpoint={authEndpoints.login} />);
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByTestId('button-submit'));
    await waitFor(() =>
      expect(messageOf(screen.getByLabelText('Email'))).toBe('Enter a valid email address'),
    );
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'false');
  });

  it('shows the server refusal in the alert region', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' }, 401),
      ),
    );
    renderWithProviders(<LoginForm endpoint={authEndpoints.login} />);
    await userEvent.type(screen.getByLabelText('Email'), 'owner@demo.example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByTestId('button-submit'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
  });

  it('asks for the 6-digit code when the server answers TOTP_REQUIRED', async () => {
    const message = 'Enter the 6-digit code from your authenticator app';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse({ message, code: 'TOTP_REQUIRED', errors: [{ field: 'totp', message }] }, 401),
      ),
    );
    renderWithProviders(<LoginForm endpoint={authEndpoints.login} />);
    expect(screen.queryByTestId('input-totp')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'owner@demo.example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'right-password');
    await userEvent.click(screen.getByTestId('button-submit'));
    const totp = await screen.findByTestId('input-totp');
    await waitFor(() => expect(totp).toHaveAttribute('aria-invalid', 'true'));
    expect(messageOf(totp)).toBe(message);
    expect(totp).toHaveAttribute('autocomplete', 'one-time-code');
  });

  it('disables the button while signing in, then stores the user and goes to /', async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const user = {
      id: 'u1',
      email: 'owner@demo.example.com',
      firstName: 'Grace',
      lastName: 'Owino',
      role: 'admin',
      isOwner: true,
    };
    const { client, history } = renderWithProviders(<LoginForm endpoint={authEndpoints.login} />, {
      path: '/login',
    });
    await userEvent.type(screen.getByLabelText('Email'), 'owner@demo.example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'right-password');
    await userEvent.click(screen.getByTestId('button-submit'));
    await waitFor(() => expect(screen.getByTestId('button-submit')).toBeDisabled());
    expect(screen.getByTestId('button-submit')).toHaveTextContent('Signing in…');
    answer(jsonResponse(user));
    await waitFor(() => expect(history.at(-1)).toBe('/'));
    expect(client.getQueryData(queryKeys.auth.user())).toEqual(user);
  });
});
