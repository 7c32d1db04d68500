import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import type { Preferences } from '@/contracts/profile';
import { settingsEndpoints } from '@/contracts/settings';
import { useTheme } from '@/web/app/theme';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

const SAVE_KEY = ['save-preferences'] as const;

/** The signed-in user's preferences (null once the session is gone). */
export function usePreferences() {
  return useQuery({
    queryKey: queryKeys.profile.preferences(),
    queryFn: () => apiOrNull(settingsEndpoints.preferences),
  });
}

/**
 * Saves preferences: the cache is updated at once (so a second change made before the first
 * answer builds on it), then PUT; a refusal restores the server's copy.
 */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: SAVE_KEY,
    mutationFn: (next: Preferences) => api(settingsEndpoints.savePreferences, { body: next }),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.profile.preferences(), saved),
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Preferences not saved', description: errorMessage(error) });
      void invalidate(queryClient, 'preferencesSaved');
    },
  });
  const { mutate } = mutation;
  const save = useCallback(
    (patch: Partial<Preferences>) => {
      const current = queryClient.getQueryData<Preferences | null>(queryKeys.profile.preferences());
      if (!current) return;
      const next = { ...current, ...patch };
      queryClient.setQueryData(queryKeys.profile.preferences(), next);
      mutate(next);
    },
    [queryClient, mutate],
  );
  // The latest save from anywhere (this page, or the theme toggle in the top bar).
  const status = useMutationState({ filters: { mutationKey: SAVE_KEY }, select: (m) => m.state.status }).at(
    -1,
  );
  return { save, status };
}

/**
 * The saved theme follows the user between browsers: applied once when the preferences arrive
 * after sign-in; afterwards any theme change (the top-bar toggle or /settings) is saved.
 */
export function useThemePreferenceSync(): void {
  const preferences = usePreferences();
  const { theme, setTheme } = useTheme();
  const { save } = useSavePreferences();
  const synced = useRef<string | null>(null);
  const themeAtStart = useRef(theme);

  useEffect(() => {
    const data = preferences.data;
    if (!data) return;
    if (synced.current === null && theme !== themeAtStart.current) {
      // Changed before the preferences arrived: the user's latest choice wins and is saved.
      synced.current = theme;
      if (theme !== data.theme) save({ theme });
    } else if (synced.current === null) {
      synced.current = data.theme;
      if (data.theme !== theme) setTheme(data.theme);
    } else if (theme !== synced.current) {
      synced.current = theme;
      save({ theme });
    }
  }, [preferences.data, theme, setTheme, save]);
}

let landingHandled = false;

/**
 * Default landing page (decided here, not in the sign-in forms, so nothing is added to the
 * signed-out pages): on the first load of the signed-in app — right after signing in, or when a
 * tab opens the app at / — the dashboard is replaced by the chosen page once. Later visits to /
 * (the brand link, Ctrl+D) stay on the dashboard. Signing out resets it.
 */
export function useLandingRedirect(): void {
  const [location, navigate] = useLocation();
  const firstLocation = useRef(location);
  const preferences = usePreferences();

  useEffect(
    () => () => {
      landingHandled = false;
    },
    [],
  );

  useEffect(() => {
    if (landingHandled || !preferences.data) return;
    landingHandled = true;
    const target = preferences.data.landingPage;
    if (firstLocation.current === '/' && location === '/' && target !== '/') {
      navigate(target, { replace: true });
    }
  }, [preferences.data, location, navigate]);
}
