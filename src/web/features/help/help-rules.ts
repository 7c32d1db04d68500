import {
  TUTORIAL_CATEGORIES,
  type Tutorial,
  type TutorialCategory,
  type TutorialProgress,
} from '@/contracts/help';

/** Pure rules of the help centre (seed sections 2 and 4), kept free of React. */

export const CATEGORY_LABELS: Record<TutorialCategory, string> = {
  basics: 'Basics',
  financing: 'Financing',
  analytics: 'Analytics',
  compliance: 'Compliance',
  ai: 'AI',
};

export const DIFFICULTY_LABELS: Record<Tutorial['difficulty'], string> = {
  beginner: 'Beginner',
  intermediate: 'Intermediate',
  advanced: 'Advanced',
};

/** Tutorials grouped by category in the order basics, financing, analytics, compliance, ai; empty groups hidden. */
export function groupTutorials(
  tutorials: readonly Tutorial[],
): Array<{ category: TutorialCategory; label: string; tutorials: Tutorial[] }> {
  return TUTORIAL_CATEGORIES.map((category) => ({
    category,
    label: CATEGORY_LABELS[category],
    tutorials: tutorials.filter((tutorial) => tutorial.category === category),
  })).filter((group) => group.tutorials.length > 0);
}

/** Percent complete = completed steps over total steps, rounded (0 for a tutorial without steps). */
export function percentComplete(
  tutorial: Tutorial,
  progress: readonly TutorialProgress[] | null | undefined,
): number {
  const total = tutorial.steps.length;
  if (total === 0) return 0;
  const record = progress?.find((p) => p.tutorialId === tutorial.id);
  if (!record) return 0;
  const stepIds = new Set(tutorial.steps.map((step) => step.id));
  const done = new Set(record.completedSteps.filter((id) => stepIds.has(id))).size;
  return Math.round((done / total) * 100);
}

/** Seed section 4, "Local store": the two keys, as the seed names them. */
export const LAST_FEATURE_CHECK_KEY = 'lastFeatureCheck';
export const HAS_SEEN_TUTORIAL_KEY = 'hasSeenTutorial';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * When new features exist and today differs from the stored check date: store today and answer
 * true (the caller sets its flag). Otherwise false.
 */
export function checkNewFeatures(
  features: ReadonlyArray<{ isNew: boolean }>,
  today: string = new Date().toDateString(),
): boolean {
  if (!features.some((feature) => feature.isNew)) return false;
  const store = storage();
  if (store?.getItem(LAST_FEATURE_CHECK_KEY) === today) return false;
  try {
    store?.setItem(LAST_FEATURE_CHECK_KEY, today);
  } catch {
    // Not stored: the flag shows again next time, which is harmless.
  }
  return true;
}

export function markTutorialSeen(): void {
  try {
    storage()?.setItem(HAS_SEEN_TUTORIAL_KEY, 'true');
  } catch {
    // Storage unavailable: nothing else depends on it.
  }
}

export function hasSeenTutorial(): boolean {
  return storage()?.getItem(HAS_SEEN_TUTORIAL_KEY) === 'true';
}
