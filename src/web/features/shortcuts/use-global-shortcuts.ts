import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { helpCentre } from '../help/help-store';
import { commandPalette } from './palette-store';
import { NEW_CONTRACT_PATH, shortcutFor } from './shortcut-rules';

/**
 * Ctrl+? help, Ctrl+K search, Ctrl+N new contract, Ctrl+D dashboard (⌘ on a Mac). Inside text
 * fields only Ctrl+K is taken. Browsers keep a few combinations for themselves (Chrome never
 * hands Ctrl+N to a page), so every one of them is also reachable from the palette and the menus.
 */
export function useGlobalShortcuts(): void {
  const [, navigate] = useLocation();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return;
      const id = shortcutFor(event);
      if (!id) return;
      event.preventDefault();
      if (id === 'help') helpCentre.open();
      else if (id === 'search') commandPalette.toggle();
      else if (id === 'new-contract') navigate(NEW_CONTRACT_PATH);
      else navigate('/');
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [navigate]);
}
