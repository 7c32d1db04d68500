import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { DeviceModel, DeviceModelCreateBody, DeviceModelUpdateBody } from '../../../contracts/devices';
import { deviceModels, devices } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import { tablesChanged } from '../../cache';
import type { AppContext, Executor, TxContext } from '../../context';
import { AppError, notFound, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { savepoint } from '../../transaction';
import { uniqueViolation } from '../../unique';

export type DeviceModelRow = typeof deviceModels.$inferSelect;

const modelName = (row: Pick<DeviceModelRow, 'make' | 'model'>) => `${row.make} ${row.model}`;

export function toDeviceModel(row: DeviceModelRow, currency: string, units: number): DeviceModel {
  return {
    id: row.id,
    make: row.make,
    model: row.model,
    name: modelName(row),
    category: row.category,
    sku: row.sku,
    retailPrice: row.retailPrice,
    costPrice: row.costPrice,
    currency,
    controlKind: row.controlKind,
    active: row.active,
    units,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const unitCount = sql<number>`(SELECT count(*)::int FROM ${devices} WHERE ${devices.modelId} = ${deviceModels.id})`;

/** `currency` is read before any transaction: on PGlite a read outside it would wait for it to end. */
async function present(executor: Executor, id: string, currency: string): Promise<DeviceModel> {
  const [found] = await executor
    .select({ row: deviceModels, units: unitCount })
    .from(deviceModels)
    .where(eq(deviceModels.id, id));
  if (!found) throw notFound('Device model not found');
  return toDeviceModel(found.row, currency, Number(found.units));
}

export async function getDeviceModel(ctx: AppContext, id: string): Promise<DeviceModel> {
  return present(ctx.db, id, (await organisation(ctx, ctx.db)).currency);
}

/** The catalogue row, for units and imports. */
export async function deviceModelRow(executor: Executor, id: string): Promise<DeviceModelRow | undefined> {
  const [row] = await executor.select().from(deviceModels).where(eq(deviceModels.id, id));
  return row;
}

async function duplicateOf(
  executor: Executor,
  values: { make?: string; model?: string; sku?: string | null },
  exceptId?: string,
): Promise<AppError | null> {
  const others = exceptId ? ne(deviceModels.id, exceptId) : undefined;
  if (values.sku) {
    const [bySku] = await executor
      .select()
      .from(deviceModels)
      .where(and(eq(deviceModels.sku, values.sku), others));
    if (bySku) {
      const message = `SKU ${values.sku} already belongs to ${modelName(bySku)}`;
      return new AppError(409, 'DUPLICATE_SKU', message, [{ field: 'sku', message }]);
    }
  }
  if (values.make !== undefined && values.model !== undefined) {
    const [byName] = await executor
      .select()
      .from(deviceModels)
      .where(
        and(
          sql`lower(${deviceModels.make}) = lower(${values.make})`,
          sql`lower(${deviceModels.model}) = lower(${values.model})`,
          others,
        ),
      );
    if (byName) {
      const message = `The model ${modelName(byName)} already exists`;
      return new AppError(409, 'DUPLICATE_MODEL', message, [{ field: 'model', message }]);
    }
  }
  return null;
}

async function translateDuplicate(
  ctx: TxContext,
  error: unknown,
  values: { make?: string; model?: string; sku?: string | null },
  exceptId?: string,
): Promise<never> {
  if (uniqueViolation(error) === null) throw error;
  throw (
    (await duplicateOf(ctx.tx, values, exceptId)) ??
    new AppError(409, 'DUPLICATE_MODEL', 'Another model with the same name or SKU was saved at the same time')
  );
}

export async function createDeviceModel(
  ctx: TxContext,
  actor: Actor,
  input: DeviceModelCreateBody & { sku?: string | null },
): Promise<DeviceModel> {
  const values = { make: input.make, model: input.model, sku: input.sku ?? null };
  const duplicate = await duplicateOf(ctx.tx, values);
  if (duplicate) throw duplicate;
  const id = newId();
  const now = ctx.clock.now();
  const { currency } = await organisation(ctx, ctx.tx);
  try {
    // Under a savepoint: a model saved meanwhile with the same name is named, not a 500.
    return await savepoint(ctx, async ({ tx }) => {
      const [row] = await tx
        .insert(deviceModels)
        .values({
          id,
          make: input.make,
          model: input.model,
          category: input.category,
          sku: input.sku ?? null,
          retailPrice: input.retailPrice,
          costPrice: input.costPrice ?? null,
          controlKind: input.controlKind,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error('Device model insert returned nothing');
      const model = await present(tx, id, currency);
      await writeAudit(tx, actor, {
        action: 'device_model.create',
        entityType: 'device_model',
        entityId: id,
        after: { ...input },
      });
      return model;
    });
  } catch (error) {
    return translateDuplicate(ctx, error, values);
  }
}

export async function updateDeviceModel(
  ctx: TxContext,
  actor: Actor,
  id: string,
  input: DeviceModelUpdateBody & { sku?: string | null },
): Promise<DeviceModel> {
  let names: { make?: string; model?: string; sku?: string | null } = {};
  const { currency } = await organisation(ctx, ctx.tx);
  try {
    return await savepoint(ctx, async ({ tx }) => {
      const [before] = await tx.select().from(deviceModels).where(eq(deviceModels.id, id)).for('update');
      if (!before) throw notFound('Device model not found');
      const changes = Object.fromEntries(
        Object.entries(input).filter(
          ([key, value]) => value !== undefined && before[key as keyof DeviceModelRow] !== value,
        ),
      ) as Partial<DeviceModelRow>;
      if (!Object.keys(changes).length) return present(tx, id, currency);
      names = {
        make: changes.make ?? before.make,
        model: changes.model ?? before.model,
        sku: changes.sku === undefined ? null : changes.sku,
      };
      const duplicate = await duplicateOf(tx, names, id);
      if (duplicate) throw duplicate;
      if (changes.controlKind) {
        const [units] = await tx.select({ n: count() }).from(devices).where(eq(devices.modelId, id));
        if (Number(units?.n ?? 0) > 0) {
          throw unprocessable(
            `${modelName(before)} has ${units?.n} unit(s) controlled as ${before.controlKind}; its control kind cannot change`,
            'MODEL_IN_USE',
          );
        }
      }
      await tx
        .update(deviceModels)
        .set({ ...changes, updatedAt: ctx.clock.now() })
        .where(eq(deviceModels.id, id));
      // Unit and contract lists show the model's name, and units filter on its category.
      await tablesChanged(ctx, tx, deviceModels);
      const model = await present(tx, id, currency);
      await writeAudit(tx, actor, {
        action: 'device_model.update',
        entityType: 'device_model',
        entityId: id,
        before: Object.fromEntries(
          Object.keys(changes).map((key) => [key, before[key as keyof DeviceModelRow]]),
        ),
        after: changes,
      });
      return model;
    });
  } catch (error) {
    return translateDuplicate(ctx, error, names, id);
  }
}

/** A deactivated model stays on its units but takes no new ones. */
export async function setDeviceModelActive(
  ctx: TxContext,
  actor: Actor,
  id: string,
  active: boolean,
): Promise<DeviceModel> {
  const { tx } = ctx;
  const { currency } = await organisation(ctx, tx);
  const [before] = await tx.select().from(deviceModels).where(eq(deviceModels.id, id)).for('update');
  if (!before) throw notFound('Device model not found');
  if (before.active === active) return present(tx, id, currency);
  await tx.update(deviceModels).set({ active, updatedAt: ctx.clock.now() }).where(eq(deviceModels.id, id));
  const model = await present(tx, id, currency);
  await writeAudit(tx, actor, {
    action: active ? 'device_model.activate' : 'device_model.deactivate',
    entityType: 'device_model',
    entityId: id,
    before: { active: before.active },
    after: { active },
  });
  return model;
}

/**
 * The cheapest active model of each category, for the public demo's built-in content: a
 * lender's demo shows its own devices at its own prices before anyone edits it.
 */
export async function cheapestModelPerCategory(
  executor: Executor,
): Promise<Array<{ name: string; category: DeviceModelRow['category']; retailPrice: number }>> {
  return executor
    .selectDistinctOn([deviceModels.category], {
      name: sql<string>`${deviceModels.make} || ' ' || ${deviceModels.model}`,
      category: deviceModels.category,
      retailPrice: deviceModels.retailPrice,
    })
    .from(deviceModels)
    .where(eq(deviceModels.active, true))
    .orderBy(deviceModels.category, deviceModels.retailPrice, deviceModels.id);
}
