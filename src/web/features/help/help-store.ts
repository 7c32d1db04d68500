import { useSyncExternalStore } from 'react';
import type { Tutorial } from '@/contracts/help';

/**
 * The help centre's flag (seed: "opened by a flag") and the running tutorial, in one small
 * store outside React so the top bar, shortcuts, pages and the command palette can open it
 * without passing props through the shell.
 */
export type HelpTab = 'tutorials' | 'features' | 'quick-help';

export interface HelpState {
  open: boolean;
  tab: HelpTab;
  /** The tutorial being played and the index of its current step. */
  player: { tutorial: Tutorial; stepIndex: number } | null;
}

let state: HelpState = { open: false, tab: 'tutorials', player: null };
const listeners = new Set<() => void>();

function set(next: Partial<HelpState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export const helpCentre = {
  get: (): HelpState => state,
  open: (tab?: HelpTab) => set({ open: true, ...(tab ? { tab } : {}) }),
  close: () => set({ open: false }),
  setTab: (tab: HelpTab) => set({ tab }),
  /** Seed: the dialog returns to the Tutorials tab when a tutorial starts; the player begins at step 1. */
  startPlayer: (tutorial: Tutorial) =>
    set({ open: false, tab: 'tutorials', player: { tutorial, stepIndex: 0 } }),
  goToStep: (stepIndex: number) => {
    if (state.player) set({ player: { ...state.player, stepIndex } });
  },
  closePlayer: () => set({ player: null }),
  /** Tests start from a clean store. */
  reset: () => set({ open: false, tab: 'tutorials', player: null }),
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useHelpCentre(): HelpState {
  return useSyncExternalStore(subscribe, helpCentre.get, helpCentre.get);
}
