import { z } from 'zod';
import { planCreateBody, planDetailSchema, planSchema, planUpdateBody } from '../../../contracts/plans';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { listRoute } from '../../list-route';
import { withTransaction } from '../../transaction';
import { planList } from './list';
import { activatePlan, createPlan, getPlan, retirePlan, updatePlan } from './service';

const idParams = z.object({ id: z.uuid('Not a valid plan id') });

/** /service-plans: financing products, versioned so that contracts keep the terms they were made with. */
export async function planRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['service plans'];

  listRoute(app, '/api/service-plans', planList, { access: 'business.read', tags });

  app.get(
    '/api/service-plans/:id',
    {
      config: { access: 'business.read' },
      schema: { tags, params: idParams, response: { 200: planDetailSchema } },
    },
    (request) => getPlan(ctx, request.params.id),
  );

  app.post(
    '/api/service-plans',
    {
      config: { access: 'plans.write' },
      schema: { tags, body: planCreateBody, response: { 201: planSchema } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await withTransaction(ctx, (tx) => createPlan(tx, actorOf(request), request.body))),
  );

  app.patch(
    '/api/service-plans/:id',
    {
      config: { access: 'plans.write' },
      schema: { tags, params: idParams, body: planUpdateBody, response: { 200: planSchema } },
    },
    (request) =>
      withTransaction(ctx, (tx) => updatePlan(tx, actorOf(request), request.params.id, request.body)),
  );

  app.post(
    '/api/service-plans/:id/activate',
    { config: { access: 'plans.write' }, schema: { tags, params: idParams, response: { 200: planSchema } } },
    (request) => withTransaction(ctx, (tx) => activatePlan(tx, actorOf(request), request.params.id)),
  );

  app.post(
    '/api/service-plans/:id/retire',
    { config: { access: 'plans.write' }, schema: { tags, params: idParams, response: { 200: planSchema } } },
    (request) => withTransaction(ctx, (tx) => retirePlan(tx, actorOf(request), request.params.id)),
  );
}
