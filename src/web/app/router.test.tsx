import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router as WouterRouter } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { jsonResponse, testQueryClient } from '@/web/test/render';
import { Router } from './router';
import { ThemeProvider } from './theme';

const owner = {
  id: 'u1',
  email: 'owner@demo.example.com',
  firstName: 'Grace',
  lastName: 'Owino',
  role: 'admin',
  isOwner: true,
};

function renderAt(path: string, userAnswer: () => Response | Promise<Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      String(input) === '/api/user' ? userAnswer() : jsonResponse([]),
    ),
  );
  const location = memoryLocation({ path, record: true });
  render(
    <QueryClientProvider client={testQueryClient()}>
      <ThemeProvider>
        <WouterRouter hook={location.hook} searchHook={location.searchHook}>
          <Router />
        </WouterRouter>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return location.history;
}

const signedOut = () => new Response('', { status: 401, statusText: 'Unauthorized' });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Router (seed section 2)', () => {
  it("shows 'Verifying authentication...' while the user loads", () => {
    renderAt('/', () => new Promise<Response>(() => undefined));
    expect(screen.getByText('Verifying authentication...')).toBeInTheDocument();
  });

  it('shows the landing page with the sign-in form at / and /login when signed out', async () => {
    renderAt('/login', signedOut);
    expect(await screen.findByTestId('input-email')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
  });

  it('redirects a signed-out visitor of a protected route to /login', async () => {
    const history = renderAt('/admin/users', signedOut);
    expect(await screen.findByTestId('input-email')).toBeInTheDocument();
    expect(history.at(-1)).toBe('/login');
  });

  it('shows public pages signed out', async () => {
    renderAt('/demo', signedOut);
    expect(await screen.findByTestId('text-page-title')).toHaveTextContent('Financing demo');
    expect(screen.queryByText('This area is being built')).toBeNull();
  });

  it('shows the device calculator signed out', async () => {
    renderAt('/calculator', signedOut);
    expect(await screen.findByTestId('text-page-title')).toHaveTextContent('Device calculator');
    expect(screen.queryByText('This area is being built')).toBeNull();
  });

  it('shows not-found for unknown paths', async () => {
    renderAt('/no-such-page', signedOut);
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });

  it('sends a signed-in user away from the signed-out pages to the dashboard', async () => {
    const history = renderAt('/register', () => jsonResponse(owner));
    expect(await screen.findByText('Welcome, Grace')).toBeInTheDocument();
    expect(history.at(-1)).toBe('/');
  });

  it('renders a placeholder area inside the shell for a signed-in user', async () => {
    renderAt('/crm', () => jsonResponse(owner));
    expect(await screen.findByTestId('text-page-title')).toHaveTextContent('CRM');
    expect(screen.getByText('This area is being built')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('shows not-found inside the shell for a record under a placeholder area', async () => {
    renderAt('/crm/contacts/no-such-contact', () => jsonResponse(owner));
    expect(await screen.findByTestId('text-page-title')).toHaveTextContent('Page not found');
    expect(screen.queryByText('This area is being built')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });
});
