import { eq } from 'drizzle-orm';
import type { DeviceCondition } from '../../../contracts/devices';
import { devices } from '../../../db/schema';
import type { Actor } from '../../audit';
import type { TxContext } from '../../context';
import { writeUnitMove } from './lifecycle';
import { deviceListsChanged } from './list-cache';

/**
 * For the recoveries area, inside a repossession's recovery: the unit comes back from its
 * contract as `returned`, with the condition it came back in, and is carried in inventory at its
 * recovery value from now on (its cost: what a later sale or loss takes out of inventory). The
 * caller posts that value into inventory and writes the audit row of the business event.
 * Answers the unit's serial number.
 */
export async function returnUnitFromCustomer(
  ctx: TxContext,
  actor: Actor,
  unit: {
    deviceId: string;
    contractId: string;
    contractNumber: string;
    condition: DeviceCondition;
    conditionNotes: string | null;
    recoveryValue: number;
  },
): Promise<string> {
  const notes = unit.conditionNotes ? `: ${unit.conditionNotes}` : '';
  await writeUnitMove(
    ctx,
    unit.deviceId,
    'return',
    ['assigned'],
    {
      reason: `Repossessed from ${unit.contractNumber}; condition ${unit.condition.replace('_', ' ')}${notes}`,
      contractId: unit.contractId,
    },
    actor,
  );
  const [unitRow] = await ctx.tx
    .update(devices)
    .set({
      condition: unit.condition,
      conditionNotes: unit.conditionNotes,
      costPrice: unit.recoveryValue,
    })
    .where(eq(devices.id, unit.deviceId))
    .returning({ serialNumber: devices.serialNumber });
  await deviceListsChanged(ctx, ctx.tx);
  return unitRow?.serialNumber ?? '';
}
