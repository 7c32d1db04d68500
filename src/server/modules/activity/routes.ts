import { activityEndpoints } from '../../../contracts/activity';
import type { AppInstance } from '../../app';
import { badRequest } from '../../errors';
import { userId } from '../../plugins/session';
import { route } from '../../route';
import { trackActivity, usage } from './service';

/** Seed section 7: POST /api/activity/track, also the target of the page-unload beacon. */
export async function activityRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['activity'];

  route(app, activityEndpoints.track, { access: 'signedIn', csrf: 'beacon', tags }, async (request) => {
    await trackActivity(ctx, userId(request), request.body);
    return null;
  });

  route(app, activityEndpoints.usage, { access: 'admin.audit', tags }, (request) => {
    const { from, to } = request.query;
    if (from > to)
      throw badRequest('from must not be after to', [
        { field: 'from', message: 'from must not be after to' },
      ]);
    return usage(ctx, from, to);
  });
}
