import { notificationEndpoints } from '../../../contracts/notifications';
import type { AppInstance } from '../../app';
import { userId } from '../../plugins/session';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import {
  clearAll,
  deleteNotification,
  listNotifications,
  markAllRead,
  markRead,
  unreadCount,
} from './service';

/** Seed section 7: the notification calls, each scoped to the signed-in user. */
export async function notificationRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const options = { access: 'signedIn', tags: ['notifications'] } as const;

  route(app, notificationEndpoints.list, options, (request) => listNotifications(ctx, userId(request)));

  route(app, notificationEndpoints.unreadCount, options, async (request) => ({
    count: await unreadCount(ctx, userId(request)),
  }));

  route(app, notificationEndpoints.markRead, options, (request) =>
    withTransaction(ctx, (tx) => markRead(tx, userId(request), request.params.id)),
  );

  route(app, notificationEndpoints.readAll, options, async (request) => ({
    updated: await withTransaction(ctx, (tx) => markAllRead(tx, userId(request))),
  }));

  // Registered before /:id in the router's eyes: a static segment always wins over a parameter.
  route(app, notificationEndpoints.clearAll, options, async (request) => ({
    deleted: await withTransaction(ctx, (tx) => clearAll(tx, userId(request))),
  }));

  route(app, notificationEndpoints.remove, options, async (request) => {
    await withTransaction(ctx, (tx) => deleteNotification(tx, userId(request), request.params.id));
    return { ok: true as const };
  });
}
