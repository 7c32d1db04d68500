import { sql } from 'drizzle-orm';
import { paymentEndpoints } from '../../../contracts/payments';
import { can } from '../../../contracts/roles';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { forbidden } from '../../errors';
import { listRoute } from '../../list-route';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { PaymentBatcher } from './batch';
import {
  approveCorrection,
  countCorrections,
  paymentHistory,
  rejectCorrection,
  requestCorrection,
  selectCorrections,
} from './corrections';
import { paymentList } from './list';
import { previewPayment } from './preview';
import { paymentResult } from './read';
import { receiptPdf } from './receipts';
import { statementPdf } from './statement';

/** /api/payments (API.md "Contracts and payments") and the corrections queue. */
export async function paymentRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['payments'];
  const read = { access: 'business.read', tags } as const;
  const manage = { access: 'payments.manage', tags } as const;
  const batcher = new PaymentBatcher(ctx);

  listRoute(app, paymentList, read);

  route(app, paymentEndpoints.get, read, (request) => paymentResult(ctx.db, request.params.id));
  // The receipt's history: its reversal and transfer requests and the payments a transfer links.
  route(app, paymentEndpoints.history, read, (request) => paymentHistory(ctx.db, request.params.id));

  route(app, paymentEndpoints.create, { access: 'payments.cash', tags }, async (request, reply) => {
    // PRODUCT.md §1: an agent records cash; every other method is a finance user's.
    if (request.body.method !== 'cash' && !can(request.session?.user, 'payments.manage'))
      throw forbidden(
        'Your role records cash payments only; a finance user records mobile money, bank transfer and card',
        'ROLE_FORBIDDEN',
      );
    const input = { ...request.body, idempotencyKey: request.headers['idempotency-key'] ?? null };
    // Decision 044: posted in whichever batch takes it; anything unusual on its own.
    const posted = await batcher.post(actorOf(request), input);
    if (!posted.created) reply.status(200); // a replay of the first delivery
    // A new payment answers from what it wrote; a replay (or a back-dated payment, whose lines the
    // re-run made) is read after the commit.
    return posted.answer ?? paymentResult(ctx.db, posted.paymentId);
  });

  route(app, paymentEndpoints.preview, { access: 'payments.cash', tags }, (request) =>
    previewPayment(ctx, request.body),
  );

  const correctionOf = async (id: string) => {
    const [correction] = await selectCorrections(ctx.db, sql`r.id = ${id}`, 1);
    if (!correction) throw new Error(`Correction ${id} vanished`);
    return correction;
  };

  route(app, paymentEndpoints.reverse, manage, async (request) => {
    const id = await withTransaction(ctx, (tx) =>
      requestCorrection(tx, actorOf(request), request.params.id, {
        kind: 'reverse',
        reason: request.body.reason,
      }),
    );
    return correctionOf(id);
  });

  route(app, paymentEndpoints.transfer, manage, async (request) => {
    const id = await withTransaction(ctx, (tx) =>
      requestCorrection(tx, actorOf(request), request.params.id, {
        kind: 'transfer',
        reason: request.body.reason,
        targetContractId: request.body.contractId,
      }),
    );
    return correctionOf(id);
  });

  route(app, paymentEndpoints.corrections, read, async (request) => {
    const { status, page, pageSize } = request.query;
    const where = status ? sql`r.status = ${status}` : undefined;
    const [items, total] = await Promise.all([
      selectCorrections(ctx.db, where, pageSize, (page - 1) * pageSize),
      countCorrections(ctx.db, where),
    ]);
    return { items, total, page, pageSize };
  });

  route(app, paymentEndpoints.approveCorrection, manage, async (request) => {
    await withTransaction(ctx, (tx) =>
      approveCorrection(tx, actorOf(request), request.params.id, request.body.note),
    );
    return correctionOf(request.params.id);
  });

  route(app, paymentEndpoints.rejectCorrection, manage, async (request) => {
    await withTransaction(ctx, (tx) =>
      rejectCorrection(tx, actorOf(request), request.params.id, request.body.note),
    );
    return correctionOf(request.params.id);
  });

  route(app, paymentEndpoints.receiptPdf, read, async (request, reply) => {
    const { pdf, receiptNumber } = await receiptPdf(ctx, request.params.id, request.session?.user);
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="receipt-${receiptNumber}.pdf"`)
      .send(Buffer.from(pdf));
  });

  route(app, paymentEndpoints.statementPdf, read, async (request, reply) => {
    const { pdf, number } = await statementPdf(ctx, request.params.id, request.session?.user);
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="statement-${number}.pdf"`)
      .send(Buffer.from(pdf));
  });
}
