import { z } from 'zod';
import { notificationSchema, unreadCountSchema } from '../../../contracts/notifications';
import type { AppInstance } from '../../app';
import { userId } from '../../plugins/session';
import { withTransaction } from '../../transaction';
import { clearAll, deleteNotification, listNotifications, markRead, unreadCount } from './service';

const idParams = z.object({ id: z.uuid('Not a valid notification id') });
const ok = z.object({ ok: z.literal(true) });

/** Seed section 7: the notification calls, each scoped to the signed-in user. */
export async function notificationRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['notifications'];

  app.get(
    '/api/notifications',
    { config: { access: 'signedIn' }, schema: { tags, response: { 200: z.array(notificationSchema) } } },
    (request) => listNotifications(ctx, userId(request)),
  );

  app.get(
    '/api/notifications/unread-count',
    { config: { access: 'signedIn' }, schema: { tags, response: { 200: unreadCountSchema } } },
    async (request) => ({ count: await unreadCount(ctx, userId(request)) }),
  );

  app.patch(
    '/api/notifications/:id/read',
    {
      config: { access: 'signedIn' },
      schema: { tags, params: idParams, response: { 200: notificationSchema } },
    },
    (request) => withTransaction(ctx, (tx) => markRead(tx, userId(request), request.params.id)),
  );

  // Registered before /:id in the router's eyes: a static segment always wins over a parameter.
  app.delete(
    '/api/notifications/clear-all',
    {
      config: { access: 'signedIn' },
      schema: { tags, response: { 200: z.object({ deleted: z.number().int() }) } },
    },
    async (request) => ({ deleted: await withTransaction(ctx, (tx) => clearAll(tx, userId(request))) }),
  );

  app.delete(
    '/api/notifications/:id',
    { config: { access: 'signedIn' }, schema: { tags, params: idParams, response: { 200: ok } } },
    async (request) => {
      await withTransaction(ctx, (tx) => deleteNotification(tx, userId(request), request.params.id));
      return { ok: true as const };
    },
  );
}
