import { z } from 'zod';
import {
  featureSchema,
  tutorialProgressBody,
  tutorialProgressSchema,
  tutorialSchema,
} from '../../../contracts/help';
import type { AppInstance } from '../../app';
import { userId } from '../../plugins/session';
import { FEATURES, TUTORIALS } from './content';
import { progressOf, recordProgress } from './service';

/** Seed section 7: the help centre's calls (made only while it is open and the user signed in). */
export async function helpRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['help'];

  app.get(
    '/api/tutorials',
    { config: { access: 'signedIn' }, schema: { tags, response: { 200: z.array(tutorialSchema) } } },
    () => TUTORIALS,
  );

  app.get(
    '/api/features',
    { config: { access: 'signedIn' }, schema: { tags, response: { 200: z.array(featureSchema) } } },
    () => FEATURES,
  );

  app.get(
    '/api/user/tutorial-progress',
    { config: { access: 'signedIn' }, schema: { tags, response: { 200: z.array(tutorialProgressSchema) } } },
    (request) => progressOf(ctx, userId(request)),
  );

  app.post(
    '/api/user/tutorial-progress',
    {
      config: { access: 'signedIn' },
      schema: { tags, body: tutorialProgressBody, response: { 201: z.object({ ok: z.literal(true) }) } },
    },
    async (request, reply) => {
      await recordProgress(ctx, userId(request), request.body);
      return reply.status(201).send({ ok: true as const });
    },
  );
}
