import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterFailedAttempt, lockStateAfter } from '../../../../contracts/device-control';
import type { CommandKind } from '../../../../contracts/devices';
import { queryRows } from '../../../../db/client';
import { deviceCommandAttempts, deviceCommands, devices } from '../../../../db/schema';
import { SYSTEM_ACTOR } from '../../../audit';
import { businessToday } from '../../../business-date';
import type { AppContext, TxContext } from '../../../context';
import { newId } from '../../../ids';
import { organisation } from '../../../organisation';
import { withTransaction } from '../../../transaction';
import { stillPastLockAfter } from '../../contracts/close-of-business';
import { notify } from '../../notifications/service';
import { recordLockState } from '../commands';
import { openPaygoProvider } from './openpaygo';
import { type CommandProvider, DeliveryError, type DeliveryResult } from './provider';
import { lockProviderOf, readControlSettings, type SettingsRow } from './settings';

/**
 * Delivery of the device command log (decision 028). A command is claimed (`FOR UPDATE SKIP
 * LOCKED`, so two workers on two instances never take the same one) and moved to `sent` with its
 * attempt recorded as `pending`, in one short transaction; the provider is called outside any
 * transaction; its answer is recorded in another: `acknowledged` (the unit's lock state follows),
 * `accepted` (a lock API will call back; the command stays `sent`), or a failure, after which the
 * command is queued again with exponential back-off or, after the last attempt, `failed`. A
 * command left `sent` past its deadline (a worker died mid-attempt, or no callback came) is claimed
 * again and its attempt recorded as `timeout`.
 */

/** An attempt in flight longer than this is taken for lost (a worker that died). */
export const ATTEMPT_LEASE_SECONDS = 120;
/** How long a lock API has to call back after accepting a command. */
export const ACK_TIMEOUT_SECONDS = 600;
const BATCH = 25;
/** Locks queued by the close of business's policy (step 3), as their source names them. */
const POLICY_SOURCE = 'close_of_business';
const WITHDRAWN =
  'Withdrawn before delivery: the contract is no longer past its lock-after days (a payment cleared the arrears)';
/** A run delivers at most this many batches; the next run (a minute later) goes on. */
const MAX_BATCHES = 20;

export interface Providers {
  /** Lock-API units: the simulator or the lock API, per the settings. */
  lock: CommandProvider;
  openpaygo: CommandProvider;
}

export function configuredProviders(ctx: AppContext, settings: SettingsRow): Providers {
  return { lock: lockProviderOf(ctx, settings), openpaygo: openPaygoProvider(ctx) };
}

export interface DeliveryRun {
  claimed: number;
  acknowledged: number;
  accepted: number;
  retrying: number;
  failed: number;
  /** Locks the close queued for contracts a payment has since brought back within their lock-after days. */
  withdrawn: number;
}

interface Claimed {
  id: string;
  kind: CommandKind;
  attempt: number;
  deviceId: string;
  serialNumber: string;
  imei: string | null;
  controlKind: 'openpaygo' | 'lock_api' | 'none';
  contractId: string | null;
  reason: string;
  requestedBy: string | null;
  payload: Record<string, unknown> | null;
  provider: CommandProvider;
}

/** Delivers every command due now, batch after batch; answers what became of them. */
export async function deliverDueCommands(
  ctx: AppContext,
  options: { providers?: Providers; batch?: number } = {},
): Promise<DeliveryRun> {
  const settings = await readControlSettings(ctx.db);
  const providers = options.providers ?? configuredProviders(ctx, settings);
  const batch = options.batch ?? BATCH;
  const run: DeliveryRun = { claimed: 0, acknowledged: 0, accepted: 0, retrying: 0, failed: 0, withdrawn: 0 };
  for (let round = 0; round < MAX_BATCHES; round++) {
    const claimed = await withTransaction(ctx, (tx) => claimDue(tx, settings, providers, batch, run));
    run.claimed += claimed.length;
    for (const command of claimed) {
      const result = await attempt(command);
      const outcome = await withTransaction(ctx, (tx) =>
        settle(tx, command.id, command.attempt, result, settings),
      );
      if (outcome !== 'stale') run[outcome] += 1;
    }
    if (claimed.length < batch) break;
  }
  return run;
}

async function attempt(command: Claimed): Promise<DeliveryResult | DeliveryError> {
  try {
    return await command.provider.deliver({
      commandId: command.id,
      kind: command.kind,
      attempt: command.attempt,
      device: { id: command.deviceId, serialNumber: command.serialNumber, imei: command.imei },
      contractId: command.contractId,
      reason: command.reason,
      requestedBy: command.requestedBy,
      payload: command.payload,
    });
  } catch (error) {
    if (error instanceof DeliveryError) return error;
    return new DeliveryError(error instanceof Error ? error.message : String(error));
  }
}

/** Claims up to `limit` due commands (skipping those another worker holds) and starts an attempt on each. */
async function claimDue(
  ctx: TxContext,
  settings: SettingsRow,
  providers: Providers,
  limit: number,
  run: DeliveryRun,
): Promise<Claimed[]> {
  const now = ctx.clock.now();
  const rows = await queryRows<{
    id: string;
    kind: CommandKind;
    state: 'queued' | 'sent';
    attempts: number;
    contract_id: string | null;
    reason: string;
    requested_by: string | null;
    payload: Record<string, unknown> | null;
    source_type: string | null;
    device_id: string;
    serial_number: string;
    imei: string | null;
    control_kind: 'openpaygo' | 'lock_api' | 'none';
  }>(
    ctx.tx,
    sql`SELECT c.id, c.kind, c.state, c.attempts, c.contract_id, c.reason, c.requested_by, c.payload,
               c.source_type, d.id AS device_id, d.serial_number, d.imei, d.control_kind
        FROM ${deviceCommands} c JOIN ${devices} d ON d.id = c.device_id
        WHERE c.state IN ('queued', 'sent') AND c.next_attempt_at <= ${now.toISOString()}::timestamptz
        ORDER BY c.next_attempt_at, c.id
        LIMIT ${limit}
        FOR UPDATE OF c SKIP LOCKED`,
  );
  // The close's locks go out only while their contracts are still past the lock-after days: one
  // that a payment brought back within them (a payment committed while the close's step ran does
  // not see the lock it would undo) is withdrawn, never sent.
  const policyLocks = rows.filter(
    (row) => row.kind === 'lock' && row.source_type === POLICY_SOURCE && row.contract_id,
  );
  const due = await stillPastLockAfter(
    ctx.tx,
    businessToday(ctx, await organisation(ctx, ctx.tx)),
    policyLocks.map((row) => row.contract_id as string),
  );
  const claimed: Claimed[] = [];
  for (const row of rows) {
    if (policyLocks.includes(row) && !due.has(row.contract_id as string)) {
      await ctx.tx
        .update(deviceCommands)
        .set({ state: 'failed', completedAt: now, nextAttemptAt: null, lastError: WITHDRAWN })
        .where(eq(deviceCommands.id, row.id));
      run.withdrawn += 1;
      continue;
    }
    if (row.state === 'sent') {
      // Its attempt never answered (or its callback never came): that attempt timed out.
      await ctx.tx
        .update(deviceCommandAttempts)
        .set({ outcome: 'timeout', finishedAt: now, error: 'No answer or acknowledgement in time' })
        .where(
          and(
            eq(deviceCommandAttempts.commandId, row.id),
            eq(deviceCommandAttempts.attempt, row.attempts),
            inArray(deviceCommandAttempts.outcome, ['pending', 'accepted']),
          ),
        );
      if (row.attempts >= settings.maxAttempts) {
        await failCommand(ctx, row.id, 'No acknowledgement after the last attempt', now);
        run.failed += 1;
        continue;
      }
    }
    const provider =
      row.control_kind === 'openpaygo'
        ? providers.openpaygo
        : row.control_kind === 'lock_api'
          ? providers.lock
          : null;
    if (!provider) {
      await failCommand(ctx, row.id, 'The unit is not controlled by any provider', now);
      run.failed += 1;
      continue;
    }
    const number = row.attempts + 1;
    await ctx.tx
      .update(deviceCommands)
      .set({
        state: 'sent',
        attempts: number,
        sentAt: now,
        provider: provider.name,
        nextAttemptAt: new Date(now.getTime() + ATTEMPT_LEASE_SECONDS * 1000),
      })
      .where(eq(deviceCommands.id, row.id));
    await ctx.tx.insert(deviceCommandAttempts).values({
      id: newId(),
      commandId: row.id,
      attempt: number,
      provider: provider.name,
      outcome: 'pending',
      startedAt: now,
    });
    claimed.push({
      id: row.id,
      kind: row.kind,
      attempt: number,
      deviceId: row.device_id,
      serialNumber: row.serial_number,
      imei: row.imei,
      controlKind: row.control_kind,
      contractId: row.contract_id,
      reason: row.reason,
      requestedBy: row.requested_by,
      payload: row.payload,
      provider,
    });
  }
  return claimed;
}

async function failCommand(ctx: TxContext, id: string, error: string, now: Date): Promise<void> {
  await ctx.tx
    .update(deviceCommands)
    .set({ state: 'failed', completedAt: now, nextAttemptAt: null, lastError: error })
    .where(eq(deviceCommands.id, id));
  await noticeOfFailure(ctx, id);
}

/** Those who send commands by hand hear of one that failed for good: it needs a person now. */
async function noticeOfFailure(ctx: TxContext, id: string): Promise<void> {
  const [row] = await ctx.tx
    .select({
      kind: deviceCommands.kind,
      attempts: deviceCommands.attempts,
      lastError: deviceCommands.lastError,
      deviceId: deviceCommands.deviceId,
      serialNumber: devices.serialNumber,
    })
    .from(deviceCommands)
    .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
    .where(eq(deviceCommands.id, id));
  if (!row) return;
  await notify(
    ctx,
    { permission: 'devices.command' },
    {
      title: `Device ${row.kind} failed`,
      message: `The ${row.kind} for ${row.serialNumber} failed after ${row.attempts} ${row.attempts === 1 ? 'attempt' : 'attempts'}: ${row.lastError ?? 'no answer'}`,
      type: 'error',
      link: `/devices/${row.deviceId}`,
    },
  );
}

export type SettleOutcome = 'acknowledged' | 'accepted' | 'retrying' | 'failed' | 'stale';

/**
 * Records what became of attempt `number` of a command, under its row lock: nothing when the
 * command has moved on meanwhile (a callback came first, or the attempt timed out and was retried).
 */
export async function settle(
  ctx: TxContext,
  id: string,
  number: number,
  result: DeliveryResult | DeliveryError,
  settings: SettingsRow,
): Promise<SettleOutcome> {
  const [row] = await ctx.tx.select().from(deviceCommands).where(eq(deviceCommands.id, id)).for('update');
  if (row?.state !== 'sent' || row.attempts !== number) return 'stale';
  const now = ctx.clock.now();
  const thisAttempt = and(eq(deviceCommandAttempts.commandId, id), eq(deviceCommandAttempts.attempt, number));
  if (result instanceof DeliveryError) {
    await ctx.tx
      .update(deviceCommandAttempts)
      .set({ outcome: 'failed', finishedAt: now, error: result.message, response: result.response ?? null })
      .where(thisAttempt);
    const next = afterFailedAttempt(number, settings.maxAttempts, settings.retryBaseSeconds, now);
    await ctx.tx
      .update(deviceCommands)
      .set({
        state: next.state,
        nextAttemptAt: next.nextAttemptAt,
        lastError: result.message,
        completedAt: next.state === 'failed' ? now : null,
      })
      .where(eq(deviceCommands.id, id));
    if (next.state === 'failed') await noticeOfFailure(ctx, id);
    return next.state === 'failed' ? 'failed' : 'retrying';
  }
  if (result.outcome === 'accepted') {
    await ctx.tx
      .update(deviceCommandAttempts)
      .set({ outcome: 'accepted', response: result.response ?? null })
      .where(thisAttempt);
    await ctx.tx
      .update(deviceCommands)
      .set({ nextAttemptAt: new Date(now.getTime() + ACK_TIMEOUT_SECONDS * 1000) })
      .where(eq(deviceCommands.id, id));
    return 'accepted';
  }
  await ctx.tx
    .update(deviceCommandAttempts)
    .set({ outcome: 'acknowledged', finishedAt: now, response: result.response ?? null })
    .where(thisAttempt);
  await ctx.tx
    .update(deviceCommands)
    .set({ state: 'acknowledged', completedAt: now, nextAttemptAt: null, lastError: null })
    .where(eq(deviceCommands.id, id));
  const lockState = lockStateAfter(row.kind);
  if (lockState) await recordLockState(ctx, SYSTEM_ACTOR, row.deviceId, lockState, { id, kind: row.kind });
  return 'acknowledged';
}
