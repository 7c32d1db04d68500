import { healthEndpoints } from '../../../contracts/health';
import type { AppInstance } from '../../app';
import { route } from '../../route';

/** Readiness: 503 until migrations have run (the app listens before that, so the port answers at once). */
export async function healthRoutes(app: AppInstance): Promise<void> {
  route(app, healthEndpoints.get, { access: 'public', tags: ['health'] }, async (_request, reply) =>
    app.readiness.ready ? { status: 'ok' as const } : reply.status(503).send({ status: 'starting' as const }),
  );
}
