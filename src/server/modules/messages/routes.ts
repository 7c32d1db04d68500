import { communicationEndpoints as comms } from '../../../contracts/communications';
import { messageEndpoints } from '../../../contracts/messages';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { arrearsDay } from '../../business-date';
import { listRoute } from '../../list-route';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { cancelBulkSend, createBulkSend, listBulkSends, previewBulkSend } from './bulk-send';
import { messageList } from './list';
import { previewTemplate } from './preview';
import { countSegment, createSegment, deleteSegment, listSegments, updateSegment } from './segments';
import { retryMessage, sendSingle } from './single-send';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  restoreTemplate,
  templateVersions,
  updateTemplate,
} from './templates';

/**
 * The outbox for staff allowed to see messages (API.md "Messages") and /communications (issue
 * 15): templates (written by administrators, like every organisation-wide text), single and bulk
 * sends, segments and retries (staff allowed to send messages).
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
  route(app, comms.createTemplate, { access: 'admin.settings', tags }, (request) =>
    withTransaction(ctx, (tx) => createTemplate(tx, actorOf(request), request.body)),
  );
  route(app, comms.deleteTemplate, { access: 'admin.settings', tags }, async (request) => {
    await withTransaction(ctx, (tx) => deleteTemplate(tx, actorOf(request), request.query));
    return { ok: true as const };
  });
  route(app, comms.templateVersions, { access: 'messages.read', tags }, async (request) => ({
    items: await templateVersions(ctx.db, request.query),
  }));
  route(app, comms.restoreTemplate, { access: 'admin.settings', tags }, (request) =>
    withTransaction(ctx, (tx) => restoreTemplate(tx, actorOf(request), request.body)),
  );
  route(app, comms.previewTemplate, { access: 'messages.read', tags }, (request) =>
    previewTemplate(ctx, ctx.db, request.body),
  );

  route(app, comms.send, { access: 'messages.send', tags }, (request) =>
    withTransaction(ctx, async (tx) => ({ message: await sendSingle(tx, actorOf(request), request.body) })),
  );
  route(app, comms.retry, { access: 'messages.send', tags }, (request) =>
    withTransaction(ctx, async (tx) => ({
      message: await retryMessage(tx, actorOf(request), request.params.id),
    })),
  );

  route(app, comms.segments, { access: 'messages.read', tags }, async () => ({
    items: await listSegments(ctx, ctx.db),
  }));
  route(app, comms.createSegment, { access: 'messages.send', tags }, (request) =>
    withTransaction(ctx, (tx) => createSegment(tx, actorOf(request), request.body)),
  );
  route(app, comms.updateSegment, { access: 'messages.send', tags }, (request) =>
    withTransaction(ctx, (tx) => updateSegment(tx, actorOf(request), request.params.id, request.body)),
  );
  route(app, comms.deleteSegment, { access: 'messages.send', tags }, async (request) => {
    await withTransaction(ctx, (tx) => deleteSegment(tx, actorOf(request), request.params.id));
    return { ok: true as const };
  });
  route(app, comms.countSegment, { access: 'messages.read', tags }, async (request) => ({
    customers: await countSegment(ctx.db, request.body.filter, await arrearsDay(ctx, ctx.db)),
  }));

  route(app, comms.bulkSends, { access: 'messages.read', tags }, async () => ({
    items: await listBulkSends(ctx.db),
  }));
  route(app, comms.previewBulkSend, { access: 'messages.send', tags }, (request) =>
    previewBulkSend(ctx, ctx.db, request.body),
  );
  route(app, comms.createBulkSend, { access: 'messages.send', tags }, (request) =>
    withTransaction(ctx, (tx) => createBulkSend(tx, actorOf(request), request.body)),
  );
  route(app, comms.cancelBulkSend, { access: 'messages.send', tags }, (request) =>
    withTransaction(ctx, (tx) => cancelBulkSend(tx, actorOf(request), request.params.id)),
  );
}
