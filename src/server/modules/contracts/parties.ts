import { eq, sql } from 'drizzle-orm';
import { contractEvents, contracts, customers, deviceModels, devices, users } from '../../../db/schema';
import type { Actor } from '../../audit';
import type { AppContext, Executor, Tx } from '../../context';
import { fieldError } from '../../errors';
import { moveDeviceForContract } from '../devices/service';

/**
 * What the contracts module needs from the customers, devices and users areas, in one place.
 * (To be served by those modules' services as they grow; contracts never write their tables
 * anywhere else.)
 */
export async function customerOf(executor: Executor, id: string) {
  const [row] = await executor.select().from(customers).where(eq(customers.id, id));
  if (!row) throw fieldError('customerId', 'No such customer');
  return row;
}

export async function deviceOf(executor: Executor, id: string, lock = false) {
  const query = executor
    .select({ device: devices, model: deviceModels })
    .from(devices)
    .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
    .where(eq(devices.id, id));
  const [row] = lock ? await query.for('update', { of: devices }) : await query;
  if (!row) throw fieldError('deviceId', 'No such device');
  return row;
}

/** A draft contract holds its device: in stock -> reserved. */
export const reserveDevice = (
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  deviceId: string,
  contractId: string,
  number: string,
) =>
  moveDeviceForContract(ctx, tx, {
    deviceId,
    contractId,
    to: 'reserved',
    reason: `Reserved for contract ${number}`,
    actorId: actor.id,
  });

/** A cancelled draft lets its device go: reserved -> in stock. */
export const releaseDevice = (
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  deviceId: string,
  contractId: string,
  number: string,
) =>
  moveDeviceForContract(ctx, tx, {
    deviceId,
    contractId,
    to: 'in_stock',
    reason: `Contract ${number} cancelled`,
    actorId: actor.id,
  });

/** Activation hands the device over: reserved -> assigned, unlocked, running until the first due date. */
export const assignDevice = (
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  deviceId: string,
  contractId: string,
  number: string,
  activeUntil: string,
) =>
  moveDeviceForContract(ctx, tx, {
    deviceId,
    contractId,
    to: 'assigned',
    reason: `Assigned to contract ${number}`,
    actorId: actor.id,
    activeUntil,
  });

/** Names of everyone who acted on a contract (its makers, approvers and timeline), by user id. */
export async function namesForContract(executor: Executor, contractId: string): Promise<Map<string, string>> {
  const rows = await executor
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(
      sql`${users.id} IN (
        SELECT unnest(ARRAY[created_by, submitted_by, approved_by, activated_by, cancelled_by]) FROM ${contracts} WHERE id = ${contractId}
        UNION SELECT actor_id FROM ${contractEvents} WHERE contract_id = ${contractId})`,
    );
  return new Map(rows.map((row) => [row.id, `${row.firstName} ${row.lastName}`]));
}
