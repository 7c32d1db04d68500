/**
 * The keyboard shortcuts of the seed's Quick Help (Ctrl+? help, Ctrl+K search, Ctrl+N new
 * contract, Ctrl+D dashboard) and the pure rule that decides which one a key press means.
 */
export type ShortcutId = 'help' | 'search' | 'new-contract' | 'dashboard';

export const SHORTCUTS: ReadonlyArray<{ id: ShortcutId; keys: readonly string[]; label: string }> = [
  { id: 'help', keys: ['Ctrl', '?'], label: 'Open help' },
  { id: 'search', keys: ['Ctrl', 'K'], label: 'Search pages, actions, customers and contracts' },
  { id: 'new-contract', keys: ['Ctrl', 'N'], label: 'New contract' },
  { id: 'dashboard', keys: ['Ctrl', 'D'], label: 'Go to the dashboard' },
];

/** The contract wizard's own page (service-pages.ts), not the contracts list. */
export const NEW_CONTRACT_PATH = '/contracts/new';

export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  target?: EventTarget | null;
}

/** Text fields keep their own keys: only Ctrl+K works inside them. */
export function isTextEntry(target: EventTarget | null | undefined): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false;
  const element = target as HTMLElement;
  const tag = element.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (element as HTMLInputElement).type;
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image'].includes(
      type,
    );
  }
  return element.isContentEditable || element.getAttribute?.('contenteditable') === 'true';
}

/** Ctrl (or ⌘ on a Mac) with the shortcut's key; Ctrl+? is Ctrl+Shift+/ on most layouts. */
export function shortcutFor(event: KeyLike): ShortcutId | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  let id: ShortcutId | null = null;
  if (key === '?' || (event.shiftKey && (key === '/' || event.code === 'Slash'))) id = 'help';
  else if (event.shiftKey) return null;
  else if (key === 'k') id = 'search';
  else if (key === 'n') id = 'new-contract';
  else if (key === 'd') id = 'dashboard';
  if (!id) return null;
  if (id !== 'search' && isTextEntry(event.target)) return null;
  return id;
}
