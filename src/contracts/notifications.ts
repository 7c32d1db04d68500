import { z } from 'zod';
import { endpoint, idParams, okSchema } from './endpoint';

/** Seed section 3: Notification; type is error, warning, success or any other (outline badge). */
export const notificationSchema = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  type: z.string(),
  read: z.boolean(),
  link: z.string().optional(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const unreadCountSchema = z.object({ count: z.number().int().nonnegative() });

const notificationId = idParams('notification');

/** /api/notifications: the signed-in user's own notifications. */
export const notificationEndpoints = {
  list: endpoint({ method: 'GET', path: '/api/notifications', response: z.array(notificationSchema) }),
  unreadCount: endpoint({
    method: 'GET',
    path: '/api/notifications/unread-count',
    response: unreadCountSchema,
  }),
  markRead: endpoint({
    method: 'PATCH',
    path: '/api/notifications/:id/read',
    params: notificationId,
    response: notificationSchema,
  }),
  /** Every unread notification of the caller, on the server (not only the page the bell loaded). */
  readAll: endpoint({
    method: 'POST',
    path: '/api/notifications/read-all',
    response: z.object({ updated: z.number().int().nonnegative() }),
  }),
  clearAll: endpoint({
    method: 'DELETE',
    path: '/api/notifications/clear-all',
    response: z.object({ deleted: z.number().int() }),
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/notifications/:id',
    params: notificationId,
    response: okSchema,
  }),
};
