import { type BusinessDateState, MAX_BUSINESS_DATE_OFFSET } from '../contracts/business-date';
import { ERROR_CODES } from '../contracts/errors';
import type { Organisation } from '../contracts/profile';
import { addDays, daysBetween } from '../domain';
import { type Actor, writeAudit } from './audit';
import type { AppServices, Clock, Executor, TxContext } from './context';
import { businessDate } from './dates';
import { AppError, forbidden } from './errors';
import { lockOrganisation, organisation, saveBusinessDateOffset } from './organisation';

/**
 * The business date (API.md "Business date"), a platform service: every date rule (due, days past
 * due, paid-through, late fees, close of business) asks here for "today", never the clock. It is
 * the calendar date in the organisation's time zone plus the days an administrator moved it
 * forward (`business_date_offset`, on BUSINESS_DATE_CONTROL instances), so that moving it is
 * exactly as if those days had passed, while sessions and timestamps stay real (decision 019).
 */

/** What the business date is computed from: the organisation's time zone and offset. */
export type BusinessCalendar = Pick<Organisation, 'timeZone' | 'businessDateOffset'>;

/** The business date ('YYYY-MM-DD') of a moment: an event's, such as a payment's receipt. */
export function businessDateOf(at: Date, org: BusinessCalendar): string {
  const calendar = businessDate(at, org.timeZone);
  return org.businessDateOffset ? addDays(calendar, org.businessDateOffset) : calendar;
}

/** Today's business date ('YYYY-MM-DD'): the one "today" of every date rule. */
export function businessToday(ctx: { clock: Clock }, org: BusinessCalendar): string {
  return businessDateOf(ctx.clock.now(), org);
}

/**
 * What days past due and buckets are read on (decision 054): the business date, and the
 * organisation's bucket bounds (`delinquencyBuckets`).
 */
export interface ArrearsDay {
  date: string;
  buckets: readonly number[];
}

export async function arrearsDay(ctx: AppServices, executor: Executor): Promise<ArrearsDay> {
  const org = await organisation(ctx, executor);
  return { date: businessToday(ctx, org), buckets: org.delinquencyBuckets };
}

/** The business date, the last closed date, and whether this server lets them be moved. */
export async function businessDateState(ctx: AppServices, executor: Executor): Promise<BusinessDateState> {
  return stateOf(ctx, await organisation(ctx, executor));
}

function stateOf(ctx: AppServices, org: Organisation): BusinessDateState {
  return {
    businessDate: businessToday(ctx, org),
    lastClosedDate: org.lastClosedDate,
    control: ctx.config.BUSINESS_DATE_CONTROL,
  };
}

const refused = (message: string) =>
  new AppError(422, ERROR_CODES.BUSINESS_DATE_REFUSED, message, [{ field: 'businessDate', message }]);

/**
 * Moves the business date forward to `date` (BUSINESS_DATE_CONTROL instances only): never back,
 * never before the last closed date, at most ten years ahead of the calendar. The same date again
 * changes nothing. Audited; the caller's transaction commits it, and every instance's cached
 * settings are dropped with it.
 */
export async function moveBusinessDate(
  ctx: TxContext,
  actor: Actor,
  date: string,
): Promise<BusinessDateState> {
  if (!ctx.config.BUSINESS_DATE_CONTROL)
    throw forbidden(
      'The business date can be moved only on a test, training or demo server (BUSINESS_DATE_CONTROL=true)',
      ERROR_CODES.BUSINESS_DATE_LOCKED,
    );
  const org = await lockOrganisation(ctx);
  const current = businessToday(ctx, org);
  if (date < current)
    throw refused(`The business date moves forward only: choose ${current} or a later date`);
  if (org.lastClosedDate && date < org.lastClosedDate)
    throw refused(`The business date cannot be before the last closed date, ${org.lastClosedDate}`);
  if (date === current) return stateOf(ctx, org);
  const offset = daysBetween(businessDate(ctx.clock.now(), org.timeZone), date);
  if (offset > MAX_BUSINESS_DATE_OFFSET)
    throw refused('The business date can run at most ten years ahead of the calendar');
  const after = await saveBusinessDateOffset(ctx, actor, offset);
  await writeAudit(ctx.tx, actor, {
    action: 'organisation.business_date',
    entityType: 'organisation',
    entityId: '1',
    before: { businessDate: current, businessDateOffset: org.businessDateOffset },
    after: { businessDate: date, businessDateOffset: offset },
  });
  return stateOf(ctx, after);
}
