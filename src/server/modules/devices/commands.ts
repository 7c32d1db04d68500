import { randomUUID } from 'node:crypto';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { CommandKind } from '../../../contracts/devices';
import { deviceCommands, devices } from '../../../db/schema';
import type { Actor } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { notFound } from '../../errors';
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
}

export async function queueDeviceCommand(
  ctx: TxContext,
  actor: Actor,
  request: CommandRequest,
): Promise<string> {
  const id = randomUUID();
  await ctx.tx.insert(deviceCommands).values({
    id,
    deviceId: request.deviceId,
    contractId: request.contractId,
    kind: request.kind,
    state: 'queued',
    reason: request.reason,
    sourceType: request.source?.type ?? null,
    sourceId: request.source?.id ?? null,
    requestedBy: actor.id,
    createdAt: ctx.clock.now(),
    nextAttemptAt: ctx.clock.now(),
  });
  return id;
}

export interface DeviceControl {
  id: string;
  serialNumber: string;
  controlKind: 'openpaygo' | 'lock_api' | 'none';
  lockState: 'unlocked' | 'locked' | 'unknown';
  activeUntil: string | null;
  /** A lock is queued or on its way (not yet acknowledged): an unlock must follow it. */
  lockPending: boolean;
}

/** What a payment needs to know of a unit to answer it (a token, an unlock). */
export async function deviceControlOf(executor: Executor, deviceId: string): Promise<DeviceControl> {
  const [device] = await executor
    .select({
      id: devices.id,
      serialNumber: devices.serialNumber,
      controlKind: devices.controlKind,
      lockState: devices.lockState,
      activeUntil: devices.activeUntil,
    })
    .from(devices)
    .where(eq(devices.id, deviceId));
  if (!device) throw notFound('Device not found');
  const pending =
    device.controlKind === 'lock_api'
      ? await executor
          .select({ id: deviceCommands.id })
          .from(deviceCommands)
          .where(
            and(
              eq(deviceCommands.deviceId, deviceId),
              eq(deviceCommands.kind, 'lock'),
              inArray(deviceCommands.state, ['queued', 'sent']),
            ),
          )
          .limit(1)
      : [];
  return { ...device, lockPending: pending.length > 0 };
}

/** The date a unit may run until (pay-as-you-go), moved by payments. */
export async function extendDeviceAccess(
  ctx: TxContext,
  deviceId: string,
  activeUntil: string,
): Promise<void> {
  await ctx.tx
    .update(devices)
    .set({ activeUntil, updatedAt: ctx.clock.now() })
    .where(eq(devices.id, deviceId));
  await deviceListsChanged(ctx, ctx.tx);
}

/** Which of these units are controlled (OpenPAYGO or a lock API): a payment must answer them. */
export async function controlledUnits(
  executor: Executor,
  deviceIds: readonly string[],
): Promise<Set<string>> {
  if (!deviceIds.length) return new Set();
  const rows = await executor
    .select({ id: devices.id })
    .from(devices)
    .where(and(inArray(devices.id, [...new Set(deviceIds)]), ne(devices.controlKind, 'none')));
  return new Set(rows.map((row) => row.id));
}
