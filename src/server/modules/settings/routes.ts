import { businessDateEndpoints } from '../../../contracts/business-date';
import { settingsEndpoints } from '../../../contracts/settings';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { businessDateState, moveBusinessDate } from '../../business-date';
import { organisation, updateOrganisation } from '../../organisation';
import { userId } from '../../plugins/session';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { refreshArrearsJob } from '../contracts/delinquency';
import { organisationOptions, preferences, savePreferences } from './service';

/**
 * /settings: the user's own preferences; organisation settings and the business date readable by
 * staff, changed by admins only.
 */
export async function settingsRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['settings'];
  const signedIn = { access: 'signedIn', tags } as const;

  route(app, settingsEndpoints.preferences, signedIn, (request) => preferences(ctx, userId(request)));

  route(app, settingsEndpoints.savePreferences, signedIn, (request) =>
    withTransaction(ctx, (tx) =>
      savePreferences(tx, userId(request), {
        ...request.body,
        notificationSettings: request.body.notificationSettings as Record<string, boolean>,
      }),
    ),
  );

  route(app, settingsEndpoints.publicOrganisation, { access: 'public', tags }, async () => {
    const { name, currency, country } = await organisation(ctx, ctx.db);
    return { name, currency, country };
  });

  route(app, settingsEndpoints.organisation, signedIn, () => organisation(ctx, ctx.db));

  route(app, settingsEndpoints.options, signedIn, () => organisationOptions(ctx));

  route(app, settingsEndpoints.saveOrganisation, { access: 'admin.settings', tags }, (request) =>
    withTransaction(ctx, (tx) => updateOrganisation(tx, actorOf(request), request.body)),
  );

  route(app, businessDateEndpoints.get, signedIn, () => businessDateState(ctx, ctx.db));

  route(app, businessDateEndpoints.move, { access: 'admin.settings', tags }, async (request) => {
    const moved = await withTransaction(ctx, (tx) =>
      moveBusinessDate(tx, actorOf(request), request.body.businessDate),
    );
    // The stored arrears figures follow at once, as on a new day (the job's key also moved, so
    // any instance's next tick would send it).
    if (app.jobs.running)
      await app.jobs
        .send(refreshArrearsJob, {}, 'changed')
        .catch((error: unknown) => request.log.error({ err: error }, 'arrears refresh not queued'));
    return moved;
  });
}
