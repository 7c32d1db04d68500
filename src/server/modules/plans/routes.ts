import { planEndpoints } from '../../../contracts/plans';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { listRoute } from '../../list-route';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { planList } from './list';
import { activatePlan, createPlan, getPlan, retirePlan, updatePlan } from './service';

/** /service-plans: financing products, versioned so that contracts keep the terms they were made with. */
export async function planRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const read = { access: 'business.read', tags: ['service plans'] } as const;
  const write = { access: 'plans.write', tags: ['service plans'] } as const;

  listRoute(app, planList, read);

  route(app, planEndpoints.get, read, (request) => getPlan(ctx, request.params.id));

  route(app, planEndpoints.create, write, (request) =>
    withTransaction(ctx, (tx) => createPlan(tx, actorOf(request), request.body)),
  );

  route(app, planEndpoints.update, write, (request) =>
    withTransaction(ctx, (tx) => updatePlan(tx, actorOf(request), request.params.id, request.body)),
  );

  route(app, planEndpoints.activate, write, (request) =>
    withTransaction(ctx, (tx) => activatePlan(tx, actorOf(request), request.params.id)),
  );

  route(app, planEndpoints.retire, write, (request) =>
    withTransaction(ctx, (tx) => retirePlan(tx, actorOf(request), request.params.id)),
  );
}
