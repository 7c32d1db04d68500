import type { AppInstance } from '../../app';
import { listRoute } from '../../list-route';
import { messageList } from './list';

/**
 * The outbox for staff allowed to see messages (API.md "Messages"): tokens and reminders sent to
 * customers, so support can follow a delivery. Sending from a screen comes with /communications.
 */
export async function messageRoutes(app: AppInstance): Promise<void> {
  listRoute(app, messageList, { access: 'messages.read', tags: ['messages'] });
}
