import { z } from 'zod';
import { endpoint, okSchema } from './endpoint';

/** Seed section 3: tutorials, steps, progress records and features of the help centre. */
export const TUTORIAL_CATEGORIES = ['basics', 'financing', 'analytics', 'compliance', 'ai'] as const;
export type TutorialCategory = (typeof TUTORIAL_CATEGORIES)[number];

export const tutorialStepSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  imageUrl: z.string().optional(),
  /** CSS selector of the page element the step highlights. */
  target: z.string().optional(),
  /** The page the step is about; the player navigates there before highlighting. */
  path: z.string().optional(),
});
export type TutorialStep = z.infer<typeof tutorialStepSchema>;

export const tutorialSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.enum(TUTORIAL_CATEGORIES),
  difficulty: z.enum(['beginner', 'intermediate', 'advanced']),
  estimatedTime: z.number().int(),
  isNew: z.boolean(),
  steps: z.array(tutorialStepSchema),
});
export type Tutorial = z.infer<typeof tutorialSchema>;

export const featureSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  isNew: z.boolean(),
  addedDate: z.string(),
  tutorialId: z.string().optional(),
});
export type Feature = z.infer<typeof featureSchema>;

export const tutorialProgressSchema = z.object({
  tutorialId: z.string(),
  completedSteps: z.array(z.string()),
});
export type TutorialProgress = z.infer<typeof tutorialProgressSchema>;

export const tutorialProgressBody = z.strictObject({
  tutorialId: z.string({ error: 'tutorialId is required' }).min(1).max(100),
  stepId: z.string({ error: 'stepId is required' }).min(1).max(100),
  completed: z.boolean({ error: 'completed must be true or false' }),
});
export type TutorialProgressBody = z.input<typeof tutorialProgressBody>;

/** The help centre: tutorials, features, and the user's progress through the tutorials. */
export const helpEndpoints = {
  tutorials: endpoint({ method: 'GET', path: '/api/tutorials', response: z.array(tutorialSchema) }),
  features: endpoint({ method: 'GET', path: '/api/features', response: z.array(featureSchema) }),
  progress: endpoint({
    method: 'GET',
    path: '/api/user/tutorial-progress',
    response: z.array(tutorialProgressSchema),
  }),
  recordProgress: endpoint({
    method: 'POST',
    path: '/api/user/tutorial-progress',
    body: tutorialProgressBody,
    response: okSchema,
    status: 201,
  }),
};
