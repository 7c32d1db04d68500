import { portalEndpoints as endpoints } from '../../../contracts/portal';
import type { AppInstance } from '../../app';
import { tooManyRequests, unauthorized } from '../../errors';
import { endGuestSession, portalCustomerId, startGuestSession } from '../../guest-sessions';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { readCustomerText } from '../customer-service/answer';
import { getCustomer } from '../customers/service';
import { pushView } from '../payments/mobile-money/push';
import { receiptPdf } from '../payments/receipts';
import { statementPdf } from '../payments/statement';
import { customerActor, portalMe, setPreferences } from './account';
import { portalChat, portalChatLines } from './chat';
import {
  assertOwnContract,
  assertOwnPayment,
  portalContract,
  portalContracts,
  portalPush,
  toPortalPush,
} from './contracts';
import { checkOtp, requestOtp } from './otp';
import { resendToken } from './token';

/**
 * Customer portal (issue 16 §1; API.md "Customer portal"): sign-in by phone and one-time code,
 * then the customer's own contracts, receipts, statements, pay now, unlock codes, chat and
 * preferences. Every route past sign-in has access 'customer' (a staff session gets 401) and
 * reads by `portalCustomerId(request)` only.
 */
export async function portalRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['portal'];
  const signIn = { access: 'public', csrf: false, tags } as const;
  const customer = { access: 'customer', tags } as const;

  route(app, endpoints.otp, signIn, async (request) => {
    await withTransaction(ctx, (tx) => requestOtp(tx, { phone: request.body.phone, ip: request.ip ?? null }));
    return { ok: true as const };
  });

  route(app, endpoints.login, signIn, async (request, reply) => {
    const outcome = await withTransaction(ctx, async (tx) => {
      const check = await checkOtp(tx, request.body);
      if (check.ok)
        await startGuestSession(ctx, tx.tx, request, reply, {
          kind: 'customer',
          customerId: check.customerId,
        });
      return check;
    });
    // Refused after the commit, so the wrong try stays counted.
    if (!outcome.ok) {
      if (outcome.reason === 'void')
        throw tooManyRequests('Too many wrong codes: this code no longer works. Ask for a new code.', 60);
      throw unauthorized('That code is wrong or has expired. Check the SMS, or ask for a new code.');
    }
    const found = await getCustomer(ctx, outcome.customerId, null);
    return { customer: { id: found.id, firstName: found.firstName, lastName: found.lastName } };
  });

  // Public: signing out works even when the session has already ended.
  route(app, endpoints.logout, { access: 'public', tags }, async (request, reply) => {
    await endGuestSession(ctx, request, reply, 'customer');
    return { ok: true as const };
  });

  route(app, endpoints.me, customer, (request) => portalMe(ctx, portalCustomerId(request)));

  route(app, endpoints.preferences, customer, async (request) => {
    const customerId = portalCustomerId(request);
    const { version } = await getCustomer(ctx, customerId, null);
    return withTransaction(ctx, (tx) =>
      setPreferences(tx, customerActor(request), customerId, version, request.body),
    );
  });

  route(app, endpoints.contracts, customer, async (request) => ({
    items: await portalContracts(ctx, portalCustomerId(request)),
  }));

  route(app, endpoints.contract, customer, (request) =>
    portalContract(ctx, portalCustomerId(request), request.params.id),
  );

  route(app, endpoints.statementPdf, customer, async (request, reply) => {
    await assertOwnContract(ctx.db, portalCustomerId(request), request.params.id);
    const { pdf, number } = await statementPdf(ctx, request.params.id, null);
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="statement-${number}.pdf"`)
      .send(Buffer.from(pdf));
  });

  route(app, endpoints.receiptPdf, customer, async (request, reply) => {
    await assertOwnPayment(ctx, portalCustomerId(request), request.params.id);
    const { pdf, receiptNumber } = await receiptPdf(ctx, request.params.id, null);
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="receipt-${receiptNumber}.pdf"`)
      .send(Buffer.from(pdf));
  });

  // Pay now goes through the app's one mobile-money provider, as staff pushes do, and only ever
  // asks the customer's own phone (createPush's default: the contract's customer).
  route(app, endpoints.pay, customer, async (request) => {
    await assertOwnContract(ctx.db, portalCustomerId(request), request.params.id);
    const id = await app.mobileMoneyPushes.start(request, customerActor(request), {
      contractId: request.params.id,
      amount: request.body.amount,
    });
    return toPortalPush(await pushView(ctx.db, id));
  });

  route(app, endpoints.push, customer, (request) =>
    portalPush(ctx, portalCustomerId(request), request.params.id),
  );

  route(app, endpoints.resendToken, customer, async (request) => {
    const customerId = portalCustomerId(request);
    const contract = await portalContract(ctx, customerId, request.params.id);
    await withTransaction(ctx, (tx) => resendToken(tx, request, customerId, contract, contract.token));
    return { ok: true as const };
  });

  route(app, endpoints.chatLines, customer, async (request) => ({
    lines: await portalChatLines(ctx, portalCustomerId(request)),
  }));

  route(app, endpoints.chat, customer, async (request) => {
    // Read before the transaction: an optional model may take seconds.
    const query = await readCustomerText(ctx, request.body.text);
    return {
      lines: await withTransaction(ctx, (tx) =>
        portalChat(tx, portalCustomerId(request), request.body.text, query),
      ),
    };
  });
}
