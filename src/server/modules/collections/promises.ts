import { type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { collectionPromises, contracts, payments } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import { tablesChanged } from '../../cache';
import type { TxContext } from '../../context';
import { addEventsFrom } from '../contracts/events';
import { messageDateSql, messageMoneySql } from '../messages/values-sql';
import { notifyFrom } from '../notifications/service';

export interface CheckedPromise {
  id: string;
  contractId: string;
  customerId: string;
  collectorId: string | null;
  state: 'kept' | 'partly_kept' | 'broken';
  amount: number;
  amountPaid: number;
  promisedDate: string;
}

/**
 * Close of business step 5 (PRODUCT.md §2): every pending promise due on or before `date` becomes
 * kept, partly kept or broken from the posted payments on its contract received since it was
 * taken and valued up to its date, in one statement. Each checked promise gets its contract's
 * timeline line; each broken or partly kept one notifies its collector (one statement). A
 * promise is checked once: a second run for the date finds none pending.
 */
export async function checkPromises(ctx: TxContext, actor: Actor, date: string): Promise<CheckedPromise[]> {
  const checked = await queryRows<CheckedPromise>(
    ctx.tx,
    sql`
    WITH due AS (
      SELECT p.id, p.contract_id, p.amount, p.taken_at, p.promised_date
      FROM ${collectionPromises} p
      WHERE p.state = 'pending' AND p.promised_date <= ${date}::date
      FOR UPDATE
    ), paid AS (
      SELECT d.id, COALESCE(sum(pay.amount), 0)::bigint AS paid
      FROM due d
      LEFT JOIN ${payments} pay
        ON pay.contract_id = d.contract_id AND pay.status = 'posted' AND pay.method <> 'deposit'
       AND pay.received_at >= d.taken_at AND pay.value_date <= d.promised_date
      GROUP BY d.id
    )
    UPDATE ${collectionPromises} p
    SET state = CASE WHEN paid.paid >= p.amount THEN 'kept' WHEN paid.paid > 0 THEN 'partly_kept' ELSE 'broken' END,
        amount_paid = paid.paid, checked_on = ${date}::date
    FROM paid WHERE p.id = paid.id
    RETURNING p.id, p.contract_id AS "contractId", p.customer_id AS "customerId", p.collector_id AS "collectorId",
              p.state, p.amount::float8 AS amount, p.amount_paid::float8 AS "amountPaid",
              to_char(p.promised_date, 'YYYY-MM-DD') AS "promisedDate"`,
  );
  if (!checked.length) return checked;
  await tablesChanged(ctx, ctx.tx, collectionPromises);
  const col = <T>(pick: (p: CheckedPromise) => T) => sql.param(checked.map(pick));
  const rows = sql`unnest(${col((p) => p.id)}::text[], ${col((p) => p.contractId)}::text[],
    ${col((p) => p.collectorId)}::text[], ${col((p) => p.state)}::text[], ${col((p) => p.amount)}::bigint[],
    ${col((p) => p.amountPaid)}::bigint[], ${col((p) => p.promisedDate)}::text[])
    AS v(id, contract_id, collector_id, state, amount, paid, promised_date)`;
  const words = sql`CASE v.state WHEN 'kept' THEN 'kept' WHEN 'partly_kept' THEN 'partly kept' ELSE 'broken' END`;
  await addEventsFrom(
    ctx,
    actor,
    sql`SELECT v.contract_id, 'promise_' || v.state,
               'Promise to pay of ' || v.promised_date || ' ' || ${words} || ' (' || v.paid || ' of ' || v.amount || ' minor units paid)',
               json_build_object('promiseId', v.id, 'amount', v.amount, 'amountPaid', v.paid)::text
        FROM ${rows}`,
  );
  await notifyFrom(
    ctx,
    sql`SELECT v.collector_id, 'Promise to pay ' || ${words},
               'The promise of ' || v.promised_date || ' on contract ' || c.number || ' was ' || ${words} || ': '
                 || v.paid || ' of ' || v.amount || ' minor units paid.',
               'warning', '/contracts/' || v.contract_id, NULL::text
        FROM ${rows} JOIN ${contracts} c ON c.id = v.contract_id
        WHERE v.collector_id IS NOT NULL AND v.state IN ('broken', 'partly_kept')`,
    'collections',
  );
  await writeAudit(ctx.tx, actor, {
    action: 'collections.promises_checked',
    entityType: 'eod_run',
    entityId: date,
    after: {
      businessDate: date,
      promises: checked.map((p) => ({
        id: p.id,
        contractId: p.contractId,
        state: p.state,
        amountPaid: p.amountPaid,
      })),
    },
  });
  return checked;
}

/**
 * The customers' "broken promise" messages for these promises, as rows for the outbox's set-based
 * insert (`queueMessagesFrom`): one per promise, keyed by it, so a re-run queues nothing.
 */
export function brokenPromiseMessages(ids: readonly string[], digits: number): SQL {
  return sql`
    SELECT c.customer_id, c.id, 'broken_promise',
           jsonb_build_object('contractNumber', c.number, 'amount', ${messageMoneySql(sql`p.amount`, sql`c.currency`, digits)},
                              'promiseDate', ${messageDateSql(sql`p.promised_date`)}),
           'promise:' || p.id
    FROM ${collectionPromises} p JOIN ${contracts} c ON c.id = p.contract_id
    WHERE p.id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`;
}
