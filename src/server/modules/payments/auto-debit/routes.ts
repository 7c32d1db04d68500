import { autoDebitEndpoints } from '../../../../contracts/auto-debit';
import type { AppInstance } from '../../../app';
import { actorOf } from '../../../audit';
import { listRoute } from '../../../list-route';
import { route } from '../../../route';
import { withTransaction } from '../../../transaction';
import { attemptList, mandateList } from './list';
import { mandateById } from './read';
import { autoDebitSummary, contractMandates, createMandate, setMandateActive } from './service';

/** Auto-debit mandates and the monitor (/admin/auto-debit): finance staff (PRODUCT.md section 1). */
export async function autoDebitRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['auto-debit'];
  const read = { access: 'finance.read', tags } as const;
  const manage = { access: 'payments.manage', tags } as const;

  route(app, autoDebitEndpoints.contractMandates, read, (request) =>
    contractMandates(ctx.db, request.params.id),
  );

  route(app, autoDebitEndpoints.createMandate, manage, async (request) => {
    const id = await withTransaction(ctx, (tx) =>
      createMandate(tx, actorOf(request), request.params.id, request.body),
    );
    return mandateById(ctx.db, id);
  });

  route(app, autoDebitEndpoints.pauseMandate, manage, async (request) => {
    await withTransaction(ctx, (tx) =>
      setMandateActive(tx, actorOf(request), request.params.id, {
        active: false,
        reason: request.body.reason,
      }),
    );
    return mandateById(ctx.db, request.params.id);
  });

  route(app, autoDebitEndpoints.resumeMandate, manage, async (request) => {
    await withTransaction(ctx, (tx) =>
      setMandateActive(tx, actorOf(request), request.params.id, { active: true }),
    );
    return mandateById(ctx.db, request.params.id);
  });

  listRoute(app, mandateList, read);
  listRoute(app, attemptList, read);

  route(app, autoDebitEndpoints.summary, read, () => autoDebitSummary(ctx));
}
