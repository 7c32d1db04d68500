import { sql } from 'drizzle-orm';
import type { Collector, CollectorSettingsBody } from '../../../contracts/collections';
import { PERMISSIONS, ROLES, roleRank } from '../../../contracts/roles';
import { queryRows } from '../../../db/client';
import { collectionCases, collectorSettings, users } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import { tablesChanged } from '../../cache';
import type { Executor, TxContext } from '../../context';
import { notFound } from '../../errors';
import { checkCollector } from './assign';

const collectorRoles = ROLES.filter((role) => roleRank(role) >= roleRank(PERMISSIONS['collections.work']));

/**
 * Everyone who can work cases (active staff whose role holds `collections.work`), with their
 * settings (regions, cap; defaults until saved) and their open cases in the queue.
 */
export async function listCollectors(executor: Executor, userId?: string): Promise<Collector[]> {
  const rows = await queryRows<Collector>(
    executor,
    sql`SELECT u.id AS "userId", u.first_name || ' ' || u.last_name AS name, u.role,
               COALESCE(s.regions, '{}'::text[]) AS regions, COALESCE(s.max_open_cases, 50) AS "maxOpenCases",
               COALESCE(s.active, false) AS active,
               (SELECT count(*) FROM ${collectionCases} c WHERE c.in_queue AND c.collector_id = u.id)::int AS "openCases"
        FROM ${users} u LEFT JOIN ${collectorSettings} s ON s.user_id = u.id
        WHERE u.active AND (u.is_owner OR u.role IN ${collectorRoles})
          ${userId ? sql`AND u.id = ${userId}` : sql``}
        ORDER BY u.first_name, u.last_name, u.id`,
  );
  return rows.map((row) => ({
    ...row,
    openCases: Number(row.openCases),
    maxOpenCases: Number(row.maxOpenCases),
  }));
}

/** A collector's regions, cap and whether the automatic assignment deals them cases. Audited. */
export async function saveCollector(
  ctx: TxContext,
  actor: Actor,
  userId: string,
  body: CollectorSettingsBody,
): Promise<Collector> {
  await checkCollector(ctx, userId);
  const regions = [...new Set(body.regions.map((region) => region.trim()))].sort();
  const [before] = await listCollectors(ctx.tx, userId);
  const values = {
    regions,
    maxOpenCases: body.maxOpenCases,
    active: body.active,
    updatedBy: actor.id,
    updatedAt: ctx.clock.now(),
  };
  await ctx.tx
    .insert(collectorSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: collectorSettings.userId, set: values });
  await tablesChanged(ctx, ctx.tx, collectorSettings);
  await writeAudit(ctx.tx, actor, {
    action: 'collections.collector_settings',
    entityType: 'collector',
    entityId: userId,
    before: before
      ? { regions: before.regions, maxOpenCases: before.maxOpenCases, active: before.active }
      : null,
    after: { regions, maxOpenCases: body.maxOpenCases, active: body.active },
  });
  const [after] = await listCollectors(ctx.tx, userId);
  if (!after) throw notFound('Collector not found');
  return after;
}
