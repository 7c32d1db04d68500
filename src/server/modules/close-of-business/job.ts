import { z } from 'zod';
import type { Organisation } from '../../../contracts/profile';
import { addDays } from '../../../domain';
import { SYSTEM_ACTOR } from '../../audit';
import { businessToday } from '../../business-date';
import type { AppContext } from '../../context';
import { localTime } from '../../dates';
import { defineJob } from '../../jobs/definition';
import { organisation } from '../../organisation';
import { closeBusinessDate } from './run';

/**
 * The date the daily close is due to have closed now: today once the organisation's close of
 * business time has passed in its time zone, yesterday before it.
 */
export function closeDue(ctx: AppContext, org: Organisation): string {
  const today = businessToday(ctx, org);
  return localTime(ctx.clock.now(), org.timeZone) >= org.closeOfBusinessTime ? today : addDays(today, -1);
}

/**
 * The daily close of business (PRODUCT.md §4), kept current by its key: the date due to be closed
 * and the business date. It runs at the organisation's close time (the due date moves), and at
 * each new business date or date move, where the close has nothing to do but bring the stored
 * arrears figures to the new day (what `contracts.refresh-arrears` did on a new day). One run at
 * a time across instances (its singleton key), and the close's own lock besides.
 */
export const closeOfBusinessJob = defineJob({
  name: 'eod.close',
  description: 'Close of business: every business date not yet closed, up to the one due',
  payload: z.object({}),
  schedule: {
    whenChanged: async (ctx) => {
      const org = await organisation(ctx, ctx.db);
      return `${closeDue(ctx, org)}|${businessToday(ctx, org)}`;
    },
  },
  retry: { limit: 5, delaySeconds: 60, backoff: true },
  expireInSeconds: 60 * 60,
  singletonKey: 'all',
  run: async (ctx) => {
    const org = await organisation(ctx, ctx.db);
    const result = await closeBusinessDate(ctx, closeDue(ctx, org), {
      trigger: 'schedule',
      actor: SYSTEM_ACTOR,
    });
    const failed = result.runs.find((run) => run.status === 'failed');
    // A failed date is a failed run: the queue retries it, and /admin/jobs shows it.
    if (failed) throw new Error(`Close of business of ${failed.businessDate} failed: ${failed.error}`);
    return { dates: result.runs.length };
  },
});
