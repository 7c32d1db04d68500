import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { contractEvents } from '../../../db/schema';
import type { Actor } from '../../audit';
import type { TxContext } from '../../context';
import { contractsChangedNotification } from './list-cache';

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
  const id = randomUUID();
  // Dated by the app's clock, like the contract's own dates, and strictly after the contract's
  // previous event, so the timeline never ties (several events can share one transaction).
  const [event] = await queryRows<{ at: string }>(
    ctx.tx,
    sql`
    WITH event AS (
      INSERT INTO ${contractEvents} (id, contract_id, type, message, data, actor_id, at)
      VALUES (${id}, ${contractId}, ${type}, ${message}, ${data === undefined ? null : JSON.stringify(data)}::jsonb,
              ${actor.id},
              GREATEST(${ctx.clock.now().toISOString()}::timestamptz,
                       (SELECT max(at) + interval '1 millisecond' FROM ${contractEvents} WHERE contract_id = ${contractId})))
      RETURNING at)
    SELECT to_json(at) #>> '{}' AS at, ${contractsChangedNotification(ctx)} FROM event`,
  );
  if (!event) throw new Error('The contract event was not written');
  return { id, at: new Date(event.at).toISOString() };
}
