import { and, eq } from 'drizzle-orm';
import type { TutorialProgress } from '../../../contracts/help';
import { tutorialProgress } from '../../../db/schema';
import type { AppContext } from '../../context';
import { fieldError } from '../../errors';
import { TUTORIALS } from './content';

/** Progress records as the seed shows them: per tutorial, the ids of the completed steps. */
export async function progressOf(ctx: AppContext, userId: string): Promise<TutorialProgress[]> {
  const rows = await ctx.db.select().from(tutorialProgress).where(eq(tutorialProgress.userId, userId));
  const byTutorial = new Map<string, string[]>();
  for (const row of rows) {
    const steps = byTutorial.get(row.tutorialId) ?? [];
    if (row.completed) steps.push(row.stepId);
    byTutorial.set(row.tutorialId, steps);
  }
  return [...byTutorial].map(([tutorialId, completedSteps]) => ({ tutorialId, completedSteps }));
}

/**
 * Records a step. Starting a tutorial records the step 'started' as not completed (seed
 * section 4); every other step id must belong to the tutorial.
 */
export async function recordProgress(
  ctx: AppContext,
  userId: string,
  input: { tutorialId: string; stepId: string; completed: boolean },
): Promise<void> {
  const tutorial = TUTORIALS.find((candidate) => candidate.id === input.tutorialId);
  if (!tutorial) throw fieldError('tutorialId', `No tutorial with id "${input.tutorialId}"`);
  if (input.stepId !== 'started' && !tutorial.steps.some((step) => step.id === input.stepId)) {
    throw fieldError('stepId', `Tutorial "${tutorial.name}" has no step "${input.stepId}"`);
  }
  const now = ctx.clock.now();
  await ctx.db
    .insert(tutorialProgress)
    .values({ userId, ...input, updatedAt: now })
    .onConflictDoUpdate({
      target: [tutorialProgress.userId, tutorialProgress.tutorialId, tutorialProgress.stepId],
      set: { completed: input.completed, updatedAt: now },
    });
}

export async function resetProgress(ctx: AppContext, userId: string, tutorialId: string): Promise<void> {
  await ctx.db
    .delete(tutorialProgress)
    .where(and(eq(tutorialProgress.userId, userId), eq(tutorialProgress.tutorialId, tutorialId)));
}
