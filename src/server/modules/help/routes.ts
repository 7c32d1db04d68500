import { helpEndpoints } from '../../../contracts/help';
import type { AppInstance } from '../../app';
import { userId } from '../../plugins/session';
import { route } from '../../route';
import { FEATURES, TUTORIALS } from './content';
import { progressOf, recordProgress } from './service';

/** Seed section 7: the help centre's calls (made only while it is open and the user signed in). */
export async function helpRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const options = { access: 'signedIn', tags: ['help'] } as const;

  route(app, helpEndpoints.tutorials, options, () => TUTORIALS);

  route(app, helpEndpoints.features, options, () => FEATURES);

  route(app, helpEndpoints.progress, options, (request) => progressOf(ctx, userId(request)));

  route(app, helpEndpoints.recordProgress, options, async (request) => {
    await recordProgress(ctx, userId(request), request.body);
    return { ok: true as const };
  });
}
