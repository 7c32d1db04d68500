import { sql } from 'drizzle-orm';
import {
  CONTACT_KINDS,
  type CollectionAction,
  type ContractCase,
  type Performance,
  type PromiseToPay,
} from '../../../contracts/collections';
import { queryRows } from '../../../db/client';
import {
  collectionActions,
  collectionCases,
  collectionPromises,
  contracts,
  customers,
  payments,
  servicePlans,
  users,
} from '../../../db/schema';
import { bucketsFromBounds } from '../../../domain';
import { businessToday } from '../../business-date';
import type { AppContext, Executor } from '../../context';
import { notFound } from '../../errors';
import { organisation } from '../../organisation';
import { listRegions } from '../customers/service';
import { listCollectors } from './collectors';

const iso = (value: unknown) =>
  value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();

/** The columns of a promise as the API shows it (with its contract, customer and collector). */
export const promiseColumns = sql`p.id, p.contract_id AS "contractId", c.number AS "contractNumber",
  cu.first_name || ' ' || cu.last_name AS "customerName", p.collector_id AS "collectorId",
  cl.first_name || ' ' || cl.last_name AS "collectorName", to_char(p.promised_date, 'YYYY-MM-DD') AS "promisedDate",
  p.amount::float8 AS amount, p.amount_paid::float8 AS "amountPaid", p.currency, p.state,
  to_char(p.taken_on, 'YYYY-MM-DD') AS "takenOn", to_char(p.checked_on, 'YYYY-MM-DD') AS "checkedOn"`;

export const promiseJoins = sql`JOIN ${contracts} c ON c.id = p.contract_id
  JOIN ${customers} cu ON cu.id = p.customer_id
  LEFT JOIN ${users} cl ON cl.id = p.collector_id`;

export async function actionById(executor: Executor, id: string): Promise<CollectionAction> {
  const [row] = await actionsWhere(executor, sql`a.id = ${id}`);
  if (!row) throw notFound('Action not found');
  return row;
}

async function actionsWhere(executor: Executor, where: ReturnType<typeof sql>): Promise<CollectionAction[]> {
  const rows = await queryRows<CollectionAction & { at: unknown }>(
    executor,
    sql`SELECT a.id, a.contract_id AS "contractId", c.number AS "contractNumber", a.kind, a.outcome, a.note,
               a.promise_id AS "promiseId", a.device_command_id AS "deviceCommandId", a.actor_id AS "actorId",
               u.first_name || ' ' || u.last_name AS "actorName", a.at, to_char(a.business_date, 'YYYY-MM-DD') AS "businessDate"
        FROM ${collectionActions} a JOIN ${contracts} c ON c.id = a.contract_id
        LEFT JOIN ${users} u ON u.id = a.actor_id
        WHERE ${where} ORDER BY a.at DESC, a.id DESC LIMIT 200`,
  );
  return rows.map((row) => ({ ...row, at: iso(row.at) }));
}

/** The contract page's collections card: its case, actions and promises. */
export async function contractCase(ctx: AppContext, contractId: string): Promise<ContractCase> {
  const [exists] = await queryRows<{ id: string }>(
    ctx.db,
    sql`SELECT id FROM ${contracts} WHERE id = ${contractId}`,
  );
  if (!exists) throw notFound('Contract not found');
  const [kase] = await queryRows<{
    in_queue: boolean;
    collector_id: string | null;
    collector_name: string | null;
    score: number;
    dpd_points: number;
    amount_points: number;
    risk_points: number;
    promise_points: number;
    contact_points: number;
    scored_on: string;
  }>(
    ctx.db,
    sql`SELECT k.in_queue, k.collector_id, u.first_name || ' ' || u.last_name AS collector_name, k.score,
               k.dpd_points, k.amount_points, k.risk_points, k.promise_points, k.contact_points,
               to_char(k.scored_on, 'YYYY-MM-DD') AS scored_on
        FROM ${collectionCases} k LEFT JOIN ${users} u ON u.id = k.collector_id WHERE k.contract_id = ${contractId}`,
  );
  const promises = await queryRows<PromiseToPay>(
    ctx.db,
    sql`SELECT ${promiseColumns} FROM ${collectionPromises} p ${promiseJoins}
        WHERE p.contract_id = ${contractId} ORDER BY p.taken_at DESC, p.id DESC LIMIT 100`,
  );
  return {
    contractId,
    inQueue: kase?.in_queue ?? false,
    collectorId: kase?.collector_id ?? null,
    collectorName: kase?.collector_name ?? null,
    score: kase ? Number(kase.score) : null,
    parts: kase
      ? {
          dpd: kase.dpd_points,
          amount: kase.amount_points,
          risk: kase.risk_points,
          promises: kase.promise_points,
          contact: kase.contact_points,
        }
      : null,
    scoredOn: kase?.scored_on ?? null,
    actions: await actionsWhere(ctx.db, sql`a.contract_id = ${contractId}`),
    promises,
  };
}

/** The queue's filter choices. */
export async function queueOptions(ctx: AppContext) {
  const org = await organisation(ctx, ctx.db);
  const agents = await queryRows<{ id: string; name: string }>(
    ctx.db,
    sql`SELECT u.id, u.first_name || ' ' || u.last_name AS name FROM ${users} u
        WHERE u.id IN (SELECT DISTINCT agent_id FROM ${collectionCases} WHERE agent_id IS NOT NULL)
        ORDER BY name`,
  );
  const plans = await queryRows<{ id: string; name: string }>(
    ctx.db,
    sql`SELECT p.id, p.code || ' · ' || p.name AS name FROM ${servicePlans} p
        WHERE p.id IN (SELECT DISTINCT plan_id FROM ${collectionCases}) ORDER BY p.code`,
  );
  const collectors = await listCollectors(ctx.db);
  return {
    buckets: bucketsFromBounds(org.delinquencyBuckets)
      .map((bucket) => bucket.label)
      .filter((label) => label !== 'current'),
    regions: await listRegions(ctx),
    agents,
    plans,
    collectors: collectors.map((c) => ({ id: c.userId, name: c.name })),
    businessDate: businessToday(ctx, org),
  };
}

/**
 * Collector performance over business dates `from`..`to` (PRODUCT.md §2 "Collections"): contacts
 * logged, promises taken, and of the promises they took those due in the range and kept (whole),
 * so the kept rate is the collector's own (a promise taken on a case assigned to someone else
 * counts for who took it); the amount paid on their
 * cases since they were assigned, and per bucket at assignment the cases assigned in the range
 * and those cured (no days past due now).
 */
export async function performance(ctx: AppContext, from: string, to: string): Promise<Performance> {
  const org = await organisation(ctx, ctx.db);
  const contactKinds = sql.raw(CONTACT_KINDS.map((kind) => `'${kind}'`).join(', '));
  const rows = await queryRows<{
    id: string;
    name: string;
    contacts: number;
    promises: number;
    promises_due: number;
    kept: number;
    collected: number;
  }>(
    ctx.db,
    sql`
    WITH people AS (
      SELECT actor_id AS id FROM ${collectionActions} WHERE business_date BETWEEN ${from}::date AND ${to}::date AND actor_id IS NOT NULL
      UNION SELECT taken_by FROM ${collectionPromises} WHERE promised_date BETWEEN ${from}::date AND ${to}::date AND taken_by IS NOT NULL
      UNION SELECT collector_id FROM ${collectionCases} WHERE collector_id IS NOT NULL
    )
    SELECT u.id, u.first_name || ' ' || u.last_name AS name,
      (SELECT count(*) FROM ${collectionActions} a WHERE a.actor_id = u.id AND a.kind IN (${contactKinds})
         AND a.business_date BETWEEN ${from}::date AND ${to}::date)::int AS contacts,
      (SELECT count(*) FROM ${collectionPromises} p WHERE p.taken_by = u.id
         AND p.taken_on BETWEEN ${from}::date AND ${to}::date)::int AS promises,
      (SELECT count(*) FROM ${collectionPromises} p WHERE p.taken_by = u.id AND p.state <> 'pending'
         AND p.promised_date BETWEEN ${from}::date AND ${to}::date)::int AS promises_due,
      (SELECT count(*) FROM ${collectionPromises} p WHERE p.taken_by = u.id AND p.state = 'kept'
         AND p.promised_date BETWEEN ${from}::date AND ${to}::date)::int AS kept,
      (SELECT COALESCE(sum(pay.amount), 0) FROM ${collectionCases} k
         JOIN ${payments} pay ON pay.contract_id = k.contract_id AND pay.status = 'posted' AND pay.method <> 'deposit'
          AND pay.received_at >= k.assigned_at AND pay.value_date BETWEEN ${from}::date AND ${to}::date
         WHERE k.collector_id = u.id)::float8 AS collected
    FROM people JOIN ${users} u ON u.id = people.id
    ORDER BY name, u.id`,
  );
  const cures = await queryRows<{ collector_id: string; bucket: string; cases: number; cured: number }>(
    ctx.db,
    sql`SELECT k.collector_id, COALESCE(k.assigned_bucket, k.bucket) AS bucket, count(*)::int AS cases,
               count(*) FILTER (WHERE k.dpd = 0)::int AS cured
        FROM ${collectionCases} k
        WHERE k.collector_id IS NOT NULL
          AND k.assigned_at < ((${to}::date + 1)::timestamp AT TIME ZONE ${org.timeZone})
          AND k.assigned_at >= (${from}::date::timestamp AT TIME ZONE ${org.timeZone})
        GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return {
    from,
    to,
    currency: org.currency,
    collectors: rows.map((row) => {
      const due = Number(row.promises_due);
      const kept = Number(row.kept);
      return {
        collectorId: row.id,
        name: row.name,
        contacts: Number(row.contacts),
        promises: Number(row.promises),
        promisesDue: due,
        kept,
        keptRate: due ? kept / due : null,
        amountCollected: Number(row.collected),
        cure: cures
          .filter((cure) => cure.collector_id === row.id)
          .map((cure) => ({ bucket: cure.bucket, cases: Number(cure.cases), cured: Number(cure.cured) })),
      };
    }),
  };
}
