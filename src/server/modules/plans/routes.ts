import { z } from 'zod';
import {
  type Plan,
  planCreateBody,
  planDetailSchema,
  planListQuery,
  planPageSchema,
  planSchema,
  planUpdateBody,
} from '../../../contracts/plans';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { CSV_EXPORT_LIMIT, sendCsv, toCsv } from '../../lists';
import { activatePlan, createPlan, getPlan, listPlans, retirePlan, updatePlan } from './service';

const idParams = z.object({ id: z.uuid('Not a valid plan id') });

const CSV_COLUMNS = [
  { header: 'Code', value: (p: Plan) => p.code },
  { header: 'Version', value: (p: Plan) => p.version },
  { header: 'Name', value: (p: Plan) => p.name },
  { header: 'Status', value: (p: Plan) => p.status },
  { header: 'Frequency', value: (p: Plan) => p.frequency },
  { header: 'Terms', value: (p: Plan) => p.allowedTerms.join(' ') },
  { header: 'APR %', value: (p: Plan) => p.apr },
  { header: 'Method', value: (p: Plan) => p.interestMethod },
  { header: 'Min deposit %', value: (p: Plan) => p.minDepositPercent },
  { header: 'Service fee (minor units)', value: (p: Plan) => p.serviceFee },
  { header: 'Contracts', value: (p: Plan) => p.contracts },
];

/** /service-plans: financing products, versioned so that contracts keep the terms they were made with. */
export async function planRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['service plans'];

  app.get(
    '/api/service-plans',
    {
      config: { access: 'business.read' },
      schema: { tags, querystring: planListQuery, response: { 200: planPageSchema } },
    },
    async (request, reply) => {
      if (request.query.format === 'csv') {
        const page = await listPlans(ctx, request.query, CSV_EXPORT_LIMIT);
        return sendCsv(reply, 'service-plans.csv', toCsv(page.items, CSV_COLUMNS));
      }
      return listPlans(ctx, request.query);
    },
  );

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
    async (request, reply) => reply.status(201).send(await createPlan(ctx, actorOf(request), request.body)),
  );

  app.patch(
    '/api/service-plans/:id',
    {
      config: { access: 'plans.write' },
      schema: { tags, params: idParams, body: planUpdateBody, response: { 200: planSchema } },
    },
    (request) => updatePlan(ctx, actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/service-plans/:id/activate',
    { config: { access: 'plans.write' }, schema: { tags, params: idParams, response: { 200: planSchema } } },
    (request) => activatePlan(ctx, actorOf(request), request.params.id),
  );

  app.post(
    '/api/service-plans/:id/retire',
    { config: { access: 'plans.write' }, schema: { tags, params: idParams, response: { 200: planSchema } } },
    (request) => retirePlan(ctx, actorOf(request), request.params.id),
  );
}
