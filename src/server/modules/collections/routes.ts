import { collectionEndpoints } from '../../../contracts/collections';
import type { AppInstance } from '../../app';
import { actorOf, writeAudit } from '../../audit';
import { businessToday } from '../../business-date';
import { badRequest } from '../../errors';
import { type ListDefinition, listCsv, listPageJson } from '../../list-definition';
import { sendCsv, sendJsonBytes } from '../../lists';
import { organisation } from '../../organisation';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { logAction } from './actions';
import { assignCases, autoAssign } from './assign';
import { listCollectors, saveCollector } from './collectors';
import { promiseList, queueList } from './list';
import { actionById, contractCase, performance, queueOptions } from './read';
import { refreshCases } from './refresh';

/** /api/collections (PRODUCT.md §2 "Collections"): collectors work cases, managers assign and measure. */
export async function collectionRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['collections'];
  const work = { access: 'collections.work', tags } as const;
  const manage = { access: 'collections.manage', tags } as const;

  // A list whose `mine=true` means "assigned to whoever asks": the filter is the caller's id.
  const mineList = <D extends ListDefinition<never, unknown>>(definition: D) =>
    route(app, definition.endpoint, work, async (request, reply) => {
      const query = { ...(request.query as Record<string, unknown>) };
      if (query.mine === 'true') query.collectorId = request.session?.user.id;
      delete query.mine;
      const viewer = request.session?.user;
      const typed = query as never;
      if (query.format === 'csv')
        return sendCsv(reply, definition.csv.filename, await listCsv(ctx, definition, typed, viewer));
      return sendJsonBytes(reply, await listPageJson(ctx, definition, typed, viewer));
    });
  mineList(queueList as never);
  mineList(promiseList as never);

  route(app, collectionEndpoints.options, work, () => queueOptions(ctx));

  route(app, collectionEndpoints.contractCase, { access: 'business.read', tags }, (request) =>
    contractCase(ctx, request.params.id),
  );

  route(app, collectionEndpoints.logAction, work, async (request, reply) => {
    const id = await withTransaction(ctx, (tx) =>
      logAction(tx, actorOf(request), request.params.id, request.body),
    );
    reply.status(201);
    return actionById(ctx.db, id);
  });

  route(app, collectionEndpoints.assign, manage, (request) =>
    withTransaction(ctx, (tx) =>
      assignCases(tx, actorOf(request), request.body.contractIds, request.body.collectorId),
    ),
  );

  route(app, collectionEndpoints.autoAssign, manage, (request) =>
    withTransaction(ctx, (tx) => autoAssign(tx, actorOf(request), request.body.region)),
  );

  route(app, collectionEndpoints.collectors, manage, async () => ({
    collectors: await listCollectors(ctx.db),
  }));

  route(app, collectionEndpoints.saveCollector, manage, (request) =>
    withTransaction(ctx, (tx) => saveCollector(tx, actorOf(request), request.params.id, request.body)),
  );

  route(app, collectionEndpoints.performance, manage, (request) => {
    const { from, to } = request.query;
    if (from > to)
      throw badRequest('from must not be after to', [
        { field: 'from', message: 'from must not be after to' },
      ]);
    return performance(ctx, from, to);
  });

  // Scores the queue for the business date now (the close of business does it every night).
  route(app, collectionEndpoints.refresh, manage, async (request) => {
    const org = await organisation(ctx, ctx.db);
    const businessDate = businessToday(ctx, org);
    return withTransaction(ctx, async (tx) => {
      const result = await refreshCases(tx, businessDate);
      await writeAudit(tx.tx, actorOf(request), {
        action: 'collections.refresh',
        entityType: 'collection_case',
        entityId: null,
        after: { businessDate, ...result },
      });
      return result;
    });
  });
}
