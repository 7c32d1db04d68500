import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { helpEndpoints, type Tutorial, type TutorialProgressBody } from '@/contracts/help';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { trackEvent } from '../activity/tracker';
import { markTutorialSeen } from './help-rules';
import { helpCentre } from './help-store';

/**
 * Tutorials, progress and features. The seed fetches them only while the help centre is open
 * (and the user signed in: every caller lives in the signed-in app); the help pages enable them too.
 */
export function useHelpData(enabled: boolean) {
  const tutorials = useQuery({
    queryKey: queryKeys.help.tutorials(),
    queryFn: () => apiOrNull(helpEndpoints.tutorials),
    enabled,
  });
  const progress = useQuery({
    queryKey: queryKeys.help.progress(),
    queryFn: () => apiOrNull(helpEndpoints.progress),
    enabled,
  });
  const features = useQuery({
    queryKey: queryKeys.help.features(),
    queryFn: () => apiOrNull(helpEndpoints.features),
    enabled,
  });
  return { tutorials, progress, features };
}

/** Starting, advancing, finishing and closing a tutorial (seed section 4, "Tutorial progress"). */
export function useTutorialActions() {
  const queryClient = useQueryClient();
  const record = useMutation({
    mutationFn: (body: TutorialProgressBody) => api(helpEndpoints.recordProgress, { body }),
    // Seed: on success the progress list is refetched.
    onSuccess: () => invalidate(queryClient, 'tutorialProgress'),
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Progress not saved', description: errorMessage(error) }),
  });
  const { mutate } = record;

  const start = useCallback(
    (tutorial: Tutorial) => {
      mutate({ tutorialId: tutorial.id, stepId: 'started', completed: false });
      trackEvent('tutorial_started', { tutorialId: tutorial.id });
      helpCentre.startPlayer(tutorial);
    },
    [mutate],
  );

  const next = useCallback(() => {
    const player = helpCentre.get().player;
    if (!player) return;
    const { tutorial, stepIndex } = player;
    const step = tutorial.steps[stepIndex];
    if (step) mutate({ tutorialId: tutorial.id, stepId: step.id, completed: true });
    if (stepIndex >= tutorial.steps.length - 1) {
      toast({
        title: 'Tutorial Completed! 🎉',
        description: `You've completed "${tutorial.name}". Great job!`,
      });
      trackEvent('tutorial_completed', { tutorialId: tutorial.id });
      helpCentre.closePlayer();
      markTutorialSeen();
    } else {
      helpCentre.goToStep(stepIndex + 1);
    }
  }, [mutate]);

  const previous = useCallback(() => {
    const player = helpCentre.get().player;
    if (player && player.stepIndex > 0) helpCentre.goToStep(player.stepIndex - 1);
  }, []);

  const close = useCallback(() => {
    helpCentre.closePlayer();
    markTutorialSeen();
  }, []);

  return { start, next, previous, close };
}
