import { and, desc, eq, gte, ilike, lt, type SQL, sql } from 'drizzle-orm';
import { auditEndpoints } from '../../../contracts/audit';
import { auditLog } from '../../../db/schema';
import type { AppInstance } from '../../app';
import { organisation } from '../../organisation';
import { route } from '../../route';
import { verifyAuditChain } from './chain';

/** /admin/audit: the append-only log, filtered and paged, and the chain check. Administrators only. */
export async function auditRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const options = { access: 'admin.audit', tags: ['audit'] } as const;

  route(app, auditEndpoints.list, options, async (request) => {
    const query = request.query;
    const { timeZone } = await organisation(ctx, ctx.db);
    const day = sql`(${auditLog.at} AT TIME ZONE ${timeZone})::date`;
    const conditions: SQL[] = [];
    if (query.action) conditions.push(eq(auditLog.action, query.action));
    if (query.entityType) conditions.push(eq(auditLog.entityType, query.entityType));
    if (query.entityId) conditions.push(eq(auditLog.entityId, query.entityId));
    if (query.actor)
      conditions.push(ilike(auditLog.actorLabel, `%${query.actor.replace(/[%_\\]/g, '\\$&')}%`));
    if (query.from) conditions.push(gte(day, sql`${query.from}::date`));
    if (query.to) conditions.push(sql`${day} <= ${query.to}::date`);
    if (query.before) conditions.push(lt(auditLog.id, query.before));
    const rows = await ctx.db
      .select()
      .from(auditLog)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(auditLog.id))
      .limit(query.limit + 1);
    const page = rows.slice(0, query.limit);
    return {
      rows: page.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actorId: row.actorId,
        actorLabel: row.actorLabel,
        action: row.action,
        entityType: row.entityType,
        entityId: row.entityId,
        before: row.before,
        after: row.after,
        ip: row.ip,
        hash: row.hash,
      })),
      nextBefore: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
    };
  });

  route(app, auditEndpoints.verify, options, async () => {
    const { lastId: _lastId, ...verification } = await verifyAuditChain(ctx);
    return verification;
  });
}
