import { businessDateEndpoints } from '../../../contracts/business-date';
import { settingsEndpoints } from '../../../contracts/settings';
import { addDays } from '../../../domain';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { businessDateState, moveBusinessDate } from '../../business-date';
import { organisation, updateOrganisation } from '../../organisation';
import { userId } from '../../plugins/session';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { closeBusinessDate } from '../close-of-business/run';
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
    const actor = actorOf(request);
    const before = await businessDateState(ctx, ctx.db);
    const moved = await withTransaction(ctx, (tx) => moveBusinessDate(tx, actor, request.body.businessDate));
    if (moved.businessDate === before.businessDate) return moved;
    // The days skipped have ended, exactly as if they had passed: closed now, oldest first, and
    // the stored arrears figures brought to the new date (decision 026).
    await closeBusinessDate(ctx, addDays(moved.businessDate, -1), {
      trigger: 'date_move',
      actor,
      firstDate: before.businessDate,
    });
    return businessDateState(ctx, ctx.db);
  });
}
