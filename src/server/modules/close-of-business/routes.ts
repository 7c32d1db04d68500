import { eodEndpoints } from '../../../contracts/close-of-business';
import { dashboardEndpoints } from '../../../contracts/dashboard';
import type { AppInstance } from '../../app';
import { actorOf, writeAudit } from '../../audit';
import { businessDateState } from '../../business-date';
import { organisation } from '../../organisation';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { dashboardKpis } from './kpis';
import { recentRuns } from './read';
import { closeBusinessDate } from './run';

/**
 * /api/eod (API.md "Batch and assistant"): close of business on demand, and its runs. A failed
 * date is resumed by running it again: its completed steps are skipped. /api/dashboard/kpis: the
 * dashboard's figures from the portfolio snapshots.
 */
export async function closeOfBusinessRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const access = { access: 'eod.run', tags: ['close-of-business'] } as const;

  route(app, eodEndpoints.run, access, async (request) => {
    const actor = actorOf(request);
    const result = await closeBusinessDate(ctx, request.body.businessDate, { trigger: 'demand', actor });
    await withTransaction(ctx, (tx) =>
      writeAudit(tx.tx, actor, {
        action: 'eod.run',
        entityType: 'eod_run',
        entityId: request.body.businessDate,
        after: { dates: result.runs.map((run) => ({ businessDate: run.businessDate, status: run.status })) },
      }),
    );
    return result;
  });

  route(app, eodEndpoints.runs, access, async (request) => {
    const state = await businessDateState(ctx, ctx.db);
    return {
      businessDate: state.businessDate,
      currency: (await organisation(ctx, ctx.db)).currency,
      lastClosedDate: state.lastClosedDate,
      ...(await recentRuns(ctx.db, request.query)),
    };
  });

  // The dashboard's KPI cards read the snapshots this area writes; every staff member sees them.
  route(app, dashboardEndpoints.kpis, { access: 'business.read', tags: ['dashboard'] }, () =>
    dashboardKpis(ctx),
  );
}
