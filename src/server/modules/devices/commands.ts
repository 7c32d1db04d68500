import { eq, type SQL, sql } from 'drizzle-orm';
import type { CommandKind } from '../../../contracts/devices';
import { queryRows } from '../../../db/client';
import { deviceCommands, devices } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { notFound } from '../../errors';
import { newId } from '../../ids';
import { deviceListsChanged } from './list-cache';

/**
 * The device command log (PRODUCT.md, Device control). Other areas queue commands here in their
 * own transaction (a payment that clears arrears queues an unlock at once, not at the next batch);
 * delivery to the provider, retries and acknowledgements are the device control job's.
 */
export interface CommandRequest {
  deviceId: string;
  contractId: string | null;
  kind: CommandKind;
  reason: string;
  source?: { type: string; id: string };
  /** What the command carries beyond its kind (a token's `{ days }`). */
  payload?: Record<string, unknown>;
}

export async function queueDeviceCommand(
  ctx: TxContext,
  actor: Actor,
  request: CommandRequest,
): Promise<string> {
  const id = newId();
  await ctx.tx.insert(deviceCommands).values({
    id,
    deviceId: request.deviceId,
    contractId: request.contractId,
    kind: request.kind,
    state: 'queued',
    reason: request.reason,
    payload: request.payload ?? null,
    sourceType: request.source?.type ?? null,
    sourceId: request.source?.id ?? null,
    requestedBy: actor.id,
    createdAt: ctx.clock.now(),
    nextAttemptAt: ctx.clock.now(),
  });
  await commandsQueued(ctx);
  return id;
}

/** The invalidation bus's namespace that tells every instance commands are waiting (decision 028). */
export const COMMANDS_QUEUED = 'device_commands';

/**
 * Wakes the delivery on every instance once the transaction commits, so a payment's unlock or a
 * close's locks go out at once rather than at the next minute's run (the device control plugin
 * listens). No statement of its own inside a transaction (decision 024).
 */
async function commandsQueued(ctx: TxContext): Promise<void> {
  await ctx.bus.publish(ctx.tx, COMMANDS_QUEUED, 'queued');
}

export interface DeviceControl {
  id: string;
  serialNumber: string;
  controlKind: 'openpaygo' | 'lock_api' | 'none';
  lockState: 'unlocked' | 'locked' | 'unknown';
  activeUntil: string | null;
  /** A lock is queued or on its way (not yet acknowledged): an unlock must follow it. */
  lockPending: boolean;
  /** OpenPAYGO: the device counts time in 1/divider days; a token carries days × divider. */
  timeDivider: number;
}

/** What a payment needs to know of a unit to answer it (a token, an unlock). */
export async function deviceControlOf(executor: Executor, deviceId: string): Promise<DeviceControl> {
  const [row] = await queryRows<{ device: unknown }>(
    executor,
    sql`SELECT ${deviceControlColumn(sql`${deviceId}`)} AS device`,
  );
  return deviceControlFrom(row?.device);
}

/**
 * `deviceControlOf` as a column of a larger read (a payment's, decision 022): a JSON array, read
 * back by `deviceControlFrom`.
 */
/** Whether something controls the unit `deviceId` names (OpenPAYGO or a lock API), as SQL. */
export function deviceControlled(deviceId: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${devices} d WHERE d.id = ${deviceId} AND d.control_kind <> 'none')`;
}

export function deviceControlColumn(deviceId: SQL): SQL {
  return sql`(SELECT json_build_array(d.id, d.serial_number, d.control_kind, d.lock_state, d.active_until,
      d.control_kind = 'lock_api' AND EXISTS (SELECT 1 FROM ${deviceCommands} c WHERE c.device_id = d.id
        AND c.kind = 'lock' AND c.state IN ('queued', 'sent')), coalesce(d.openpaygo_time_divider, 1))
    FROM ${devices} d WHERE d.id = ${deviceId})`;
}

export function deviceControlFrom(value: unknown): DeviceControl {
  if (!Array.isArray(value)) throw notFound('Device not found');
  const [id, serialNumber, controlKind, lockState, activeUntil, lockPending, timeDivider] = value;
  return {
    id,
    serialNumber,
    controlKind,
    lockState,
    activeUntil,
    lockPending,
    timeDivider: timeDivider ?? 1,
  };
}

/**
 * The controlled units among these (OpenPAYGO or a lock API), each as a payment must know it to
 * answer it (`deviceControlOf`), by id; uncontrolled units are left out.
 */
export async function controlledUnits(
  executor: Executor,
  deviceIds: readonly string[],
): Promise<Map<string, DeviceControl>> {
  if (!deviceIds.length) return new Map();
  // Probed by key from the array: as `id IN (...)` an import's 2,000 ids were planned as a scan of
  // every unit testing each against the list (300 ms a chunk on 100,000 units, auto_explain).
  const rows = await queryRows<{ device: unknown }>(
    executor,
    sql`SELECT ${deviceControlColumn(sql`v.id`)} AS device FROM unnest(${sql.param([...new Set(deviceIds)])}::text[]) AS v(id)
        JOIN ${devices} d ON d.id = v.id WHERE d.control_kind <> 'none'`,
  );
  const units = rows.map((row) => deviceControlFrom(row.device));
  return new Map(units.map((unit) => [unit.id, unit]));
}

/**
 * The dates units may run until (pay-as-you-go), moved by payments: one unit for a payment, a
 * chunk's lock-API units for an import, in one statement and one eviction. An OpenPAYGO unit runs
 * again with the token the payment bought, so it is recorded unlocked (`recordTimeRanOut` recorded
 * it locked when its time ran out); a lock-API unit's state follows its commands.
 */
export async function extendDeviceAccess(
  ctx: TxContext,
  extended: readonly { deviceId: string; activeUntil: string }[],
): Promise<void> {
  if (!extended.length) return;
  await ctx.tx.execute(sql`UPDATE ${devices} d SET active_until = v.until, updated_at = ${ctx.clock.now().toISOString()}::timestamptz,
      lock_state = CASE WHEN d.control_kind = 'openpaygo' THEN 'unlocked' ELSE d.lock_state END
    FROM unnest(${sql.param(extended.map((e) => e.deviceId))}::text[], ${sql.param(extended.map((e) => e.activeUntil))}::date[]) AS v(id, until)
    WHERE d.id = v.id`);
  await deviceListsChanged(ctx, ctx.tx);
}

/**
 * Close of business step 3, for OpenPAYGO units (decision 050): a unit stops by itself at the
 * start of its `active_until` day and takes no lock command, so the close records every unit of a
 * live contract (`liveUnits`, rows of device id, from the contracts area) whose time ran out by
 * the date as `locked`, in one statement, for the fleet, the filters, the unit's page and the
 * snapshot's locked count to show it off, as it is. The token a payment buys records it unlocked
 * again (`extendDeviceAccess`). One audit row for the statement, naming the units. Answers how
 * many units it recorded.
 */
export async function recordTimeRanOut(
  ctx: TxContext,
  actor: Actor,
  date: string,
  liveUnits: SQL,
): Promise<number> {
  const units = await queryRows<{ id: string }>(
    ctx.tx,
    sql`UPDATE ${devices} d SET lock_state = 'locked', updated_at = ${ctx.clock.now().toISOString()}::timestamptz
      WHERE d.control_kind = 'openpaygo' AND d.status = 'assigned' AND d.lock_state <> 'locked'
        AND d.active_until <= ${date}::date
        AND d.id IN (${liveUnits})
      RETURNING d.id`,
  );
  if (!units.length) return 0;
  await deviceListsChanged(ctx, ctx.tx);
  await writeAudit(ctx.tx, actor, {
    action: 'device.time_ran_out',
    entityType: 'eod_run',
    entityId: date,
    after: { businessDate: date, lockState: 'locked', devices: units.map((unit) => unit.id).sort() },
  });
  return units.length;
}

/**
 * Close of business step 3 (decision 026): a `lock` command, queued, for each unit of the
 * contracts `units` selects (rows of contract id, device id) that a lock API controls, is not
 * locked and has no lock queued or on its way, in one statement: the candidates never leave the
 * database (a million-contract book has 200,000). OpenPAYGO units need none: their time runs out
 * by itself at `active_until`. The units with a lock already queued or on its way are read first,
 * in a statement of their own, and passed back as an array, which PostgreSQL probes through a hash
 * (decision 034): a NOT EXISTS against the command table was planned as a scan per unit of the
 * table this very statement grows (100,000 locks in one night took 54 s). Answers how many units
 * were selected and how many locks were queued.
 */
export async function queueLocks(
  ctx: TxContext,
  actor: Actor,
  units: SQL,
  reason: string,
  source: { type: string; id: string },
): Promise<{ candidates: number; queued: number }> {
  const now = ctx.clock.now().toISOString();
  const pending = await queryRows<{ device_id: string }>(
    ctx.tx,
    sql`SELECT DISTINCT device_id FROM ${deviceCommands} WHERE kind = 'lock' AND state IN ('queued', 'sent')`,
  );
  const [row] = await queryRows<{ candidates: number; queued: number }>(
    ctx.tx,
    sql`
    WITH v (contract_id, device_id) AS (${units}), queued AS (
      INSERT INTO ${deviceCommands} (id, device_id, contract_id, kind, state, reason, source_type, source_id,
                                     requested_by, created_at, next_attempt_at)
      SELECT new_row_id(), d.id, v.contract_id, 'lock', 'queued', ${reason}, ${source.type}, ${source.id},
             ${actor.id}::text, ${now}::timestamptz, ${now}::timestamptz
      FROM v JOIN ${devices} d ON d.id = v.device_id
      WHERE d.control_kind = 'lock_api' AND d.lock_state <> 'locked'
        AND d.id <> ALL (${sql.param(pending.map((p) => p.device_id))}::text[])
      RETURNING id)
    SELECT (SELECT count(*) FROM v)::int AS candidates, (SELECT count(*) FROM queued)::int AS queued`,
  );
  const counts = { candidates: row?.candidates ?? 0, queued: row?.queued ?? 0 };
  if (counts.queued) await commandsQueued(ctx);
  return counts;
}

/**
 * A unit's lock state follows an acknowledged command (device control's delivery, decision 028):
 * written here, with the lists evicted and an audit row naming the command, so the devices area
 * keeps its one way of changing a unit. Nothing is written when the state is already that.
 */
export async function recordLockState(
  ctx: TxContext,
  actor: Actor,
  deviceId: string,
  lockState: 'locked' | 'unlocked',
  command: { id: string; kind: CommandKind },
): Promise<boolean> {
  const [before] = await ctx.tx
    .select({ lockState: devices.lockState })
    .from(devices)
    .where(eq(devices.id, deviceId))
    .for('update');
  if (!before || before.lockState === lockState) return false;
  await ctx.tx.update(devices).set({ lockState, updatedAt: ctx.clock.now() }).where(eq(devices.id, deviceId));
  await deviceListsChanged(ctx, ctx.tx);
  await writeAudit(ctx.tx, actor, {
    action: 'device.lock_state',
    entityType: 'device',
    entityId: deviceId,
    before: { lockState: before.lockState },
    after: { lockState, commandId: command.id, kind: command.kind },
  });
  return true;
}
