import { taskEndpoints as endpoints } from '../../../contracts/tasks';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { userId } from '../../plugins/session';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { completeTask, listTasks } from './service';

/** Staff tasks (issue 15 §5): the dashboard's "My tasks" card and the conversations page read them. */
export async function taskRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['tasks'];
  route(app, endpoints.list, { access: 'messages.read', tags }, (request) =>
    listTasks(ctx.db, userId(request), request.query),
  );
  route(app, endpoints.done, { access: 'messages.read', tags }, (request) =>
    withTransaction(ctx, (tx) => completeTask(tx, actorOf(request), request.params.id)),
  );
}
