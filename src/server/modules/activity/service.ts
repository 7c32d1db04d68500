import { sql } from 'drizzle-orm';
import { type ActivityEvent, sectionOf, type Usage } from '../../../contracts/activity';
import { queryRows } from '../../../db/client';
import { activityEvents } from '../../../db/schema';
import type { AppContext } from '../../context';
import { organisation } from '../../organisation';

/** Stores one event of the client tracker; the section is derived from the page when absent. */
export async function trackActivity(ctx: AppContext, userId: string, event: ActivityEvent): Promise<void> {
  await ctx.db.insert(activityEvents).values({
    userId,
    type: event.type,
    page: event.page ?? null,
    section: event.section ?? (event.page ? sectionOf(event.page.split('?')[0] ?? '/') : null),
    referrer: event.referrer ?? null,
    timeSpent: event.timeSpent ?? null,
    element: event.element ?? null,
    label: event.label ?? null,
    testId: event.testId ?? null,
    href: event.href ?? null,
    formName: event.formName ?? null,
    event: event.event ?? null,
    data: event.data ?? null,
    error: event.error ?? null,
    context: event.context ?? null,
    occurredAt: event.timestamp ? new Date(event.timestamp) : null,
    receivedAt: ctx.clock.now(),
  });
}

/**
 * Visits (PAGE_VISIT) and time (seconds of PAGE_EXIT and PAGE_UNLOAD) per section and per person,
 * for dates in the organisation's time zone, `from` and `to` included.
 */
export async function usage(ctx: AppContext, from: string, to: string): Promise<Usage> {
  const { timeZone } = await organisation(ctx, ctx.db);
  const day = sql`(${activityEvents.receivedAt} AT TIME ZONE ${timeZone})::date`;
  const inRange = sql`${day} BETWEEN ${from}::date AND ${to}::date`;
  const visits = sql`count(*) FILTER (WHERE ${activityEvents.type} = 'PAGE_VISIT')::int`;
  const seconds = sql`COALESCE(sum(${activityEvents.timeSpent}) FILTER (WHERE ${activityEvents.type} IN ('PAGE_EXIT', 'PAGE_UNLOAD')), 0)::int`;
  const sections = await queryRows<{ section: string; visits: number; seconds: number; users: number }>(
    ctx.db,
    sql`SELECT COALESCE(${activityEvents.section}, 'Other') AS section, ${visits} AS visits, ${seconds} AS seconds,
               count(DISTINCT ${activityEvents.userId})::int AS users
        FROM ${activityEvents} WHERE ${inRange}
        GROUP BY 1 ORDER BY visits DESC, section`,
  );
  const people = await queryRows<{
    userId: string;
    name: string;
    email: string;
    visits: number;
    seconds: number;
  }>(
    ctx.db,
    sql`SELECT u.id AS "userId", u.first_name || ' ' || u.last_name AS name, u.email, ${visits} AS visits, ${seconds} AS seconds
        FROM ${activityEvents} JOIN users u ON u.id = ${activityEvents.userId}
        WHERE ${inRange}
        GROUP BY u.id, u.first_name, u.last_name, u.email ORDER BY visits DESC, name`,
  );
  return {
    from,
    to,
    sections: sections.map((row) => ({
      ...row,
      visits: Number(row.visits),
      seconds: Number(row.seconds),
      users: Number(row.users),
    })),
    people: people.map((row) => ({ ...row, visits: Number(row.visits), seconds: Number(row.seconds) })),
  };
}
