import { type SQL, sql } from 'drizzle-orm';
import { contractEvents } from '../../../db/schema';
import { runWrites, type Writes } from '../../../db/writes';
import type { Actor } from '../../audit';
import { tablesChanged } from '../../cache';
import type { TxContext } from '../../context';
import { newId } from '../../ids';

/**
 * A line on the contract's timeline; every change of a contract writes one, so lists are told
 * here, in the same statement. Answers with the line's id and time (ISO).
 */
export async function addEvent(
  ctx: TxContext,
  contractId: string,
  actor: Actor,
  type: string,
  message: string,
  data?: unknown,
): Promise<{ id: string; at: string }> {
  const event = eventWrites(ctx, contractId, actor, type, message, data);
  const { at } = await runWrites<{ at: string | null }>(ctx.tx, [
    event.writes,
    { with: [], select: [sql`(SELECT to_json(at) #>> '{}' FROM event) AS at`] },
  ]);
  if (!at) throw new Error('The contract event was not written');
  return { id: event.id, at: new Date(at).toISOString() };
}

/**
 * `addEvent` as a part of a larger statement (a payment's writes, decision 022): the line as the
 * CTE `event`, written only when `when` holds, with the timeline's eviction after it.
 */
export function eventWrites(
  ctx: TxContext,
  contractId: string,
  actor: Actor,
  type: string,
  message: string,
  data?: unknown,
  when: SQL = sql`true`,
): { id: string; writes: Writes } {
  const id = newId();
  // Dated by the app's clock, like the contract's own dates, and strictly after the contract's
  // previous event, so the timeline never ties (several events can share one transaction).
  const event = sql`event AS (
    INSERT INTO ${contractEvents} (id, contract_id, type, message, data, actor_id, at)
    SELECT ${id}, ${contractId}, ${type}, ${message}, ${data === undefined ? null : JSON.stringify(data)}::jsonb,
      ${actor.id}::text,
      GREATEST(${ctx.clock.now().toISOString()}::timestamptz,
               (SELECT max(at) + interval '1 millisecond' FROM ${contractEvents} WHERE contract_id = ${contractId}))
    WHERE ${when}
    RETURNING at)`;
  return { id, writes: { with: [event], after: [() => timelineChanged(ctx)] } };
}

/**
 * Timeline lines for many contracts in one statement (a statement import's chunk), each dated
 * like `addEvent`'s: by the app's clock and strictly after its contract's previous line.
 */
export async function addEvents(
  ctx: TxContext,
  actor: Actor,
  events: ReadonlyArray<{ contractId: string; type: string; message: string; data?: unknown }>,
): Promise<void> {
  if (!events.length) return;
  const col = <T>(pick: (e: (typeof events)[number]) => T) => sql.param(events.map(pick));
  await addEventsFrom(
    ctx,
    actor,
    sql`SELECT * FROM unnest(${col((e) => e.contractId)}::text[], ${col((e) => e.type)}::text[], ${col((e) => e.message)}::text[],
                ${col((e) => (e.data === undefined ? null : JSON.stringify(e.data)))}::text[])`,
  );
}

/**
 * The same from a query whose rows are (contract_id, type, message, data as JSON text): the close
 * of business writes the lines of every contract it moved without reading them out first.
 */
export async function addEventsFrom(ctx: TxContext, actor: Actor, source: SQL): Promise<void> {
  await runWrites(ctx.tx, [eventsFromWrites(ctx, actor, 'events', source)], { prepared: true });
}

/**
 * `addEventsFrom` as a part of a larger statement (the close of business's late fees): the lines
 * as the CTE `name`, from a query that may read the statement's other CTEs, with the timeline's
 * eviction after it.
 */
export function eventsFromWrites(ctx: TxContext, actor: Actor, name: string, source: SQL): Writes {
  const insert = sql`${sql.identifier(name)} AS (
    INSERT INTO ${contractEvents} (id, contract_id, type, message, data, actor_id, at)
    SELECT new_row_id(), v.contract_id, v.type, v.message, v.data::jsonb, ${actor.id}::text,
      GREATEST(${ctx.clock.now().toISOString()}::timestamptz,
               -- Written as the index's order with a limit, so it is one probe of (contract_id, at)
               -- per line whatever the table's statistics say (max() was planned as a scan per line).
               (SELECT e.at + interval '1 millisecond' FROM ${contractEvents} e WHERE e.contract_id = v.contract_id
                ORDER BY e.at DESC LIMIT 1))
    FROM (${source}) AS v(contract_id, type, message, data)
    RETURNING 1)`;
  return { with: [insert], after: [() => timelineChanged(ctx)] };
}

/**
 * A timeline line changes its own table only: no list shows it, so no list is evicted (the move
 * or the payment it tells of evicts what it changed, `contractsChanged`).
 */
function timelineChanged(ctx: TxContext): Promise<void> {
  return tablesChanged(ctx, ctx.tx, contractEvents);
}
