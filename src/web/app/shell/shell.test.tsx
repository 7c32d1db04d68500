import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '@/contracts/auth';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { AppShell } from './app-shell';

const base: User = {
  id: 'u1',
  email: 'amina@demo.example.com',
  firstName: 'Amina',
  lastName: 'Njoroge',
  role: 'manager',
  isOwner: false,
};

function openMenu(testId: string) {
  const trigger = screen.getByTestId(testId);
  trigger.focus();
  fireEvent.keyDown(trigger, { key: 'Enter' });
  return screen.getByRole('menu');
}

const cases: Array<[string, User, boolean]> = [
  ['a manager', base, false],
  ['a viewer', { ...base, role: 'viewer' }, false],
  ['an admin', { ...base, role: 'admin' }, true],
  ['an owner whose role is not admin', { ...base, role: 'finance', isOwner: true }, true],
];

describe('Administration navigation group (seed: admins and owners only)', () => {
  it.each(cases)('desktop settings menu for %s', (_label, user, shown) => {
    renderWithProviders(
      <AppShell user={user}>
        <p>content</p>
      </AppShell>,
    );
    const menu = openMenu('button-settings-menu');
    expect(within(menu).getByTestId('group-tools')).toBeInTheDocument();
    if (shown) {
      const group = within(menu).getByTestId('group-administration');
      expect(within(group).getByTestId('nav-admin-users')).toHaveAttribute('href', '/admin/users');
      expect(within(group).getByTestId('nav-admin-investor-codes')).toBeInTheDocument();
      expect(within(group).queryByTestId('nav-admin-demo-editor')).not.toBeInTheDocument();
    } else {
      expect(within(menu).queryByTestId('group-administration')).not.toBeInTheDocument();
      expect(within(menu).queryByText('Administration')).not.toBeInTheDocument();
    }
  });

  it.each(cases)('mobile More menu for %s', (_label, user, shown) => {
    renderWithProviders(
      <AppShell user={user}>
        <p>content</p>
      </AppShell>,
    );
    const menu = openMenu('button-more-menu');
    expect(within(menu).getByTestId('group-account')).toBeInTheDocument();
    if (shown) {
      expect(within(menu).getByTestId('mobile-nav-admin-demo-editor')).toHaveAttribute(
        'href',
        '/admin/demo-editor',
      );
    } else {
      expect(within(menu).queryByTestId('group-administration')).not.toBeInTheDocument();
    }
  });
});

describe('shell', () => {
  it('has the six desktop icon links with accessible names, and marks the active one', () => {
    renderWithProviders(
      <AppShell user={base}>
        <p>content</p>
      </AppShell>,
      { path: '/crm/contacts/7' },
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const names = within(nav)
      .getAllByRole('link')
      .map((link) => link.getAttribute('aria-label'));
    expect(names).toEqual(['Dashboard', 'Contracts', 'Collections', 'CRM', 'Communications', 'Analytics']);
    expect(screen.getByTestId('nav-crm')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('nav-dashboard')).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('main')).toHaveTextContent('content');
  });

  it('shows the avatar letter, name and e-mail in the profile menu', () => {
    renderWithProviders(
      <AppShell user={base}>
        <p>content</p>
      </AppShell>,
    );
    expect(screen.getByTestId('avatar-letter')).toHaveTextContent('A');
    const menu = openMenu('button-profile-menu');
    expect(within(menu).getByTestId('text-user-name')).toHaveTextContent('Amina Njoroge');
    expect(within(menu).getByTestId('text-user-email')).toHaveTextContent('amina@demo.example.com');
    for (const label of ['Edit Profile', 'Preferences', 'Help & Support', 'Sign Out']) {
      expect(within(menu).getByText(label)).toBeInTheDocument();
    }
  });

  it.each([
    ['succeeds', () => jsonResponse({ ok: true })],
    ['fails', () => new Response('down', { status: 503 })],
  ])('logout clears the cache and goes to /login when the call %s', async (_label, answer) => {
    const fetchMock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) =>
      String(input) === '/api/csrf-token' ? jsonResponse({ csrfToken: 't' }) : answer(),
    );
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { client, history } = renderWithProviders(
      <AppShell user={base}>
        <p>content</p>
      </AppShell>,
      { path: '/contracts' },
    );
    client.setQueryData(['/api/something'], { cached: true });
    const menu = openMenu('button-profile-menu');
    fireEvent.click(within(menu).getByTestId('button-logout'));
    await vi.waitFor(() => expect(history.at(-1)).toBe('/login'));
    expect(client.getQueryData(['/api/something'])).toBeUndefined();
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/logout' && init?.method === 'POST')).toBe(
      true,
    );
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
});
