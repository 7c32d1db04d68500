import { eq, sql } from 'drizzle-orm';
import {
  type Device,
  type DeviceModel,
  deviceEndpoints,
  deviceModelEndpoints,
} from '../../../contracts/devices';
import { queryRows } from '../../../db/client';
import { deviceModels, devices } from '../../../db/schema';
import { csvOf, defineList } from '../../list-definition';
import { likePattern, searchCondition } from '../../lists';
import { organisation } from '../../organisation';
import { toDeviceModel, unitCount } from './models';
import { toDevice } from './service';

/** /api/devices: the units. The stock list is read far more often than units change (decision 005). */
export const deviceList = defineList({
  name: 'device',
  endpoint: deviceEndpoints.list,
  // A unit shows its model's name and filters on its category.
  shows: [devices, deviceModels],
  search: (q) => searchCondition(devices.searchText, q),
  filters: {
    status: (status) => eq(devices.status, status),
    modelId: (id) => eq(devices.modelId, id),
    category: (category) => eq(deviceModels.category, category),
    lockState: (lock) => eq(devices.lockState, lock),
    controlKind: (kind) => eq(devices.controlKind, kind),
  },
  sorts: {
    createdAt: { columns: [devices.createdAt] },
    serialNumber: { columns: [devices.serialNumber], unique: true },
    status: { columns: [devices.status, devices.createdAt] },
  },
  tieBreak: devices.id,
  rows: async ({ ctx, where, orderBy, limit, offset }) => {
    const rows = await ctx.db
      .select({ row: devices, model: deviceModels })
      .from(devices)
      .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    return rows.map(({ row, model }) => toDevice(row, model));
  },
  // The category filter reads the model.
  count: async (ctx, where) => {
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM ${devices} JOIN ${deviceModels} ON ${deviceModels.id} = ${devices.modelId}
          ${where ? sql`WHERE ${where}` : sql``}`,
    );
    return Number(row?.n ?? 0);
  },
  csv: csvOf<Device>({ filename: 'devices.csv', noun: 'units' }, [
    { header: 'Serial number', value: (d) => d.serialNumber },
    { header: 'IMEI', value: (d) => d.imei },
    { header: 'Make', value: (d) => d.model.make },
    { header: 'Model', value: (d) => d.model.model },
    { header: 'Category', value: (d) => d.model.category },
    { header: 'Status', value: (d) => d.status },
    { header: 'Lock state', value: (d) => d.lockState },
    { header: 'Active until', value: (d) => d.activeUntil },
    { header: 'Control', value: (d) => d.controlKind },
    { header: 'Token count', value: (d) => d.control?.count },
    { header: 'Created at', value: (d) => d.createdAt },
  ]),
  // Pages are about 22 KB each, so at most 1,000 are kept.
  cache: { totalsTtlMs: 60_000, pages: { ttlMs: 10_000, maxEntries: 1_000 } },
});

/** /api/device-models: the catalogue (a few hundred rows at most: nothing cached). */
export const deviceModelList = defineList({
  name: 'device_model',
  endpoint: deviceModelEndpoints.list,
  shows: [deviceModels, devices],
  search: (q) =>
    sql`lower(${deviceModels.make} || ' ' || ${deviceModels.model} || ' ' || coalesce(${deviceModels.sku}, '')) LIKE ${likePattern(q)}`,
  filters: {
    category: (category) => eq(deviceModels.category, category),
    controlKind: (kind) => eq(deviceModels.controlKind, kind),
    active: (active) => eq(deviceModels.active, active === 'true'),
  },
  sorts: {
    name: { columns: [deviceModels.make, deviceModels.model] },
    createdAt: { columns: [deviceModels.createdAt] },
    retailPrice: { columns: [deviceModels.retailPrice] },
  },
  tieBreak: deviceModels.id,
  rows: async ({ ctx, where, orderBy, limit, offset }) => {
    const [rows, { currency }] = await Promise.all([
      ctx.db
        .select({ row: deviceModels, units: unitCount })
        .from(deviceModels)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
      organisation(ctx, ctx.db),
    ]);
    return rows.map(({ row, units }) => toDeviceModel(row, currency, Number(units)));
  },
  csv: csvOf<DeviceModel>({ filename: 'device-models.csv', noun: 'models' }, [
    { header: 'Make', value: (m) => m.make },
    { header: 'Model', value: (m) => m.model },
    { header: 'Category', value: (m) => m.category },
    { header: 'SKU', value: (m) => m.sku },
    { header: 'Retail price (minor units)', value: (m) => m.retailPrice },
    { header: 'Cost price (minor units)', value: (m) => m.costPrice },
    { header: 'Currency', value: (m) => m.currency },
    { header: 'Control', value: (m) => m.controlKind },
    { header: 'Active', value: (m) => m.active },
    { header: 'Units', value: (m) => m.units },
  ]),
});
