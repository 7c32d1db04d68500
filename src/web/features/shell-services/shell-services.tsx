import { lazy, Suspense, useEffect, useState } from 'react';
import type { User } from '@/contracts/auth';
import { ActivityTracker } from '../activity/activity-tracker';
import { helpCentre, useHelpCentre } from '../help/help-store';
import { TutorialPlayer } from '../help/tutorial-player';
import { useLandingRedirect, useThemePreferenceSync } from '../settings/preferences';
import { commandPalette, useCommandPaletteOpen } from '../shortcuts/palette-store';
import { useGlobalShortcuts } from '../shortcuts/use-global-shortcuts';

// Loaded the first time they open, then kept mounted so closing returns focus properly.
const HelpCentreDialog = lazy(() => import('../help/help-centre-dialog'));
const CommandPalette = lazy(() => import('../shortcuts/command-palette'));

/** Stays true once `value` has been true. */
function useOnceTrue(value: boolean): boolean {
  const [seen, setSeen] = useState(value);
  useEffect(() => {
    if (value) setSeen(true);
  }, [value]);
  return seen || value;
}

/**
 * The services of the signed-in shell, mounted once inside it: activity tracking, keyboard
 * shortcuts and the command palette, the help centre and its tutorial player, the saved theme
 * and the default landing page. Renders no layout of its own.
 */
export function ShellServices({ user }: { user: User }) {
  const { open: helpOpen } = useHelpCentre();
  const paletteOpen = useCommandPaletteOpen();
  const helpMounted = useOnceTrue(helpOpen);
  const paletteMounted = useOnceTrue(paletteOpen);
  useGlobalShortcuts();
  useThemePreferenceSync();
  // Signing out unmounts the shell: nothing of this session stays open for the next one.
  useEffect(
    () => () => {
      helpCentre.reset();
      commandPalette.close();
    },
    [],
  );
  useLandingRedirect();
  return (
    <>
      <ActivityTracker />
      <TutorialPlayer />
      {helpMounted && (
        <Suspense fallback={null}>
          <HelpCentreDialog />
        </Suspense>
      )}
      {paletteMounted && (
        <Suspense fallback={null}>
          <CommandPalette user={user} />
        </Suspense>
      )}
    </>
  );
}
