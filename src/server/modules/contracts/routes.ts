import { contractEndpoints } from '../../../contracts/contracts';
import { can } from '../../../contracts/roles';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { businessToday } from '../../business-date';
import { forbidden } from '../../errors';
import { listRoute } from '../../list-route';
import { organisation } from '../../organisation';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { issueTokenInTransaction } from '../devices/tokens';
import { recordDeposit } from './deposit';
import { contractDetail, presentContract } from './detail';
import { keyFactsPdf } from './key-facts';
import { contractList } from './list';
import { quoteContract } from './quote';
import { activate, approve, cancel, createDraft, returnToDraft, submitForApproval } from './service';

/** /contracts: from the wizard's draft to an active contract (API.md "Contracts and payments"). */
export async function contractRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['contracts'];
  const read = { access: 'business.read', tags } as const;
  const draft = { access: 'contracts.draft', tags } as const;
  const approval = { access: 'contracts.approve', tags } as const;

  listRoute(app, contractList, read);

  route(app, contractEndpoints.preview, draft, async (request) => {
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
  });

  route(app, contractEndpoints.create, draft, async (request) => {
    const parts = await withTransaction(ctx, (tx) => createDraft(tx, actorOf(request), request.body));
    return presentContract(ctx, await organisation(ctx, ctx.db), parts);
  });

  route(app, contractEndpoints.get, read, (request) =>
    contractDetail(ctx, request.params.id, request.session?.user),
  );

  route(app, contractEndpoints.submit, draft, async (request) => {
    await withTransaction(ctx, (tx) => submitForApproval(tx, actorOf(request), request.params.id));
    return contractDetail(ctx, request.params.id, request.session?.user);
  });

  route(app, contractEndpoints.approve, approval, async (request) => {
    await withTransaction(ctx, (tx) => approve(tx, actorOf(request), request.params.id));
    return contractDetail(ctx, request.params.id, request.session?.user);
  });

  route(app, contractEndpoints.return, approval, async (request) => {
    await withTransaction(ctx, (tx) =>
      returnToDraft(tx, actorOf(request), request.params.id, request.body.reason),
    );
    return contractDetail(ctx, request.params.id, request.session?.user);
  });

  route(app, contractEndpoints.deposit, { access: 'payments.cash', tags }, async (request, reply) => {
    // PRODUCT.md §1: an agent takes cash; every other channel is a finance user's.
    if (request.body.channel !== 'cash' && !can(request.session?.user, 'payments.manage'))
      throw forbidden(
        'Your role records cash deposits only; a finance user records mobile money, bank transfer and card',
        'ROLE_FORBIDDEN',
      );
    const { created } = await withTransaction(ctx, (tx) =>
      recordDeposit(tx, actorOf(request), request.params.id, {
        ...request.body,
        idempotencyKey: request.headers['idempotency-key'],
      }),
    );
    if (!created) reply.status(200); // a replay of the first delivery
    return contractDetail(ctx, request.params.id, request.session?.user);
  });

  // Activation hands the device over and issues its first unlock token: device control, a
  // manager's power (PRODUCT.md §1), like the approval before it.
  route(app, contractEndpoints.activate, { access: 'devices.control', tags }, async (request) => {
    const actor = actorOf(request);
    let token: { token: string; days: number } | null = null;
    await withTransaction(ctx, (tx) =>
      activate(tx, actor, request.params.id, async (tx, deviceId, days, contractId) => {
        const issued = await issueTokenInTransaction(
          tx,
          deviceId,
          { type: 'ADD_TIME', days, upToMax: true },
          actor.id,
          contractId,
        );
        token = { token: issued.token, days: issued.days ?? days };
      }),
    );
    return { contract: await contractDetail(ctx, request.params.id, request.session?.user), token };
  });

  route(app, contractEndpoints.cancel, draft, async (request) => {
    await withTransaction(ctx, (tx) => cancel(tx, actorOf(request), request.params.id, request.body.reason));
    return contractDetail(ctx, request.params.id, request.session?.user);
  });

  route(app, contractEndpoints.keyFacts, read, async (request, reply) => {
    const contract = await contractDetail(ctx, request.params.id, request.session?.user);
    const org = await organisation(ctx, ctx.db);
    const pdf = await keyFactsPdf(contract, org.name, businessToday(ctx, org));
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="key-facts-${contract.number}.pdf"`)
      .send(Buffer.from(pdf));
  });
}
