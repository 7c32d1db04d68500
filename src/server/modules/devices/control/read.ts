import { asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import {
  type CommandAttempt,
  type DeviceCommand,
  type DeviceCommandWithAttempts,
  deviceControlEndpoints,
  type FleetSummary,
} from '../../../../contracts/device-control';
import type { DeviceStatus } from '../../../../contracts/devices';
import { queryRows } from '../../../../db/client';
import { deviceCommandAttempts, deviceCommands, devices, users } from '../../../../db/schema';
import type { AppContext, Executor } from '../../../context';
import { notFound } from '../../../errors';
import { csvOf, defineList } from '../../../list-definition';
import { searchCondition } from '../../../lists';

const iso = (value: Date | null) => value?.toISOString() ?? null;

const commandColumns = {
  row: deviceCommands,
  serialNumber: devices.serialNumber,
  controlKind: devices.controlKind,
  firstName: users.firstName,
  lastName: users.lastName,
};

type CommandRow = {
  row: typeof deviceCommands.$inferSelect;
  serialNumber: string;
  controlKind: 'openpaygo' | 'lock_api' | 'none';
  firstName: string | null;
  lastName: string | null;
};

function toCommand({ row, serialNumber, controlKind, firstName, lastName }: CommandRow): DeviceCommand {
  const payload = (row.payload ?? {}) as { days?: unknown };
  return {
    id: row.id,
    device: { id: row.deviceId, serialNumber, controlKind },
    contractId: row.contractId,
    kind: row.kind,
    state: row.state,
    reason: row.reason,
    sourceType: row.sourceType,
    days: typeof payload.days === 'number' ? payload.days : null,
    provider: (row.provider as DeviceCommand['provider']) ?? null,
    attempts: row.attempts,
    nextAttemptAt: iso(row.nextAttemptAt),
    lastError: row.lastError,
    requestedBy:
      row.requestedBy && firstName !== null
        ? { id: row.requestedBy, name: `${firstName} ${lastName ?? ''}`.trim() }
        : null,
    createdAt: row.createdAt.toISOString(),
    sentAt: iso(row.sentAt),
    completedAt: iso(row.completedAt),
  };
}

function selectCommands(executor: Executor) {
  return executor
    .select(commandColumns)
    .from(deviceCommands)
    .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
    .leftJoin(users, eq(users.id, deviceCommands.requestedBy));
}

async function attemptsOf(
  executor: Executor,
  ids: readonly string[],
): Promise<Map<string, CommandAttempt[]>> {
  const byCommand = new Map<string, CommandAttempt[]>();
  if (!ids.length) return byCommand;
  const rows = await executor
    .select()
    .from(deviceCommandAttempts)
    .where(inArray(deviceCommandAttempts.commandId, [...ids]))
    .orderBy(asc(deviceCommandAttempts.attempt));
  for (const row of rows) {
    const list = byCommand.get(row.commandId) ?? [];
    list.push({
      id: row.id,
      attempt: row.attempt,
      provider: row.provider,
      outcome: row.outcome,
      startedAt: row.startedAt.toISOString(),
      finishedAt: iso(row.finishedAt),
      error: row.error,
      response: row.response ?? null,
    });
    byCommand.set(row.commandId, list);
  }
  return byCommand;
}

/** GET /api/device-control/commands/:id: one command with every attempt. */
export async function getCommand(ctx: AppContext, id: string): Promise<DeviceCommandWithAttempts> {
  const [row] = await selectCommands(ctx.db).where(eq(deviceCommands.id, id));
  if (!row) throw notFound('Command not found');
  const attempts = await attemptsOf(ctx.db, [id]);
  return { ...toCommand(row), attemptLog: attempts.get(id) ?? [] };
}

/** GET /api/devices/:id/commands: the unit's command history (newest first, the last 100), with attempts. */
export async function deviceCommandHistory(
  ctx: AppContext,
  deviceId: string,
): Promise<DeviceCommandWithAttempts[]> {
  const [device] = await ctx.db.select({ id: devices.id }).from(devices).where(eq(devices.id, deviceId));
  if (!device) throw notFound('Device not found');
  const rows = await selectCommands(ctx.db)
    .where(eq(deviceCommands.deviceId, deviceId))
    .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id))
    .limit(100);
  const attempts = await attemptsOf(
    ctx.db,
    rows.map((row) => row.row.id),
  );
  return rows.map((row) => ({ ...toCommand(row), attemptLog: attempts.get(row.row.id) ?? [] }));
}

/** GET /api/device-control/fleet: controlled units by control kind and lock state, and the log's backlog. */
export async function fleetSummary(ctx: AppContext): Promise<FleetSummary> {
  const [cells, states] = await Promise.all([
    queryRows<{
      control_kind: 'openpaygo' | 'lock_api';
      lock_state: 'locked' | 'unlocked' | 'unknown';
      status: DeviceStatus;
      units: number;
    }>(
      ctx.db,
      sql`SELECT control_kind, lock_state, status, count(*)::int AS units FROM ${devices}
          WHERE control_kind <> 'none' GROUP BY control_kind, lock_state, status
          ORDER BY control_kind, lock_state, status`,
    ),
    queryRows<{ state: string; n: number }>(
      ctx.db,
      sql`SELECT state, count(*)::int AS n FROM ${deviceCommands}
          WHERE state IN ('queued', 'sent', 'failed') GROUP BY state`,
    ),
  ]);
  const count = (state: string) => Number(states.find((row) => row.state === state)?.n ?? 0);
  return {
    cells: cells.map((cell) => ({
      controlKind: cell.control_kind,
      lockState: cell.lock_state,
      status: cell.status,
      units: Number(cell.units),
    })),
    commands: { queued: count('queued'), sent: count('sent'), failed: count('failed') },
  };
}

/** /api/device-control/commands: the command log, newest first, filtered by kind, state, unit and date. */
export const commandList = defineList({
  name: 'device_command',
  endpoint: deviceControlEndpoints.commands,
  shows: [deviceCommands, devices, users],
  search: (q) => searchCondition(devices.searchText, q),
  filters: {
    kind: (kind) => eq(deviceCommands.kind, kind),
    state: (state) => eq(deviceCommands.state, state),
    deviceId: (id) => eq(deviceCommands.deviceId, id),
    from: (date, env) =>
      sql`${deviceCommands.createdAt} >= (${date}::date)::timestamp AT TIME ZONE ${env.timeZone}`,
    to: (date, env) =>
      sql`${deviceCommands.createdAt} < (${date}::date + 1)::timestamp AT TIME ZONE ${env.timeZone}`,
  },
  sorts: { createdAt: { columns: [deviceCommands.createdAt] } },
  tieBreak: deviceCommands.id,
  rows: async ({ ctx, where, orderBy, limit, offset }) => {
    const rows = await selectCommands(ctx.db)
      .where(where as SQL | undefined)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    return rows.map(toCommand);
  },
  count: async (ctx, where) => {
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM ${deviceCommands} JOIN ${devices} ON ${devices.id} = ${deviceCommands.deviceId}
          ${where ? sql`WHERE ${where}` : sql``}`,
    );
    return Number(row?.n ?? 0);
  },
  csv: csvOf<DeviceCommand>({ filename: 'device-commands.csv', noun: 'commands' }, [
    { header: 'Created at', value: (c) => c.createdAt },
    { header: 'Serial number', value: (c) => c.device.serialNumber },
    { header: 'Kind', value: (c) => c.kind },
    { header: 'State', value: (c) => c.state },
    { header: 'Attempts', value: (c) => c.attempts },
    { header: 'Provider', value: (c) => c.provider },
    { header: 'Reason', value: (c) => c.reason },
    { header: 'Last error', value: (c) => c.lastError },
    { header: 'Completed at', value: (c) => c.completedAt },
  ]),
});
