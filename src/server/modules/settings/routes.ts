import {
  organisationBody,
  organisationOptionsSchema,
  organisationSchema,
  preferencesBody,
  preferencesSchema,
  publicOrganisationSchema,
} from '../../../contracts/profile';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { organisation, updateOrganisation } from '../../organisation';
import { userId } from '../../plugins/session';
import { withTransaction } from '../../transaction';
import { organisationOptions, preferences, savePreferences } from './service';

/** /settings: the user's own preferences; organisation settings readable by staff, changed by admins only. */
export async function settingsRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['settings'];

  app.get(
    '/api/user/preferences',
    { config: { access: 'signedIn' }, schema: { tags, response: { 200: preferencesSchema } } },
    (request) => preferences(ctx, userId(request)),
  );

  app.put(
    '/api/user/preferences',
    {
      config: { access: 'signedIn' },
      schema: { tags, body: preferencesBody, response: { 200: preferencesSchema } },
    },
    (request) =>
      withTransaction(ctx, (tx) =>
        savePreferences(tx, userId(request), {
          ...request.body,
          notificationSettings: request.body.notificationSettings as Record<string, boolean>,
        }),
      ),
  );

  app.get(
    '/api/organisation',
    { config: { access: 'public' }, schema: { tags, response: { 200: publicOrganisationSchema } } },
    async () => {
      const { name, currency, country } = await organisation(ctx, ctx.db);
      return { name, currency, country };
    },
  );

  app.get(
    '/api/settings/organisation',
    { config: { access: 'signedIn' }, schema: { tags, response: { 200: organisationSchema } } },
    () => organisation(ctx, ctx.db),
  );

  app.get(
    '/api/settings/options',
    { config: { access: 'signedIn' }, schema: { tags, response: { 200: organisationOptionsSchema } } },
    () => organisationOptions(ctx),
  );

  app.put(
    '/api/settings/organisation',
    {
      config: { access: 'admin.settings' },
      schema: { tags, body: organisationBody, response: { 200: organisationSchema } },
    },
    (request) => withTransaction(ctx, (tx) => updateOrganisation(tx, actorOf(request), request.body)),
  );
}
