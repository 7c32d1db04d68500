import { useSyncExternalStore } from 'react';

/** Whether the command palette (Ctrl+K) is open: a flag any part of the shell can set. */
let open = false;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (next === open) return;
  open = next;
  for (const listener of listeners) listener();
}

export const commandPalette = {
  isOpen: () => open,
  open: () => set(true),
  close: () => set(false),
  toggle: () => set(!open),
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCommandPaletteOpen(): boolean {
  return useSyncExternalStore(subscribe, commandPalette.isOpen, commandPalette.isOpen);
}
