import { conversationEndpoints as endpoints } from '../../../contracts/conversations';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { listRoute } from '../../list-route';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { conversationList, getThread, handBack, linkThread, staffReply, takeOver } from './threads';
import { runWhatsappTest } from './whatsapp-test';

/** /ai-customer-service's threads and staff actions, and /whatsapp-test (issue 15 §5–§6). */
export async function conversationRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['conversations'];
  const read = { access: 'messages.read', tags } as const;
  const send = { access: 'messages.send', tags } as const;

  listRoute(app, conversationList, read);
  route(app, endpoints.get, read, (request) => getThread(ctx.db, request.params.id));
  // The reply is queued through the outbox, whose commit wakes the sender (messages/wake.ts).
  route(app, endpoints.reply, send, (request) =>
    withTransaction(ctx, (tx) => staffReply(tx, actorOf(request), request.params.id, request.body.text)),
  );
  route(app, endpoints.takeOver, send, (request) =>
    withTransaction(ctx, (tx) => takeOver(tx, actorOf(request), request.params.id)),
  );
  route(app, endpoints.handBack, send, (request) =>
    withTransaction(ctx, (tx) => handBack(tx, actorOf(request), request.params.id)),
  );
  route(app, endpoints.link, send, (request) =>
    withTransaction(ctx, (tx) =>
      linkThread(tx, actorOf(request), request.params.id, request.body.customerId),
    ),
  );
  route(app, endpoints.whatsappTest, send, (request) => runWhatsappTest(app, request.body));
}
