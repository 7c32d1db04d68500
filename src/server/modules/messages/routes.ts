import { messageEndpoints } from '../../../contracts/messages';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { listRoute } from '../../list-route';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { messageList } from './list';
import { listTemplates, updateTemplate } from './templates';

/**
 * The outbox for staff allowed to see messages (API.md "Messages"): tokens and reminders sent to
 * customers, so support can follow a delivery; the templates, edited by administrators. Sending
 * from a screen comes with /communications.
 */
export async function messageRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['messages'];
  listRoute(app, messageList, { access: 'messages.read', tags });

  route(app, messageEndpoints.templates, { access: 'messages.read', tags }, async () => ({
    items: await listTemplates(ctx.db),
  }));

  route(app, messageEndpoints.updateTemplate, { access: 'admin.settings', tags }, (request) =>
    withTransaction(ctx, (tx) => updateTemplate(tx, actorOf(request), request.body)),
  );
}
