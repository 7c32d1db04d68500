import { calculatorEndpoints } from '../../../contracts/calculator';
import { buildSchedule } from '../../../domain';
import type { AppInstance } from '../../app';
import { businessToday } from '../../business-date';
import { organisation } from '../../organisation';
import { route } from '../../route';

/** API.md: the public financing calculator, computed by the finance engine. */
export async function calculatorRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;

  route(
    app,
    calculatorEndpoints.quote,
    {
      access: 'public',
      tags: ['calculator'],
      rateLimit: { max: ctx.config.CALCULATOR_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' },
    },
    async (request) => {
      const query = request.query;
      const org = await organisation(ctx, ctx.db);
      const schedule = buildSchedule({
        principal: query.price - query.deposit,
        apr: query.apr,
        frequency: query.frequency,
        term: query.term,
        method: query.interestMethod,
        startDate: query.startDate ?? businessToday(ctx, org),
        installmentMultiple: query.installmentMultiple,
        serviceFeePerPeriod: query.serviceFee,
      });
      return {
        currency: org.currency,
        principal: schedule.totals.totalPrincipal,
        installment: schedule.totals.installment,
        totalInterest: schedule.totals.totalInterest,
        totalServiceFees: schedule.totals.totalServiceFees,
        totalPayable: schedule.totals.totalPayable,
        schedule: schedule.rows,
      };
    },
  );
}
