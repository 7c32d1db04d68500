import { eq, sql } from 'drizzle-orm';
import {
  type DeviceStatus,
  MANUAL_TRANSITIONS,
  UNIT_TRANSITIONS,
  type UnitMove,
} from '../../../contracts/devices';
import { queryRows } from '../../../db/client';
import { deviceEvents, devices } from '../../../db/schema';
import type { Actor } from '../../audit';
import type { TxContext } from '../../context';
import { type AppError, conflict, notFound, unprocessable } from '../../errors';
import { newId } from '../../ids';
import type { Lifecycle } from '../../transitions';
import { deviceListsChanged } from './list-cache';

export type DeviceRow = typeof devices.$inferSelect;

/** What a unit's move writes beside its status and version: the history line, and on assignment the control state. */
export interface UnitChange {
  reason: string;
  contractId: string | null;
  set?: Partial<Pick<DeviceRow, 'lockState' | 'activeUntil'>>;
}

const statusText = (status: DeviceStatus) => status.replace('_', ' ');

export async function lockUnit(ctx: TxContext, id: string): Promise<DeviceRow> {
  const [row] = await ctx.tx.select().from(devices).where(eq(devices.id, id)).for('update');
  if (!row) throw notFound('Device not found');
  return row;
}

/** Why staff cannot move a unit in its status to `to` by hand. */
export function refusalByHand(row: Pick<DeviceRow, 'status'>, to: DeviceStatus): AppError {
  if (row.status === to) return unprocessable(`The unit is already ${statusText(to)}`, 'SAME_STATUS');
  if (row.status === 'assigned' || to === 'assigned') {
    return unprocessable(
      'Units are assigned and released only through contracts (activation, return, repossession)',
      'CONTRACT_MANAGED',
    );
  }
  const allowed = MANUAL_TRANSITIONS[row.status];
  return unprocessable(
    `A unit that is ${statusText(row.status)} cannot be moved to ${statusText(to)} by hand${
      allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''
    }`,
    'TRANSITION_NOT_ALLOWED',
  );
}

/**
 * Writes a unit's move in one statement: under the row's lock, only if the unit is in one of
 * `from`, the new status, the version raised, the history line (strictly after the previous
 * one, so the history never ties) and the lists' eviction. Refused with 409 naming the unit's
 * status when it is in none of them. A contract's move of its unit is this statement alone:
 * the contract's transition locks, notifies and audits (decision 008: no read first).
 */
export async function writeUnitMove(
  ctx: TxContext,
  deviceId: string,
  move: UnitMove,
  from: readonly DeviceStatus[],
  change: UnitChange,
  actor: Actor,
): Promise<void> {
  const now = sql`${ctx.clock.now().toISOString()}::timestamptz`;
  const { to } = UNIT_TRANSITIONS[move];
  const [result] = await queryRows<{ status: DeviceStatus; serial_number: string; moved: boolean }>(
    ctx.tx,
    sql`
    WITH before AS (
      SELECT id, status, serial_number FROM ${devices} WHERE id = ${deviceId} FOR UPDATE
    ), moved AS (
      UPDATE ${devices} AS d
      SET status = ${to}, updated_at = ${now}, version = d.version + 1,
          lock_state = COALESCE(${change.set?.lockState ?? null}::text, d.lock_state),
          active_until = COALESCE(${change.set?.activeUntil ?? null}::date, d.active_until)
      FROM before
      WHERE d.id = before.id AND before.status IN ${[...from]}
      RETURNING d.id
    ), event AS (
      INSERT INTO ${deviceEvents} (id, device_id, from_status, to_status, reason, contract_id, actor_id, at)
      SELECT ${newId()}, before.id, before.status, ${to}, ${change.reason}, ${change.contractId}, ${actor.id},
             GREATEST(${now}, (SELECT max(at) + interval '1 millisecond' FROM ${deviceEvents} WHERE device_id = ${deviceId}))
      FROM before JOIN moved ON moved.id = before.id
    )
    SELECT status, serial_number, EXISTS (SELECT 1 FROM moved) AS moved FROM before`,
  );
  if (!result) throw notFound('Device not found');
  if (!result.moved) {
    throw conflict(
      `Device ${result.serial_number} is ${statusText(result.status)}; it cannot become ${statusText(to)}`,
      'DEVICE_STATE',
    );
  }
  await deviceListsChanged(ctx, ctx.tx);
}

/** A unit's lifecycle for the moves staff make by hand (contracts move their unit with writeUnitMove). */
export const unitLifecycle: Lifecycle<DeviceStatus, UnitMove, DeviceRow, UnitChange> = {
  table: UNIT_TRANSITIONS,
  lock: lockUnit,
  refusal: (row, move) => refusalByHand(row, UNIT_TRANSITIONS[move].to),
  write: (ctx, row, move, change, actor) => writeUnitMove(ctx, row.id, move, [row.status], change, actor),
};
