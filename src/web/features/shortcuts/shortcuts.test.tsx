import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Users } from 'lucide-react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/contracts/auth';
import { renderWithProviders } from '@/web/test/render';
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
import { type KeyLike, NEW_CONTRACT_PATH, shortcutFor } from './shortcut-rules';
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
afterEach(() => vi.restoreAllMocks());

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
    expect(history.at(-1)).toBe(NEW_CONTRACT_PATH);
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
});

describe('command palette', () => {
  it('filters pages and actions and runs the chosen one with Enter', async () => {
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
});
