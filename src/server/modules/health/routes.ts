import { z } from 'zod';
import type { AppInstance } from '../../app';

/** Readiness: 503 until migrations have run (the app listens before that, so the port answers at once). */
export async function healthRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('starting') }),
        },
      },
    },
    async (_request, reply) =>
      app.readiness.ready
        ? { status: 'ok' as const }
        : reply.status(503).send({ status: 'starting' as const }),
  );
}
