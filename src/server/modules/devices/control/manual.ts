import { and, eq, inArray } from 'drizzle-orm';
import {
  type BulkCommandBody,
  type BulkCommandResult,
  COMMANDS_FOR_CONTROL,
  type DeviceCommand,
  type ManualCommandBody,
} from '../../../../contracts/device-control';
import { ERROR_CODES } from '../../../../contracts/errors';
import { deviceCommands, devices } from '../../../../db/schema';
import { type Actor, writeAudit } from '../../../audit';
import type { TxContext } from '../../../context';
import { AppError, conflict, notFound } from '../../../errors';
import { newId } from '../../../ids';
import { queueDeviceCommand } from '../commands';

const CONTROL_NAMES = { lock_api: 'a lock API', openpaygo: 'OpenPAYGO', none: 'nothing' } as const;

/**
 * POST /api/devices/:id/commands: a manual override (PRODUCT.md "Device control"): lock, unlock,
 * token (days) or release for one unit, with a reason, audited. The unit must take that command
 * (OpenPAYGO units take tokens and release; lock-API units lock, unlock and release), and no
 * command of the same kind may already be on its way. Delivery is the job's, woken at commit.
 */
export async function queueManualCommand(
  ctx: TxContext,
  actor: Actor,
  deviceId: string,
  body: ManualCommandBody,
): Promise<DeviceCommand> {
  // The unit's row lock serialises manual commands on one unit.
  const [device] = await ctx.tx
    .select({ id: devices.id, serialNumber: devices.serialNumber, controlKind: devices.controlKind })
    .from(devices)
    .where(eq(devices.id, deviceId))
    .for('update');
  if (!device) throw notFound('Device not found');
  if (!COMMANDS_FOR_CONTROL[device.controlKind].includes(body.kind)) {
    const message = `${device.serialNumber} is controlled by ${CONTROL_NAMES[device.controlKind]}: it takes no ${body.kind} command`;
    throw new AppError(422, ERROR_CODES.COMMAND_NOT_SUPPORTED, message, [{ field: 'kind', message }]);
  }
  const [pending] = await ctx.tx
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.deviceId, deviceId),
        eq(deviceCommands.kind, body.kind),
        inArray(deviceCommands.state, ['queued', 'sent']),
      ),
    )
    .limit(1);
  if (pending)
    throw conflict(
      `A ${body.kind} for ${device.serialNumber} is already on its way`,
      ERROR_CODES.COMMAND_PENDING,
    );
  const reason = body.reason.trim();
  const id = await queueDeviceCommand(ctx, actor, {
    deviceId,
    contractId: null,
    kind: body.kind,
    reason,
    ...(body.days !== undefined ? { payload: { days: body.days } } : {}),
  });
  await writeAudit(ctx.tx, actor, {
    action: 'device.command',
    entityType: 'device',
    entityId: deviceId,
    after: {
      commandId: id,
      kind: body.kind,
      reason,
      ...(body.days !== undefined ? { days: body.days } : {}),
    },
  });
  const now = ctx.clock.now().toISOString();
  return {
    id,
    device: { id: device.id, serialNumber: device.serialNumber, controlKind: device.controlKind },
    contractId: null,
    kind: body.kind,
    state: 'queued',
    reason,
    sourceType: null,
    days: body.days ?? null,
    provider: null,
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    requestedBy: actor.id ? { id: actor.id, name: actor.name ?? actor.label ?? '' } : null,
    createdAt: now,
    sentAt: null,
    completedAt: null,
  };
}

/**
 * POST /api/device-control/bulk: lock or unlock the chosen units, with one reason and one audit
 * row naming them. Units that cannot take it are skipped, each with why: not controlled by a lock
 * API, already in that state with nothing opposite on its way, or the same command already on its way.
 */
export async function queueBulkCommand(
  ctx: TxContext,
  actor: Actor,
  body: BulkCommandBody,
): Promise<BulkCommandResult> {
  const ids = [...new Set(body.deviceIds)].sort();
  const target = body.kind === 'lock' ? 'locked' : 'unlocked';
  const opposite = body.kind === 'lock' ? 'unlock' : 'lock';
  const rows = await ctx.tx
    .select({
      id: devices.id,
      serialNumber: devices.serialNumber,
      controlKind: devices.controlKind,
      lockState: devices.lockState,
    })
    .from(devices)
    .where(inArray(devices.id, ids))
    .orderBy(devices.id)
    .for('update');
  const pending = await ctx.tx
    .select({ deviceId: deviceCommands.deviceId, kind: deviceCommands.kind })
    .from(deviceCommands)
    .where(and(inArray(deviceCommands.deviceId, ids), inArray(deviceCommands.state, ['queued', 'sent'])));
  const pendingKinds = new Map<string, Set<string>>();
  for (const row of pending) {
    const kinds = pendingKinds.get(row.deviceId) ?? new Set();
    kinds.add(row.kind);
    pendingKinds.set(row.deviceId, kinds);
  }
  const found = new Map(rows.map((row) => [row.id, row]));
  const skipped: BulkCommandResult['skipped'] = [];
  const queued: string[] = [];
  const reason = body.reason.trim();
  // One id for the batch: each command's source, and the audit row's, so they link.
  const bulkId = newId();
  for (const id of ids) {
    const unit = found.get(id);
    const kinds = pendingKinds.get(id);
    const skip = (why: string) =>
      skipped.push({ deviceId: id, serialNumber: unit?.serialNumber ?? null, reason: why });
    if (!unit) skip('No such unit');
    else if (unit.controlKind !== 'lock_api')
      skip(`Controlled by ${CONTROL_NAMES[unit.controlKind]}, not a lock API`);
    else if (kinds?.has(body.kind)) skip(`A ${body.kind} is already on its way`);
    else if (unit.lockState === target && !kinds?.has(opposite)) skip(`Already ${target}`);
    else {
      await queueDeviceCommand(ctx, actor, {
        deviceId: id,
        contractId: null,
        kind: body.kind,
        reason,
        source: { type: 'bulk', id: bulkId },
      });
      queued.push(id);
    }
  }
  await writeAudit(ctx.tx, actor, {
    action: 'device.command_bulk',
    entityType: 'device',
    entityId: null,
    after: {
      bulkId,
      kind: body.kind,
      reason,
      queued,
      skipped: skipped.map((s) => ({ deviceId: s.deviceId, reason: s.reason })),
    },
  });
  return { queued: queued.length, skipped };
}
