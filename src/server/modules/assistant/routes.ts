import { assistantEndpoints } from '../../../contracts/assistant';
import type { AppInstance } from '../../app';
import { route } from '../../route';
import { analyze } from './service';

/** Seed section 7 / API.md: the Finance AI Assistant. */
export async function assistantRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  route(
    app,
    assistantEndpoints.analyze,
    { access: 'business.read', tags: ['assistant'], rateLimit: { max: 60, timeWindow: '1 minute' } },
    (request) => analyze(ctx, request.body.query),
  );
}
