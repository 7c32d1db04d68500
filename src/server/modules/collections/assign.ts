import { sql } from 'drizzle-orm';
import { ERROR_CODES } from '../../../contracts/errors';
import { can } from '../../../contracts/roles';
import { queryRows } from '../../../db/client';
import { collectionCases, collectorSettings, users } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import { tablesChanged } from '../../cache';
import type { TxContext } from '../../context';
import { AppError } from '../../errors';
import { findUserById } from '../users/service';

export interface AssignResult {
  assigned: number;
  skipped: number;
}

const refuse = (field: string, message: string) =>
  new AppError(422, ERROR_CODES.RULE, message, [{ field, message }]);

/** The person named can work cases: an active member of staff whose role holds `collections.work`. */
export async function checkCollector(ctx: TxContext, collectorId: string): Promise<void> {
  const user = await findUserById(ctx.tx, collectorId);
  if (!user?.active) throw refuse('collectorId', 'Choose an active member of staff');
  if (!can(user, 'collections.work'))
    throw refuse(
      'collectorId',
      `${user.firstName} ${user.lastName} cannot work collections (role ${user.role})`,
    );
}

/**
 * Manual assignment: the cases of the contracts named go to one collector (or to no one). A
 * contract without a case (not in arrears since the queue was scored) is skipped. A manager may
 * go beyond a collector's cap by hand; the automatic assignment never does. One audit row names
 * the contracts.
 */
export async function assignCases(
  ctx: TxContext,
  actor: Actor,
  contractIds: readonly string[],
  collectorId: string | null,
): Promise<AssignResult> {
  if (collectorId) await checkCollector(ctx, collectorId);
  const unique = [...new Set(contractIds)];
  const rows = await queryRows<{ contract_id: string }>(
    ctx.tx,
    sql`UPDATE ${collectionCases}
        SET collector_id = ${collectorId}::text, assigned_by = ${actor.id}::text,
            assigned_at = ${ctx.clock.now()}, assigned_bucket = bucket, updated_at = ${ctx.clock.now()}
        WHERE contract_id = ANY(${sql.param(unique)}::text[])
        RETURNING contract_id`,
  );
  if (rows.length) await tablesChanged(ctx, ctx.tx, collectionCases);
  await writeAudit(ctx.tx, actor, {
    action: 'collections.assign',
    entityType: 'collection_case',
    entityId: rows.length === 1 ? (rows[0]?.contract_id ?? null) : null,
    after: { collectorId, contracts: rows.map((row) => row.contract_id) },
  });
  return { assigned: rows.length, skipped: unique.length - rows.length };
}

/**
 * Automatic assignment: the unassigned cases in the queue, highest score first, dealt round-robin
 * to the active collectors of their region (a collector with no regions takes any), each up to
 * their cap of open cases. One statement per region (never one per case): a collector's room is
 * shared between the regions they work, so each region sees what the previous ones left.
 */
export async function autoAssign(ctx: TxContext, actor: Actor, region?: string): Promise<AssignResult> {
  const regions = await queryRows<{ region: string | null }>(
    ctx.tx,
    sql`SELECT DISTINCT region FROM ${collectionCases}
        WHERE in_queue AND collector_id IS NULL ${region ? sql`AND region = ${region}` : sql``}
        ORDER BY region NULLS LAST`,
  );
  const now = ctx.clock.now();
  const assigned: { contract_id: string; collector_id: string }[] = [];
  let waiting = 0;
  for (const { region: place } of regions) {
    const [count] = await queryRows<{ n: number }>(
      ctx.tx,
      sql`SELECT count(*)::int AS n FROM ${collectionCases}
          WHERE in_queue AND collector_id IS NULL AND region IS NOT DISTINCT FROM ${place}::text`,
    );
    waiting += Number(count?.n ?? 0);
    const covers =
      place === null
        ? sql`cardinality(s.regions) = 0`
        : sql`(cardinality(s.regions) = 0 OR ${place}::text = ANY(s.regions))`;
    const rows = await queryRows<{ contract_id: string; collector_id: string }>(
      ctx.tx,
      sql`
      WITH eligible AS (
        SELECT s.user_id, s.max_open_cases - (
                 SELECT count(*) FROM ${collectionCases} o WHERE o.in_queue AND o.collector_id = s.user_id)::int AS room
        FROM ${collectorSettings} s JOIN ${users} u ON u.id = s.user_id AND u.active
        WHERE s.active AND ${covers}
      ), slots AS (
        -- Round-robin: every collector's first free place, then every second one, and so on.
        SELECT e.user_id, row_number() OVER (ORDER BY j, e.room DESC, e.user_id) AS n
        FROM eligible e, generate_series(1, GREATEST(e.room, 0)) AS j
      ), waiting AS (
        SELECT contract_id, row_number() OVER (ORDER BY score DESC, contract_id DESC) AS n
        FROM ${collectionCases}
        WHERE in_queue AND collector_id IS NULL AND region IS NOT DISTINCT FROM ${place}::text
      )
      UPDATE ${collectionCases} c
      SET collector_id = s.user_id, assigned_by = ${actor.id}::text, assigned_at = ${now},
          assigned_bucket = c.bucket, updated_at = ${now}
      FROM waiting w JOIN slots s ON s.n = w.n
      WHERE c.contract_id = w.contract_id
      RETURNING c.contract_id, c.collector_id`,
    );
    assigned.push(...rows);
  }
  if (assigned.length) await tablesChanged(ctx, ctx.tx, collectionCases);
  await writeAudit(ctx.tx, actor, {
    action: 'collections.auto_assign',
    entityType: 'collection_case',
    entityId: null,
    after: {
      region: region ?? null,
      assignments: assigned.map((row) => ({ contractId: row.contract_id, collectorId: row.collector_id })),
    },
  });
  return { assigned: assigned.length, skipped: waiting - assigned.length };
}
