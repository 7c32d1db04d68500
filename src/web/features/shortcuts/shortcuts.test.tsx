import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Users } from 'lucide-react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/contracts/auth';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { helpCentre } from '../help/help-store';
import CommandPalette from './command-palette';
import {
  actionsSource,
  type CommandContext,
  type CommandSource,
  matchesQuery,
  pagesSource,
} from './command-sources';
import { commandPalette } from './palette-store';
import { contractsSource, customersSource } from './record-sources';
import { type KeyLike, shortcutFor } from './shortcut-rules';
import { useGlobalShortcuts } from './use-global-shortcuts';

const key = (over: Partial<KeyLike>): KeyLike => ({
  key: '',
  ctrlKey: true,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  target: document.body,
  ...over,
});

const input = () => document.createElement('input');

describe('shortcut rules', () => {
  it('maps Ctrl+? (Ctrl+Shift+/), Ctrl+K, Ctrl+N and Ctrl+D, and ⌘ as Ctrl', () => {
    expect(shortcutFor(key({ key: '?', shiftKey: true }))).toBe('help');
    expect(shortcutFor(key({ key: '/', code: 'Slash', shiftKey: true }))).toBe('help');
    expect(shortcutFor(key({ key: 'k' }))).toBe('search');
    expect(shortcutFor(key({ key: 'K' }))).toBe('search');
    expect(shortcutFor(key({ key: 'n' }))).toBe('new-contract');
    expect(shortcutFor(key({ key: 'd' }))).toBe('dashboard');
    expect(shortcutFor(key({ key: 'k', ctrlKey: false, metaKey: true }))).toBe('search');
  });

  it('ignores keys without Ctrl, with Alt, and other letters', () => {
    expect(shortcutFor(key({ key: 'k', ctrlKey: false }))).toBeNull();
    expect(shortcutFor(key({ key: 'k', altKey: true }))).toBeNull();
    expect(shortcutFor(key({ key: 'k', shiftKey: true }))).toBeNull();
    expect(shortcutFor(key({ key: 'x' }))).toBeNull();
    expect(shortcutFor(key({ key: '/' }))).toBeNull();
  });

  it('leaves text fields their keys, except Ctrl+K', () => {
    for (const target of [input(), document.createElement('textarea'), document.createElement('select')]) {
      expect(shortcutFor(key({ key: 'n', target }))).toBeNull();
      expect(shortcutFor(key({ key: 'd', target }))).toBeNull();
      expect(shortcutFor(key({ key: '?', shiftKey: true, target }))).toBeNull();
      expect(shortcutFor(key({ key: 'k', target }))).toBe('search');
    }
    const checkbox = input();
    checkbox.type = 'checkbox';
    expect(shortcutFor(key({ key: 'd', target: checkbox }))).toBe('dashboard');
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    expect(shortcutFor(key({ key: 'd', target: editable }))).toBeNull();
  });
});

function Shortcuts() {
  useGlobalShortcuts();
  return <input aria-label="Notes" />;
}

beforeEach(() => {
  helpCentre.reset();
  commandPalette.close();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('global shortcuts', () => {
  it('navigates, opens help and the palette, and prevents the browser default', () => {
    const { history } = renderWithProviders(<Shortcuts />, { path: '/settings' });
    const press = (init: KeyboardEventInit) => {
      const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ctrlKey: true, ...init });
      act(() => {
        window.dispatchEvent(event);
      });
      return event;
    };
    expect(press({ key: 'd' }).defaultPrevented).toBe(true);
    expect(history.at(-1)).toBe('/');
    press({ key: 'n' });
    // The wizard itself, not the contracts list.
    expect(history.at(-1)).toBe('/contracts/new');
    press({ key: '?', shiftKey: true });
    expect(helpCentre.get().open).toBe(true);
    press({ key: 'k' });
    expect(commandPalette.isOpen()).toBe(true);
    press({ key: 'k' });
    expect(commandPalette.isOpen()).toBe(false);
    expect(press({ key: 'x' }).defaultPrevented).toBe(false);
  });

  it('does not take Ctrl+D inside a text field, but Ctrl+K still opens search', () => {
    const { history } = renderWithProviders(<Shortcuts />, { path: '/settings' });
    const field = screen.getByLabelText('Notes');
    fireEvent.keyDown(field, { key: 'd', ctrlKey: true });
    expect(history.at(-1)).toBe('/settings');
    fireEvent.keyDown(field, { key: 'k', ctrlKey: true });
    expect(commandPalette.isOpen()).toBe(true);
  });
});

const user: User = {
  id: 'u1',
  email: 'amina@example.com',
  firstName: 'Amina',
  lastName: 'Njoroge',
  role: 'agent',
  isOwner: false,
};

const context = (isAdmin: boolean): CommandContext => ({
  navigate: vi.fn(),
  isAdmin,
  toggleTheme: vi.fn(),
  signOut: vi.fn(),
});

describe('command sources', () => {
  it('matches every word anywhere in the label, description or keywords', () => {
    expect(matchesQuery({ label: 'Audit trail', description: 'Every change' }, 'audit')).toBe(true);
    expect(matchesQuery({ label: 'Audit trail', description: 'Every change' }, 'trail change')).toBe(true);
    expect(matchesQuery({ label: 'Audit trail' }, 'audit payments')).toBe(false);
  });

  it('hides administration pages and the invite action from other roles', async () => {
    const labels = async (source: CommandSource, admin: boolean, query = '') =>
      (await source.search(query, context(admin))).map((item) => item.label);
    expect(await labels(pagesSource, false)).not.toContain('Audit trail');
    expect(await labels(pagesSource, true)).toContain('Audit trail');
    expect(await labels(pagesSource, true)).not.toContain('Contact');
    expect(await labels(actionsSource, false)).toEqual([
      'New contract',
      'Open help centre',
      'Toggle theme',
      'Sign out',
    ]);
    expect(await labels(actionsSource, true)).toContain('New invite');
  });

  it("opens the contract wizard from the palette's New contract", () => {
    const ctx = context(false);
    const [newContract] = actionsSource.search('new contract', ctx);
    newContract?.run();
    expect(ctx.navigate).toHaveBeenCalledWith('/contracts/new');
  });
});

const NEEMA = {
  id: '0b9c3f0e-2f4d-4f7a-9a43-5b1d2c3e4f50',
  accountNumber: 'C-000123',
  firstName: 'Neema',
  lastName: 'Achieng',
  fullName: 'Neema Achieng',
  phone: '+254 7** *** 456',
  email: null,
  nationalId: '***4567',
  region: 'Nairobi',
  kycStatus: 'verified',
  riskScore: 640,
  riskGrade: 'B',
  assignedAgent: null,
  createdAt: '2026-01-10T08:00:00.000Z',
};
const NEEMA_CONTRACT = {
  id: '6a1f2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  number: 'CT-000077',
  status: 'active',
  customerId: NEEMA.id,
  customerName: 'Neema Achieng',
  customerPhone: NEEMA.phone,
  deviceSerial: 'SN-0077',
  deviceModel: 'Tecno Spark 20',
  planCode: 'PHONE-D',
  currency: 'KES',
  principal: 1_500_000,
  regularPayment: 5_000,
  frequency: 'daily',
  dpd: 0,
  bucket: 'current',
  outstandingTotal: 900_000,
  creditBalance: 0,
  nextDueDate: '2026-02-01',
  createdAt: '2026-01-10T08:00:00.000Z',
  activatedAt: '2026-01-10T09:00:00.000Z',
};

/** The list endpoints as the server answers a search: Neema for "neema", nothing otherwise. */
function stubRecordSearch() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const hit = (url.searchParams.get('q') ?? '').toLowerCase() === 'neema';
    const page = (items: unknown[]) => jsonResponse({ items, total: items.length, page: 1, pageSize: 5 });
    if (url.pathname === '/api/customers') return page(hit ? [NEEMA] : []);
    if (url.pathname === '/api/contracts') return page(hit ? [NEEMA_CONTRACT] : []);
    return jsonResponse({ message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('customer and contract search', () => {
  it("asks the server's list search for five records and links to each", async () => {
    const fetchMock = stubRecordSearch();
    const ctx = context(false);
    const customers = await customersSource.search('neema', ctx);
    expect(customers.map((item) => [item.label, item.description])).toEqual([
      ['Neema Achieng', 'C-000123 · +254 7** *** 456'],
    ]);
    customers[0]?.run();
    expect(ctx.navigate).toHaveBeenCalledWith(`/customers/${NEEMA.id}`);
    const contracts = await contractsSource.search('neema', ctx);
    expect(contracts.map((item) => [item.label, item.description])).toEqual([
      ['CT-000077', 'Neema Achieng · Tecno Spark 20 · Active'],
    ]);
    contracts[0]?.run();
    expect(ctx.navigate).toHaveBeenCalledWith(`/contracts/${NEEMA_CONTRACT.id}`);
    const asked = fetchMock.mock.calls.map(([url]) => String(url));
    expect(asked).toEqual(['/api/customers?q=neema&pageSize=5', '/api/contracts?q=neema&pageSize=5']);
  });
});

describe('command palette', () => {
  it('filters pages and actions and runs the chosen one with Enter', async () => {
    stubRecordSearch();
    const { history } = renderWithProviders(<CommandPalette user={user} />, { path: '/' });
    act(() => commandPalette.open());
    const search = await screen.findByTestId('input-command-search');
    await userEvent.type(search, 'collec');
    const options = screen.getAllByRole('option');
    // A label starting with the query comes first; a description mentioning it still matches.
    expect(options[0]).toHaveTextContent('Collections');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(options.map((o) => o.textContent)).not.toContainEqual(expect.stringContaining('Contracts'));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(history.at(-1)).toBe('/collections'));
    expect(commandPalette.isOpen()).toBe(false);
  });

  it('moves with the arrow keys, says when nothing matches, and waits for asynchronous sources', async () => {
    const slow: CommandSource = {
      kind: 'remote',
      id: 'customers',
      label: 'Customers',
      minQueryLength: 2,
      search: async (query) => [{ id: 'customer:1', label: `Customer ${query}`, icon: Users, run: vi.fn() }],
    };
    renderWithProviders(<CommandPalette user={user} sources={[actionsSource, slow]} />);
    act(() => commandPalette.open());
    const search = await screen.findByTestId('input-command-search');
    expect(screen.getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    expect(search).toHaveAttribute('aria-activedescendant', screen.getAllByRole('option')[1]?.id);
    await userEvent.type(search, 'wanjiru');
    expect(await screen.findByText('Customer wanjiru')).toBeInTheDocument();
    await userEvent.clear(search);
    await userEvent.type(search, 'j');
    expect(await screen.findByTestId('text-command-empty')).toHaveTextContent('Nothing matches');
  });

  it('finds a customer by name (Ctrl+K "neema") and opens the profile', async () => {
    stubRecordSearch();
    const { history } = renderWithProviders(<CommandPalette user={user} />, { path: '/' });
    act(() => commandPalette.open());
    await userEvent.type(await screen.findByTestId('input-command-search'), 'neema');
    const customer = await screen.findByTestId(`command-customer-${NEEMA.id}`);
    expect(customer).toHaveTextContent('Neema Achieng');
    expect(screen.getByTestId(`command-contract-${NEEMA_CONTRACT.id}`)).toHaveTextContent('CT-000077');
    // Nothing local matches "neema", so the first result is the customer.
    expect(customer).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(history.at(-1)).toBe(`/customers/${NEEMA.id}`));
  });
});
