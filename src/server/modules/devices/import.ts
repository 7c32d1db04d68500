import { sql } from 'drizzle-orm';
import {
  type DeviceImportResult,
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  type ImportRowError,
  imeiIssue,
  MAX_TIME_DIVIDER,
  SERIAL_MESSAGE,
  SERIAL_PATTERN,
  STARTING_CODE_ZERO,
} from '../../../contracts/devices';
import { deviceEvents, deviceModels, devices } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { TxContext } from '../../context';
import { parseCsv } from '../../csv';
import { AppError, fieldError } from '../../errors';
import { newId } from '../../ids';
import { uniqueViolation } from '../../unique';
import { deviceListsChanged } from './list-cache';
import { controlColumns, postStockReceipt, takenValues } from './service';

type ModelRow = typeof deviceModels.$inferSelect;
type Column = (typeof IMPORT_COLUMNS)[number];

interface ParsedRow {
  row: number;
  serialNumber: string;
  imei: string | null;
  model: ModelRow;
  control: { secretKey: string; startingCode?: number; timeDivider?: number } | undefined;
}

const PREVIEW_ROWS = 20;
/** A refused import lists at most this many problems (the dry run shows them all). */
const MAX_LISTED_ERRORS = 200;

const columnName = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The catalogue, indexed every way a file may name a model. */
function modelIndex(models: ModelRow[]) {
  const bySku = new Map<string, ModelRow>();
  const byName = new Map<string, ModelRow>();
  const byModel = new Map<string, ModelRow[]>();
  for (const model of models) {
    if (model.sku) bySku.set(model.sku.toLowerCase(), model);
    byName.set(`${model.make} ${model.model}`.toLowerCase(), model);
    const key = model.model.toLowerCase();
    byModel.set(key, [...(byModel.get(key) ?? []), model]);
  }
  return {
    find(sku: string, make: string, model: string): ModelRow | string {
      if (sku) return bySku.get(sku.toLowerCase()) ?? `No device model has the SKU ${sku}`;
      if (make)
        return byName.get(`${make} ${model}`.toLowerCase()) ?? `No device model is called ${make} ${model}`;
      const named = byName.get(model.toLowerCase());
      if (named) return named;
      const matches = byModel.get(model.toLowerCase()) ?? [];
      if (matches.length === 1 && matches[0]) return matches[0];
      return matches.length > 1
        ? `Several makes have a model called ${model}; add a make column or use model_sku`
        : `No device model is called ${model}`;
    },
  };
}

/**
 * Bulk receipt of units from a CSV file. Every row is checked (serial and IMEI format and
 * uniqueness in the file and in the inventory, model, OpenPAYGO settings); a dry run returns the
 * problems and a preview, a real import writes every row or none (one transaction, batched inserts).
 */
export async function importDevices(
  ctx: TxContext,
  actor: Actor,
  input: { csv: string; dryRun: boolean },
): Promise<DeviceImportResult> {
  const records = parseCsv(input.csv);
  const [header, ...data] = records;
  if (!header) throw fieldError('csv', 'The file is empty');
  if (data.length > IMPORT_MAX_ROWS) {
    throw fieldError(
      'csv',
      `At most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows per import; split the file`,
    );
  }
  const errors: ImportRowError[] = [];
  const columns = header.cells.map(columnName);
  const index = new Map<Column, number>();
  columns.forEach((name, position) => {
    if (!(IMPORT_COLUMNS as readonly string[]).includes(name)) {
      errors.push({
        row: header.line,
        field: name || `column ${position + 1}`,
        message: `Unknown column; use ${IMPORT_COLUMNS.join(', ')}`,
      });
    } else if (index.has(name as Column)) {
      errors.push({ row: header.line, field: name, message: 'This column appears twice' });
    } else {
      index.set(name as Column, position);
    }
  });
  if (!index.has('serial_number'))
    errors.push({ row: header.line, field: 'serial_number', message: 'The serial_number column is missing' });
  if (!index.has('model_sku') && !index.has('model')) {
    errors.push({
      row: header.line,
      field: 'model_sku',
      message: 'Name the model in a model_sku column, or a model column (with make)',
    });
  }
  if (index.has('make') && !index.has('model')) {
    errors.push({ row: header.line, field: 'model', message: 'A make column needs a model column' });
  }
  if (errors.length)
    return { dryRun: input.dryRun, rows: data.length, valid: 0, errors, imported: 0, preview: [] };

  const models = modelIndex(await ctx.tx.select().from(deviceModels));
  const cell = (cells: string[], column: Column) => {
    const position = index.get(column);
    return position === undefined ? '' : (cells[position] ?? '').trim();
  };
  const parsed: ParsedRow[] = [];
  const seenSerials = new Map<string, number>();
  const seenImeis = new Map<string, number>();
  for (const record of data) {
    const row = record.line;
    const rowErrors: ImportRowError[] = [];
    const fail = (field: string, message: string) => rowErrors.push({ row, field, message });
    const serialNumber = cell(record.cells, 'serial_number');
    if (!serialNumber) fail('serial_number', 'Serial number is required');
    else if (!SERIAL_PATTERN.test(serialNumber)) fail('serial_number', SERIAL_MESSAGE);
    else if (seenSerials.has(serialNumber))
      fail('serial_number', `Serial number ${serialNumber} is also on row ${seenSerials.get(serialNumber)}`);
    else seenSerials.set(serialNumber, row);

    const imei = cell(record.cells, 'imei') || null;
    if (imei) {
      const issue = imeiIssue(imei);
      if (issue) fail('imei', issue);
      else if (seenImeis.has(imei)) fail('imei', `IMEI ${imei} is also on row ${seenImeis.get(imei)}`);
      else seenImeis.set(imei, row);
    }

    const sku = cell(record.cells, 'model_sku');
    const modelName = cell(record.cells, 'model');
    let model: ModelRow | undefined;
    if (!sku && !modelName) fail(index.has('model_sku') ? 'model_sku' : 'model', 'Name the device model');
    else {
      const found = models.find(sku, cell(record.cells, 'make'), modelName);
      if (typeof found === 'string') fail(sku ? 'model_sku' : 'model', found);
      else if (!found.active)
        fail(
          sku ? 'model_sku' : 'model',
          `${found.make} ${found.model} is deactivated; it takes no new units`,
        );
      else model = found;
    }

    const secretKey = cell(record.cells, 'openpaygo_secret_key');
    const startingCode = cell(record.cells, 'openpaygo_starting_code');
    const divider = cell(record.cells, 'openpaygo_time_divider');
    let control: ParsedRow['control'];
    if (model?.controlKind === 'openpaygo') {
      if (!secretKey)
        fail(
          'openpaygo_secret_key',
          `${model.make} ${model.model} is an OpenPAYGO model: give the secret key`,
        );
      else if (!/^[0-9a-fA-F]{32}$/.test(secretKey))
        fail('openpaygo_secret_key', 'Secret key must be 32 hexadecimal characters (16 bytes)');
      if (startingCode && !/^\d{1,9}$/.test(startingCode)) {
        fail('openpaygo_starting_code', 'Starting code must be a whole number of at most 9 digits');
      } else if (startingCode && Number(startingCode) === 0) {
        // The official library would replace 0 with a key-derived code (decision 029).
        fail('openpaygo_starting_code', STARTING_CODE_ZERO);
      }
      if (
        divider &&
        (!/^\d{1,3}$/.test(divider) || Number(divider) < 1 || Number(divider) > MAX_TIME_DIVIDER)
      ) {
        fail(
          'openpaygo_time_divider',
          `Time divider must be a whole number from 1 to ${MAX_TIME_DIVIDER} (1: days, 24: hours)`,
        );
      }
      control = {
        secretKey: secretKey.toLowerCase(),
        ...(startingCode ? { startingCode: Number(startingCode) } : {}),
        ...(divider ? { timeDivider: Number(divider) } : {}),
      };
    } else if (model && (secretKey || startingCode || divider)) {
      fail(
        secretKey
          ? 'openpaygo_secret_key'
          : startingCode
            ? 'openpaygo_starting_code'
            : 'openpaygo_time_divider',
        `${model.make} ${model.model} is not an OpenPAYGO model; leave the OpenPAYGO columns empty`,
      );
    }
    if (rowErrors.length || !model) errors.push(...rowErrors);
    else parsed.push({ row, serialNumber, imei, model, control });
  }

  // Against the inventory: one query per 5,000 values, not one per row.
  const [takenSerials, takenImeis] = await Promise.all([
    takenValues(
      ctx.tx,
      'serialNumber',
      parsed.map((row) => row.serialNumber),
    ),
    takenValues(
      ctx.tx,
      'imei',
      parsed.flatMap((row) => (row.imei ? [row.imei] : [])),
    ),
  ]);
  const valid = parsed.filter((row) => {
    let ok = true;
    if (takenSerials.has(row.serialNumber)) {
      errors.push({
        row: row.row,
        field: 'serial_number',
        message: `Serial number ${row.serialNumber} is already in the inventory`,
      });
      ok = false;
    }
    if (row.imei && takenImeis.has(row.imei)) {
      errors.push({
        row: row.row,
        field: 'imei',
        message: `IMEI ${row.imei} already belongs to a unit in the inventory`,
      });
      ok = false;
    }
    return ok;
  });
  errors.sort((a, b) => a.row - b.row);
  const preview = valid.slice(0, PREVIEW_ROWS).map((row) => ({
    row: row.row,
    serialNumber: row.serialNumber,
    imei: row.imei,
    model: `${row.model.make} ${row.model.model}`,
    controlKind: row.model.controlKind,
  }));
  const result = {
    dryRun: input.dryRun,
    rows: data.length,
    valid: valid.length,
    errors,
    imported: 0,
    preview,
  };
  if (input.dryRun) return result;
  if (errors.length) {
    const listed = errors.slice(0, MAX_LISTED_ERRORS);
    throw new AppError(
      422,
      'IMPORT_INVALID',
      `${errors.length} problem(s) in ${new Set(errors.map((e) => e.row)).size} row(s); nothing was imported. Fix the file (a dry run lists every problem) and import again`,
      listed.map((e) => ({ field: `row ${e.row}: ${e.field}`, message: e.message })),
    );
  }
  if (!valid.length) throw fieldError('csv', 'The file has no rows to import');

  const now = ctx.clock.now();
  const importId = newId();
  const units = valid.map((row) => ({
    id: newId(),
    serialNumber: row.serialNumber,
    imei: row.imei,
    modelId: row.model.id,
    controlKind: row.model.controlKind,
    costPrice: row.model.costPrice,
    ...controlColumns(ctx, row.control),
  }));
  const column = <K extends keyof (typeof units)[number]>(key: K) =>
    sql.param(units.map((unit) => unit[key]));
  const { tx } = ctx;
  try {
    // One statement per table with arrays: thousands of rows without thousands of parameters.
    await tx.execute(sql`
        INSERT INTO ${devices} (id, serial_number, imei, model_id, status, lock_state, control_kind,
                                openpaygo_secret, openpaygo_starting_code, openpaygo_count, openpaygo_time_divider,
                                cost_price, created_by, created_at, updated_at)
        SELECT u.id, u.serial_number, u.imei, u.model_id, 'in_stock', 'unknown', u.control_kind,
               u.secret, u.starting_code, u.count, u.time_divider, u.cost_price, ${actor.id}::text, ${now}, ${now}
        FROM unnest(${column('id')}::text[], ${column('serialNumber')}::text[], ${column('imei')}::text[],
                    ${column('modelId')}::text[], ${column('controlKind')}::text[], ${column('openpaygoSecret')}::text[],
                    ${column('openpaygoStartingCode')}::text[], ${column('openpaygoCount')}::int[],
                    ${column('openpaygoTimeDivider')}::int[], ${column('costPrice')}::bigint[])
             AS u(id, serial_number, imei, model_id, control_kind, secret, starting_code, count, time_divider, cost_price)`);
    await tx.execute(sql`
        INSERT INTO ${deviceEvents} (id, device_id, from_status, to_status, reason, actor_id, at)
        SELECT new_row_id(), u.id, NULL, 'in_stock', 'Received into stock (import)', ${actor.id}::text, ${now}
        FROM unnest(${column('id')}::text[]) AS u(id)`);
    await deviceListsChanged(ctx, tx);
    await postStockReceipt(ctx, actor, {
      sourceId: importId,
      description: `Stock received: ${units.length} units imported (${units[0]?.serialNumber} to ${units.at(-1)?.serialNumber})`,
      cost: units.reduce((sum, unit) => sum + (unit.costPrice ?? 0), 0),
    });
    await writeAudit(tx, actor, {
      action: 'device.import',
      entityType: 'device',
      entityId: importId,
      after: {
        units: units.length,
        firstSerial: units[0]?.serialNumber,
        lastSerial: units.at(-1)?.serialNumber,
        models: [...new Set(valid.map((row) => row.model.id))],
      },
    });
  } catch (error) {
    if (uniqueViolation(error) === null) throw error;
    throw new AppError(
      409,
      'DUPLICATE_DEVICE',
      'A unit with one of these serial numbers or IMEIs was saved at the same time; nothing was imported. Run a dry run to see which',
    );
  }
  return { ...result, imported: units.length };
}
