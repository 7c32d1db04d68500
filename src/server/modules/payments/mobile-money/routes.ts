import { mobileMoneyEndpoints } from '../../../../contracts/payments';
import type { AppInstance } from '../../../app';
import { actorOf } from '../../../audit';
import { organisation } from '../../../organisation';
import { route } from '../../../route';
import { withTransaction } from '../../../transaction';
import { paymentResult } from '../read';
import { matchSuspense, refundSuspense } from '../suspense';
import { pushView } from './push';
import { registerPushStarter, retryingDeadlocks } from './push-starter';
import { ACCEPTED, mpesaActor, readC2b, receiveMobileMoney, validateC2b } from './receive';
import { checkCallbackCaller } from './webhook-auth';

/**
 * M-Pesa (Daraja style, PRODUCT.md section 7; API.md "Contracts and payments"): the C2B
 * confirmation and validation callbacks and the STK push result (public, CSRF-exempt, token or
 * allow-list checked, rate limited), the suspense queue's match and refund, and STK push.
 */
export async function mobileMoneyRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const webhook = {
    access: 'public',
    csrf: false,
    tags: ['webhooks'],
    rateLimit: { max: ctx.config.MPESA_WEBHOOK_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' },
  } as const;
  const tags = ['payments'];

  const pushes = registerPushStarter(app);

  route(app, mobileMoneyEndpoints.c2bConfirmation, webhook, async (request) => {
    checkCallbackCaller(ctx.config, request, request.query.token);
    const org = await organisation(ctx, ctx.db);
    const payment = readC2b(request.body, org, ctx.clock);
    const received = await retryingDeadlocks(() =>
      withTransaction(ctx, (tx) =>
        receiveMobileMoney(tx, mpesaActor(request), {
          ...payment,
          reference: payment.transId,
          payload: request.body,
        }),
      ),
    );
    request.log.info(
      { transId: payment.transId, outcome: received.outcome, paymentId: received.paymentId },
      'M-Pesa C2B confirmation',
    );
    return ACCEPTED;
  });

  route(app, mobileMoneyEndpoints.c2bValidation, webhook, async (request) => {
    checkCallbackCaller(ctx.config, request, request.query.token);
    const org = await organisation(ctx, ctx.db);
    return validateC2b(ctx, org, request.body);
  });

  route(app, mobileMoneyEndpoints.stkCallback, webhook, async (request) => {
    checkCallbackCaller(ctx.config, request, request.query.token);
    const result = await pushes.result(request, request.body);
    if (result === 'unknown') {
      request.log.warn(
        { checkoutRequestId: request.body.Body.stkCallback.CheckoutRequestID },
        'M-Pesa STK callback for an unknown push: nothing recorded',
      );
    }
    return ACCEPTED;
  });

  const manage = { access: 'payments.manage', tags } as const;

  route(app, mobileMoneyEndpoints.match, manage, (request) =>
    withTransaction(ctx, async (tx) => {
      await matchSuspense(tx, actorOf(request), request.params.id, request.body);
      return paymentResult(tx.tx, request.params.id);
    }),
  );

  route(app, mobileMoneyEndpoints.refund, manage, (request) =>
    withTransaction(ctx, async (tx) => {
      await refundSuspense(tx, actorOf(request), request.params.id, request.body.reason);
      return paymentResult(tx.tx, request.params.id);
    }),
  );

  // Any staff who take payments may ask for one: the money only counts once M-Pesa confirms it.
  route(app, mobileMoneyEndpoints.push, { access: 'payments.cash', tags }, async (request) =>
    pushView(ctx.db, await pushes.start(request, actorOf(request), request.body)),
  );

  route(app, mobileMoneyEndpoints.pushStatus, { access: 'business.read', tags }, (request) =>
    pushView(ctx.db, request.params.id),
  );
}
