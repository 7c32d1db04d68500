import { z } from 'zod';
import { activityEventBody, usageQuery, usageSchema } from '../../../contracts/activity';
import type { AppInstance } from '../../app';
import { badRequest } from '../../errors';
import { userId } from '../../plugins/session';
import { trackActivity, usage } from './service';

/** Seed section 7: POST /api/activity/track, also the target of the page-unload beacon. */
export async function activityRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['activity'];

  app.post(
    '/api/activity/track',
    {
      config: { access: 'signedIn', csrf: 'beacon' },
      schema: {
        tags,
        body: activityEventBody,
        querystring: z.strictObject({ csrf: z.string().max(200).optional() }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await trackActivity(ctx, userId(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/activity/usage',
    {
      config: { access: 'admin.audit' },
      schema: { tags, querystring: usageQuery, response: { 200: usageSchema } },
    },
    (request) => {
      const { from, to } = request.query;
      if (from > to)
        throw badRequest('from must not be after to', [
          { field: 'from', message: 'from must not be after to' },
        ]);
      return usage(ctx, from, to);
    },
  );
}
