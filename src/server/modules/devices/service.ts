import { and, desc, eq, ne, sql } from 'drizzle-orm';
import {
  type ContractStanding,
  type Device,
  type DeviceCreateInput,
  type DeviceDetail,
  type DeviceStatus,
  MANUAL_TRANSITIONS,
  moveByHandTo,
  UNIT_TRANSITIONS,
} from '../../../contracts/devices';
import { queryRows } from '../../../db/client';
import { deviceEvents, deviceModels, devices, users } from '../../../db/schema';
import { deriveStartingCode } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import { businessToday } from '../../business-date';
import type { AppContext, AppServices, Executor, TxContext } from '../../context';
import { AppError, fieldError, notFound, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { savepoint } from '../../transaction';
import { transition } from '../../transitions';
import { uniqueViolation } from '../../unique';
import { standingOfDevice } from '../contracts/standing';
import { ACCOUNTS, type Posting, post } from '../ledger/service';
import { type DeviceRow, lockUnit, refusalByHand, unitLifecycle, writeUnitMove } from './lifecycle';
import { deviceListsChanged } from './list-cache';
import { deviceModelRow } from './models';

export type { DeviceRow };

type ModelRow = typeof deviceModels.$inferSelect;

/** Keyring purpose of OpenPAYGO secret keys at rest. */
export const OPENPAYGO_KEY_PURPOSE = 'openpaygo';

function unprocessableField(field: string, message: string, code: 'NOT_OPENPAYGO'): AppError {
  return new AppError(422, code, message, [{ field, message }]);
}

/** The API's view of a unit: everything but the secret key, which never leaves the server. */
export function toDevice(row: DeviceRow, model: ModelRow): Device {
  return {
    id: row.id,
    serialNumber: row.serialNumber,
    imei: row.imei,
    model: {
      id: model.id,
      make: model.make,
      model: model.model,
      name: `${model.make} ${model.model}`,
      category: model.category,
      sku: model.sku,
    },
    status: row.status,
    lockState: row.lockState,
    activeUntil: row.activeUntil,
    controlKind: row.controlKind,
    control:
      row.controlKind === 'openpaygo'
        ? {
            kind: 'openpaygo',
            startingCode: Number(row.openpaygoStartingCode),
            count: row.openpaygoCount ?? 0,
            timeDivider: row.openpaygoTimeDivider ?? 1,
          }
        : null,
    notes: row.notes,
    condition: row.condition,
    conditionNotes: row.conditionNotes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Which unit holds a serial number or IMEI, as a 409 naming it. */
export async function duplicateUnit(
  executor: Executor,
  values: { serialNumber?: string | undefined; imei?: string | null | undefined },
  exceptId?: string,
): Promise<AppError | null> {
  const others = exceptId ? ne(devices.id, exceptId) : undefined;
  for (const field of ['serialNumber', 'imei'] as const) {
    const value = values[field];
    if (!value) continue;
    const column = field === 'serialNumber' ? devices.serialNumber : devices.imei;
    const [existing] = await executor
      .select({
        serialNumber: devices.serialNumber,
        status: devices.status,
        make: deviceModels.make,
        model: deviceModels.model,
      })
      .from(devices)
      .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
      .where(and(eq(column, value), others))
      .limit(1);
    if (existing) {
      const what = field === 'serialNumber' ? `Serial number ${value}` : `IMEI ${value}`;
      const message = `${what} already belongs to ${existing.make} ${existing.model} unit ${existing.serialNumber} (${existing.status.replace('_', ' ')})`;
      return new AppError(409, field === 'serialNumber' ? 'DUPLICATE_SERIAL' : 'DUPLICATE_IMEI', message, [
        { field, message },
      ]);
    }
  }
  return null;
}

async function translateDuplicate(
  ctx: TxContext,
  error: unknown,
  values: { serialNumber?: string | undefined; imei?: string | null | undefined },
  exceptId?: string,
): Promise<never> {
  if (uniqueViolation(error) === null) throw error;
  throw (
    (await duplicateUnit(ctx.tx, values, exceptId)) ??
    new AppError(
      409,
      'DUPLICATE_DEVICE',
      'Another unit with the same serial number or IMEI was saved at the same time',
    )
  );
}

/** The control block must match the model: OpenPAYGO models need one, other models refuse it. */
export function controlIssue(
  model: Pick<ModelRow, 'controlKind' | 'make' | 'model'>,
  hasControl: boolean,
): string | null {
  if (model.controlKind === 'openpaygo' && !hasControl) {
    return `${model.make} ${model.model} is controlled by OpenPAYGO: give the unit's secret key`;
  }
  if (model.controlKind !== 'openpaygo' && hasControl) {
    return `${model.make} ${model.model} is not an OpenPAYGO model (control: ${model.controlKind}); leave the OpenPAYGO settings out`;
  }
  return null;
}

/** OpenPAYGO columns of a new unit: the key sealed with the app key, count 0. */
export function controlColumns(
  ctx: AppServices,
  control:
    | { secretKey: string; startingCode?: number | undefined; timeDivider?: number | undefined }
    | undefined,
): Pick<DeviceRow, 'openpaygoSecret' | 'openpaygoStartingCode' | 'openpaygoCount' | 'openpaygoTimeDivider'> {
  if (!control) {
    return {
      openpaygoSecret: null,
      openpaygoStartingCode: null,
      openpaygoCount: null,
      openpaygoTimeDivider: null,
    };
  }
  return {
    openpaygoSecret: ctx.keyring.encrypt(OPENPAYGO_KEY_PURPOSE, control.secretKey),
    openpaygoStartingCode: String(control.startingCode ?? deriveStartingCode(control.secretKey)),
    openpaygoCount: 0,
    openpaygoTimeDivider: control.timeDivider ?? 1,
  };
}

/** A stock entry at cost: from one account to the other, dated today, in the organisation's currency. */
async function postAtCost(
  ctx: TxContext,
  actor: Actor,
  entry: Pick<Posting, 'description' | 'sourceType' | 'sourceId'> & {
    debit: string;
    credit: string;
    cost: number;
  },
): Promise<void> {
  const org = await organisation(ctx, ctx.tx);
  await post(ctx.tx, actor, {
    businessDate: businessToday(ctx, org),
    description: entry.description,
    sourceType: entry.sourceType,
    sourceId: entry.sourceId,
    currency: org.currency,
    lines: [
      { account: entry.debit, debit: entry.cost },
      { account: entry.credit, credit: entry.cost },
    ],
  });
}

/**
 * Stock received: inventory debited at cost against what the suppliers are owed, one entry per
 * receipt (a unit, or an import). Units without a known cost post nothing.
 */
export async function postStockReceipt(
  ctx: TxContext,
  actor: Actor,
  receipt: { sourceId: string; description: string; cost: number },
): Promise<void> {
  if (receipt.cost <= 0) return;
  await postAtCost(ctx, actor, {
    ...receipt,
    sourceType: 'stock_receipt',
    debit: ACCOUNTS.inventory,
    credit: ACCOUNTS.supplierPayables,
  });
}

/**
 * Statuses in which a unit sits in inventory at cost (contracts move it out on activation); a
 * unit returned from a customer is back in at its recovery value (returns.ts).
 */
const IN_INVENTORY: ReadonlySet<DeviceStatus> = new Set(['in_stock', 'reserved', 'returned']);

/** What inventory losses hold for one unit: its losses less its recoveries, at cost. */
async function unitLossOnBooks(ctx: TxContext, deviceId: string): Promise<number> {
  const [row] = await queryRows<{ net: string | null }>(
    ctx.tx,
    sql`SELECT sum(l.debit - l.credit) AS net
        FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id
        WHERE e.source_type IN ('inventory_loss', 'inventory_recovery') AND e.source_id = ${deviceId}
          AND l.account_code = ${ACCOUNTS.inventoryLosses}`,
  );
  return Number(row?.net ?? 0);
}

/**
 * A manual status change that takes a unit out of inventory (lost, written off) or brings a lost
 * one back: the unit's cost moves between inventory and inventory losses, so the inventory
 * account keeps equal to the cost of the units on the shelf. Units without a cost post nothing.
 */
async function postInventoryMove(
  ctx: TxContext,
  actor: Actor,
  unit: DeviceRow,
  to: DeviceStatus,
): Promise<void> {
  const leaves = IN_INVENTORY.has(unit.status) && !IN_INVENTORY.has(to);
  const found = unit.status === 'lost' && IN_INVENTORY.has(to);
  if (!leaves && !found) return;
  // A found unit comes back at what its loss took out (nothing if no loss was posted for it).
  const cost = leaves ? (unit.costPrice ?? 0) : await unitLossOnBooks(ctx, unit.id);
  if (cost <= 0) return;
  await postAtCost(ctx, actor, {
    description: leaves
      ? `Out of stock, ${to.replace('_', ' ')}: ${unit.serialNumber}`
      : `Lost unit back in stock: ${unit.serialNumber}`,
    sourceType: leaves ? 'inventory_loss' : 'inventory_recovery',
    sourceId: unit.id,
    debit: leaves ? ACCOUNTS.inventoryLosses : ACCOUNTS.inventory,
    credit: leaves ? ACCOUNTS.inventory : ACCOUNTS.inventoryLosses,
    cost,
  });
}

export async function createDevice(
  ctx: TxContext,
  actor: Actor,
  input: DeviceCreateInput,
): Promise<DeviceDetail> {
  const model = await deviceModelRow(ctx.tx, input.modelId);
  if (!model) throw fieldError('modelId', 'This device model does not exist');
  if (!model.active)
    throw unprocessable(
      `${model.make} ${model.model} is deactivated; it takes no new units`,
      'MODEL_INACTIVE',
    );
  const issue = controlIssue(model, input.control !== undefined);
  if (issue) throw fieldError('control', issue);
  const duplicate = await duplicateUnit(ctx.tx, input);
  if (duplicate) throw duplicate;
  const id = newId();
  const now = ctx.clock.now();
  try {
    // Under a savepoint: a unit saved meanwhile with the same serial is named, not a 500.
    return await savepoint(ctx, async (ctx) => {
      const { tx } = ctx;
      await tx.insert(devices).values({
        id,
        serialNumber: input.serialNumber,
        imei: input.imei ?? null,
        modelId: model.id,
        status: 'in_stock',
        lockState: 'unknown',
        controlKind: model.controlKind,
        ...controlColumns(ctx, input.control),
        notes: input.notes || null,
        costPrice: model.costPrice,
        createdBy: actor.id,
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(deviceEvents).values({
        id: newId(),
        deviceId: id,
        fromStatus: null,
        toStatus: 'in_stock',
        reason: 'Received into stock',
        actorId: actor.id,
        at: now,
      });
      await deviceListsChanged(ctx, tx);
      await postStockReceipt(ctx, actor, {
        sourceId: id,
        description: `Stock received: ${input.serialNumber} (${model.make} ${model.model})`,
        cost: model.costPrice ?? 0,
      });
      const device = await presentDetail(ctx, tx, id);
      await writeAudit(tx, actor, {
        action: 'device.create',
        entityType: 'device',
        entityId: id,
        after: {
          serialNumber: input.serialNumber,
          imei: input.imei ?? null,
          modelId: model.id,
          controlKind: model.controlKind,
          startingCode: device.control?.startingCode ?? null,
        },
      });
      return device;
    });
  } catch (error) {
    return translateDuplicate(ctx, error, input);
  }
}

const eventActor = users;

/** Where the unit's live contract stands today (business date of the organisation), or null. */
export async function deviceStanding(
  ctx: AppServices,
  executor: Executor,
  deviceId: string,
): Promise<ContractStanding | null> {
  const org = await organisation(ctx, executor);
  return standingOfDevice(executor, deviceId, org, businessToday(ctx, org));
}

/** A unit's page: the unit, its history, and the live contract it is with as that contract's page figures it. */
async function presentDetail(ctx: AppServices, executor: Executor, id: string): Promise<DeviceDetail> {
  const [found] = await executor
    .select({ row: devices, model: deviceModels })
    .from(devices)
    .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
    .where(eq(devices.id, id));
  if (!found) throw notFound('Device not found');
  const events = await executor
    .select({
      event: deviceEvents,
      actorId: eventActor.id,
      actorFirstName: eventActor.firstName,
      actorLastName: eventActor.lastName,
    })
    .from(deviceEvents)
    .leftJoin(eventActor, eq(eventActor.id, deviceEvents.actorId))
    .where(eq(deviceEvents.deviceId, id))
    .orderBy(desc(deviceEvents.at), desc(deviceEvents.id))
    .limit(500);
  return {
    ...toDevice(found.row, found.model),
    events: events.map(({ event, actorId, actorFirstName, actorLastName }) => ({
      id: event.id,
      at: event.at.toISOString(),
      from: (event.fromStatus as DeviceStatus | null) ?? null,
      to: event.toStatus as DeviceStatus,
      reason: event.reason,
      contractId: event.contractId,
      actor: actorId ? { id: actorId, name: `${actorFirstName ?? ''} ${actorLastName ?? ''}`.trim() } : null,
    })),
    allowedTransitions: [...MANUAL_TRANSITIONS[found.row.status]],
    contract: await deviceStanding(ctx, executor, id),
  };
}

export function getDevice(ctx: AppContext, id: string): Promise<DeviceDetail> {
  return presentDetail(ctx, ctx.db, id);
}

export async function updateDevice(
  ctx: TxContext,
  actor: Actor,
  id: string,
  input: {
    imei?: string | null | undefined;
    notes?: string | null | undefined;
    timeDivider?: number | undefined;
  },
): Promise<DeviceDetail> {
  try {
    return await savepoint(ctx, async (ctx) => {
      const { tx } = ctx;
      const before = await lockUnit(ctx, id);
      const changes: Partial<DeviceRow> = {};
      if (input.imei !== undefined && input.imei !== before.imei) changes.imei = input.imei;
      if (input.notes !== undefined && (input.notes || null) !== before.notes)
        changes.notes = input.notes || null;
      if (input.timeDivider !== undefined) {
        if (before.controlKind !== 'openpaygo') {
          throw unprocessableField(
            'timeDivider',
            'Only OpenPAYGO units have a time divider',
            'NOT_OPENPAYGO',
          );
        }
        // Set to match the device's firmware; tokens issued before keep the divider they were made with.
        if (input.timeDivider !== before.openpaygoTimeDivider)
          changes.openpaygoTimeDivider = input.timeDivider;
      }
      if (!Object.keys(changes).length) return presentDetail(ctx, tx, id);
      const duplicate = await duplicateUnit(tx, { imei: changes.imei }, id);
      if (duplicate) throw duplicate;
      await tx
        .update(devices)
        .set({ ...changes, updatedAt: ctx.clock.now() })
        .where(eq(devices.id, id));
      // The IMEI is part of the search text: counts of searches may change.
      await deviceListsChanged(ctx, tx);
      const device = await presentDetail(ctx, tx, id);
      await writeAudit(tx, actor, {
        action: 'device.update',
        entityType: 'device',
        entityId: id,
        before: Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof DeviceRow]])),
        after: changes,
      });
      return device;
    });
  } catch (error) {
    return translateDuplicate(ctx, error, { imei: input.imei }, id);
  }
}

/**
 * A manual status change, along the unit's moves by hand (UNIT_TRANSITIONS; contracts own
 * `assigned`, `returned` and `repossessed`). A unit leaving or re-entering inventory moves its cost.
 */
export async function changeDeviceStatus(
  ctx: TxContext,
  actor: Actor,
  id: string,
  change: { status: DeviceStatus; reason: string },
): Promise<DeviceDetail> {
  const move = moveByHandTo(change.status);
  // No move by hand leads there: refused whatever the unit's status.
  if (!move) throw refusalByHand(await lockUnit(ctx, id), change.status);
  await transition(ctx, unitLifecycle, id, move, {
    actor,
    async check(before) {
      if (before.status !== 'reserved') return;
      // A draft contract holds its unit: only that contract (cancelled or activated) lets it go.
      const [reservation] = await ctx.tx
        .select({ contractId: deviceEvents.contractId })
        .from(deviceEvents)
        .where(and(eq(deviceEvents.deviceId, id), eq(deviceEvents.toStatus, 'reserved')))
        .orderBy(desc(deviceEvents.at), desc(deviceEvents.id))
        .limit(1);
      if (reservation?.contractId) {
        throw unprocessable(
          'The unit is reserved for a contract; cancel or activate that contract instead',
          'CONTRACT_MANAGED',
        );
      }
    },
    change: () => ({ reason: change.reason, contractId: null }),
    effects: async (before) => {
      await postInventoryMove(ctx, actor, before, change.status);
    },
    audit: (before) => ({
      action: 'device.status',
      entityType: 'device',
      entityId: id,
      before: { status: before.status },
      after: { status: change.status, reason: change.reason },
    }),
  });
  return presentDetail(ctx, ctx.tx, id);
}

/**
 * For the contracts area, inside its transition: reserves a unit for a draft, assigns it on
 * activation (unlocked, running until `activeUntil`), or lets it go (back to stock, returned,
 * repossessed). One statement locks the unit, checks the move and records it with the contract;
 * the contract's transition notifies and writes the audit row of the business event.
 */
export async function moveDeviceForContract(
  ctx: TxContext,
  actor: Actor,
  move: {
    deviceId: string;
    contractId: string;
    move: 'reserve' | 'assign' | 'release' | 'return' | 'repossess';
    reason: string;
    activeUntil?: string;
  },
): Promise<void> {
  await writeUnitMove(
    ctx,
    move.deviceId,
    move.move,
    UNIT_TRANSITIONS[move.move].from,
    {
      reason: move.reason,
      contractId: move.contractId,
      set: move.move === 'assign' ? { lockState: 'unlocked', activeUntil: move.activeUntil ?? null } : {},
    },
    actor,
  );
}

/** Which of these serial numbers (or IMEIs) units already have (for imports). */
export async function takenValues(
  executor: Executor,
  field: 'serialNumber' | 'imei',
  values: string[],
): Promise<Set<string>> {
  const taken = new Set<string>();
  const column = field === 'serialNumber' ? devices.serialNumber : devices.imei;
  for (let start = 0; start < values.length; start += 5000) {
    const chunk = values.slice(start, start + 5000);
    if (!chunk.length) continue;
    const rows = await executor
      .select({ value: column })
      .from(devices)
      .where(sql`${column} = ANY(${sql.param(chunk)}::text[])`);
    for (const row of rows) if (row.value) taken.add(row.value);
  }
  return taken;
}
