import { z } from 'zod';
import {
  activationSchema,
  contractCreateBody,
  contractPreviewBody,
  contractPreviewSchema,
  contractSchema,
  depositBody,
  reasonBody,
} from '../../../contracts/contracts';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { businessDate } from '../../dates';
import { listRoute } from '../../list-route';
import { organisation } from '../../organisation';
import { withTransaction } from '../../transaction';
import { issueTokenInTransaction } from '../devices/tokens';
import { contractDetail, presentContract } from './detail';
import { keyFactsPdf } from './key-facts';
import { contractList } from './list';
import { quoteContract } from './quote';
import {
  activate,
  approve,
  cancel,
  createDraft,
  recordDeposit,
  returnToDraft,
  submitForApproval,
} from './service';

const idParams = z.object({ id: z.uuid('Not a valid contract id') });
const idempotencyHeaders = z.object({ 'idempotency-key': z.string().min(8).max(200).optional() });

/** /contracts: from the wizard's draft to an active contract (API.md "Contracts and payments"). */
export async function contractRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['contracts'];

  listRoute(app, contractList, { access: 'business.read', tags });

  app.post(
    '/api/contracts/preview',
    {
      config: { access: 'contracts.draft' },
      schema: { tags, body: contractPreviewBody, response: { 200: contractPreviewSchema } },
    },
    async (request) => {
      const quote = await quoteContract(ctx, request.body, ctx.db);
      const { schedule, plan } = quote;
      let balance = quote.principal;
      return {
        currency: quote.currency,
        cashPrice: quote.cashPrice,
        deposit: quote.deposit,
        principal: quote.principal,
        minimumDeposit: quote.minimumDeposit,
        apr: Number(plan.apr),
        frequency: plan.frequency,
        term: request.body.term,
        interestMethod: plan.interestMethod,
        installmentMultiple: plan.installmentMultiple,
        serviceFee: plan.serviceFee,
        installment: schedule.totals.installment,
        regularPayment: schedule.totals.regularPayment,
        totalInterest: schedule.totals.totalInterest,
        totalServiceFees: schedule.totals.totalServiceFees,
        totalPayable: schedule.totals.totalPayable,
        startDate: quote.startDate,
        firstDueDate: schedule.rows[0]?.dueDate ?? quote.startDate,
        lastDueDate: schedule.rows.at(-1)?.dueDate ?? quote.startDate,
        schedule: schedule.rows.map((row) => {
          balance -= row.principal;
          return { ...row, penalty: 0, paid: 0, balance, status: 'upcoming' as const };
        }),
      };
    },
  );

  app.post(
    '/api/contracts',
    {
      config: { access: 'contracts.draft' },
      schema: { tags, body: contractCreateBody, response: { 201: contractSchema } },
    },
    async (request, reply) => {
      const parts = await withTransaction(ctx, (tx) => createDraft(tx, actorOf(request), request.body));
      return reply.status(201).send(presentContract(ctx, await organisation(ctx, ctx.db), parts));
    },
  );

  app.get(
    '/api/contracts/:id',
    {
      config: { access: 'business.read' },
      schema: { tags, params: idParams, response: { 200: contractSchema } },
    },
    (request) => contractDetail(ctx, request.params.id),
  );

  app.post(
    '/api/contracts/:id/submit',
    {
      config: { access: 'contracts.draft' },
      schema: { tags, params: idParams, response: { 200: contractSchema } },
    },
    async (request) => {
      await withTransaction(ctx, (tx) => submitForApproval(tx, actorOf(request), request.params.id));
      return contractDetail(ctx, request.params.id);
    },
  );

  app.post(
    '/api/contracts/:id/approve',
    {
      config: { access: 'contracts.approve' },
      schema: { tags, params: idParams, response: { 200: contractSchema } },
    },
    async (request) => {
      await withTransaction(ctx, (tx) => approve(tx, actorOf(request), request.params.id));
      return contractDetail(ctx, request.params.id);
    },
  );

  app.post(
    '/api/contracts/:id/return',
    {
      config: { access: 'contracts.approve' },
      schema: { tags, params: idParams, body: reasonBody, response: { 200: contractSchema } },
    },
    async (request) => {
      await withTransaction(ctx, (tx) =>
        returnToDraft(tx, actorOf(request), request.params.id, request.body.reason),
      );
      return contractDetail(ctx, request.params.id);
    },
  );

  app.post(
    '/api/contracts/:id/deposit',
    {
      config: { access: 'payments.cash' },
      schema: {
        tags,
        params: idParams,
        headers: idempotencyHeaders,
        body: depositBody,
        response: { 200: contractSchema, 201: contractSchema },
      },
    },
    async (request, reply) => {
      const { created } = await withTransaction(ctx, (tx) =>
        recordDeposit(tx, actorOf(request), request.params.id, {
          ...request.body,
          idempotencyKey: request.headers['idempotency-key'],
        }),
      );
      return reply.status(created ? 201 : 200).send(await contractDetail(ctx, request.params.id));
    },
  );

  app.post(
    '/api/contracts/:id/activate',
    {
      config: { access: 'contracts.draft' },
      schema: { tags, params: idParams, response: { 200: activationSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      let token: { token: string; days: number } | null = null;
      await withTransaction(ctx, (tx) =>
        activate(tx, actor, request.params.id, async (tx, deviceId, days, contractId) => {
          const issued = await issueTokenInTransaction(
            tx,
            deviceId,
            { type: 'ADD_TIME', days },
            actor.id,
            contractId,
          );
          token = { token: issued.token, days };
        }),
      );
      return { contract: await contractDetail(ctx, request.params.id), token };
    },
  );

  app.post(
    '/api/contracts/:id/cancel',
    {
      config: { access: 'contracts.draft' },
      schema: { tags, params: idParams, body: reasonBody, response: { 200: contractSchema } },
    },
    async (request) => {
      await withTransaction(ctx, (tx) =>
        cancel(tx, actorOf(request), request.params.id, request.body.reason),
      );
      return contractDetail(ctx, request.params.id);
    },
  );

  app.get(
    '/api/contracts/:id/key-facts.pdf',
    { config: { access: 'business.read' }, schema: { tags, params: idParams } },
    async (request, reply) => {
      const contract = await contractDetail(ctx, request.params.id);
      const org = await organisation(ctx, ctx.db);
      const pdf = await keyFactsPdf(contract, org.name, businessDate(ctx.clock.now(), org.timeZone));
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="key-facts-${contract.number}.pdf"`)
        .send(Buffer.from(pdf));
    },
  );
}
