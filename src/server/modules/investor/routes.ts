import { investorEndpoints as endpoints } from '../../../contracts/investor';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { endGuestSession, investorSessionOf, startGuestSession } from '../../guest-sessions';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { issueInvestorCode, listInvestorCodes, revokeInvestorCode, useInvestorCode } from './codes';
import { cashFlows, investorSummary, parTrend, vintageCurves } from './figures';
import { type InvestorReport, investorReport, investorReportPdf, investorReportXlsx } from './report';

/**
 * Guessing a 120-bit code is hopeless; the limit keeps a script from trying (per address), as
 * coarse as staff sign-in's.
 */
export const INVESTOR_LOGIN_RATE_LIMIT = { max: 60, timeWindow: '1 minute' };

/** Investor codes (issue 16 §2) and the investor portal (§3): aggregates only, under an investor session. */
export async function investorRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const staff = { access: 'admin.users', tags: ['investor codes'] } as const;
  const investor = { access: 'investor', tags: ['investor portal'] } as const;

  route(app, endpoints.codes, staff, async () => ({
    items: await listInvestorCodes(ctx.db, ctx.clock.now()),
  }));
  route(app, endpoints.issue, staff, (request) =>
    withTransaction(ctx, (tx) => issueInvestorCode(tx, actorOf(request), request.body)),
  );
  route(app, endpoints.revoke, staff, (request) =>
    withTransaction(ctx, (tx) => revokeInvestorCode(tx, actorOf(request), request.params.id)),
  );

  route(
    app,
    endpoints.login,
    { access: 'public', csrf: false, rateLimit: INVESTOR_LOGIN_RATE_LIMIT, tags: ['investor portal'] },
    (request, reply) =>
      withTransaction(ctx, async (tx) => {
        const code = await useInvestorCode(tx, actorOf(request), request.body.code);
        await startGuestSession(ctx, tx.tx, request, reply, { kind: 'investor', investorCodeId: code.id });
        return { label: code.label, scope: code.scope };
      }),
  );
  // Public: signing out works whatever state the session is in (ended, or its code revoked).
  route(app, endpoints.logout, { access: 'public', tags: ['investor portal'] }, async (request, reply) => {
    await endGuestSession(ctx, request, reply, 'investor');
    return { ok: true as const };
  });
  route(app, endpoints.me, investor, (request) => {
    const { label, scope } = investorSessionOf(request);
    return { label, scope };
  });

  route(app, endpoints.summary, investor, (request) =>
    investorSummary(ctx, investorSessionOf(request).scope),
  );
  route(app, endpoints.cashFlows, investor, (request) => cashFlows(ctx, investorSessionOf(request).scope));
  route(app, endpoints.vintages, investor, (request) => vintageCurves(ctx, investorSessionOf(request).scope));
  route(app, endpoints.parTrend, investor, (request) => parTrend(ctx, investorSessionOf(request).scope));

  // The report as a PDF or a workbook: the same figures, the file named alike.
  const reports = [
    {
      endpoint: endpoints.reportPdf,
      extension: 'pdf',
      type: 'application/pdf',
      render: async (report: InvestorReport) => Buffer.from(await investorReportPdf(report)),
    },
    {
      endpoint: endpoints.reportXlsx,
      extension: 'xlsx',
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      render: investorReportXlsx,
    },
  ];
  for (const { endpoint, extension, type, render } of reports)
    route(app, endpoint, investor, async (request, reply) => {
      const { from, to } = request.query;
      const report = await investorReport(ctx, investorSessionOf(request), from, to);
      return reply
        .type(type)
        .header('content-disposition', `attachment; filename="investor-report-${from}-${to}.${extension}"`)
        .send(await render(report));
    });
}
