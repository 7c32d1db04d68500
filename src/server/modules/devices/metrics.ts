import { and, desc, eq, gt } from 'drizzle-orm';
import type { DeviceMetrics, MetricsAnswer } from '../../../contracts/device-metrics';
import { findTextProblem } from '../../../contracts/text';
import { deviceMetrics, deviceMetricsState, devices, deviceTokens } from '../../../db/schema';
import {
  MetricsRequestError,
  metricsAnswer,
  metricsReadings,
  readMetricsRequest,
  replayIssue,
  signatureMatches,
} from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import type { AppContext, TxContext } from '../../context';
import { startOfDayIn } from '../../dates';
import { AppError, badRequest, notFound } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { OPENPAYGO_KEY_PURPOSE } from './service';

/** Tokens sent back in one answer at most (a device far behind catches up over several requests). */
const MAX_TOKENS_IN_ANSWER = 20;

/** Who wrote a metrics request's audit row: the device, by its serial number. */
export function metricsActor(serialNumber: string, request: { ip: string; id: unknown }): Actor {
  return {
    id: null,
    label: 'openpaygo-metrics',
    name: `Device ${serialNumber}`,
    ip: request.ip,
    requestId: String(request.id),
  };
}

function requestError(error: unknown): never {
  if (error instanceof MetricsRequestError) {
    throw badRequest(error.message, [{ field: error.field, message: error.message }]);
  }
  throw error;
}

/**
 * POST /api/openpaygo/device_data (OpenPAYGO Metrics, decision 029): reads a unit's signed
 * request, checks its signature with the unit's key and refuses a replay, records the readings,
 * and answers with the tokens issued after the device's token count, or its active-until time or
 * seconds left when it asks, signed with the key.
 */
export async function receiveMetrics(
  ctx: TxContext,
  text: string,
  caller: { ip: string; id: unknown },
): Promise<MetricsAnswer> {
  let request: ReturnType<typeof readMetricsRequest>;
  try {
    request = readMetricsRequest(text);
  } catch (error) {
    requestError(error);
  }
  const { tx } = ctx;
  const [device] = await tx
    .select({
      id: devices.id,
      controlKind: devices.controlKind,
      secret: devices.openpaygoSecret,
      activeUntil: devices.activeUntil,
    })
    .from(devices)
    .where(eq(devices.serialNumber, request.serialNumber));
  if (device?.controlKind !== 'openpaygo' || !device.secret) {
    throw new AppError(
      404,
      'METRICS_UNKNOWN_DEVICE',
      `No OpenPAYGO unit has the serial number ${request.serialNumber}`,
      [{ field: 'serial_number', message: 'No OpenPAYGO unit has this serial number' }],
    );
  }
  const key = ctx.keyring.decrypt(OPENPAYGO_KEY_PURPOSE, device.secret);
  if (!request.auth) {
    throw new AppError(401, 'METRICS_SIGNATURE_INVALID', 'The request is not signed: auth (a) is required', [
      { field: 'auth', message: 'auth (a) is required' },
    ]);
  }
  if (!signatureMatches(request, key)) {
    throw new AppError(
      401,
      'METRICS_SIGNATURE_INVALID',
      `The signature does not match unit ${request.serialNumber}'s key (auth method ${request.method})`,
      [{ field: 'auth', message: "The signature does not match the unit's key" }],
    );
  }
  const now = ctx.clock.now();
  let readings: ReturnType<typeof metricsReadings>;
  try {
    readings = metricsReadings(request, null, Math.floor(now.getTime() / 1000));
  } catch (error) {
    if (error instanceof MetricsRequestError && request.dataFormatId !== null) {
      const message = `${error.message}. Data format ${request.dataFormatId} is not registered here: send the format in the request (dfo)`;
      throw badRequest(message, [{ field: error.field, message }]);
    }
    requestError(error);
  }
  // PostgreSQL stores no NUL and no unpaired surrogate (decision 014).
  const unsafe = findTextProblem({ data: readings.data, historical_data: readings.history });
  if (unsafe) throw badRequest(`${unsafe.field}: ${unsafe.message}`, [unsafe]);

  // One request at a time per unit: the state row is locked, so a replay racing the original loses.
  await tx
    .insert(deviceMetricsState)
    .values({ deviceId: device.id, lastReceivedAt: now })
    .onConflictDoNothing();
  const [state] = await tx
    .select()
    .from(deviceMetricsState)
    .where(eq(deviceMetricsState.deviceId, device.id))
    .for('update');
  const replay = replayIssue(request, {
    requestCount: state?.lastRequestCount ?? null,
    timestamp: state?.lastRequestTimestamp ?? null,
  });
  if (replay) throw new AppError(409, 'METRICS_REPLAY', replay.message, [replay]);

  // The answer: what the device asked for.
  const tokenCount = readings.data.token_count;
  const tokens =
    typeof tokenCount === 'number'
      ? await tx
          .select({ token: deviceTokens.token })
          .from(deviceTokens)
          .where(and(eq(deviceTokens.deviceId, device.id), gt(deviceTokens.count, tokenCount)))
          .orderBy(deviceTokens.count)
          .limit(MAX_TOKENS_IN_ANSWER)
      : null;
  let activeUntil: number | undefined;
  let secondsLeft: number | undefined;
  if (readings.data.active_until_timestamp_requested || readings.data.active_seconds_left_requested) {
    // The unit runs until its active-until date starts, in the organisation's time zone; a moved
    // business date (decision 019) is as many real days nearer.
    const org = await organisation(ctx, tx);
    const until = device.activeUntil
      ? Math.floor(startOfDayIn(device.activeUntil, org.timeZone) / 1000) - org.businessDateOffset * 86_400
      : 0;
    if (readings.data.active_until_timestamp_requested) activeUntil = Math.max(0, until);
    else secondsLeft = Math.max(0, until - Math.floor(now.getTime() / 1000));
  }
  const answer = metricsAnswer(
    request,
    {
      ...(tokens ? { tokens: tokens.map((t) => t.token) } : {}),
      ...(activeUntil !== undefined ? { activeUntil } : {}),
      ...(secondsLeft !== undefined ? { secondsLeft } : {}),
    },
    key,
  ) as MetricsAnswer;

  const id = newId();
  await tx.insert(deviceMetrics).values({
    id,
    deviceId: device.id,
    receivedAt: now,
    collectedAt: new Date(readings.collectedAt * 1000),
    requestCount: request.requestCount,
    requestTimestamp: request.timestamp,
    authMethod: request.method ?? '',
    data: readings.data,
    history: readings.history,
    tokensSent: tokens?.length ?? 0,
  });
  await tx
    .update(deviceMetricsState)
    .set({
      lastRequestCount: request.requestCount ?? state?.lastRequestCount ?? null,
      lastRequestTimestamp: request.timestamp ?? state?.lastRequestTimestamp ?? null,
      lastReceivedAt: now,
    })
    .where(eq(deviceMetricsState.deviceId, device.id));
  await writeAudit(tx, metricsActor(request.serialNumber, caller), {
    action: 'device.metrics',
    entityType: 'device',
    entityId: device.id,
    after: {
      metricsId: id,
      requestCount: request.requestCount,
      timestamp: request.timestamp,
      readings: Object.keys(readings.data).length,
      historySteps: readings.history.length,
      tokensSent: tokens?.length ?? 0,
    },
  });
  return answer;
}

/** GET /api/devices/:id/metrics: the newest value of each metric and the unit's recent requests. */
export async function deviceMetricsOf(ctx: AppContext, deviceId: string): Promise<DeviceMetrics> {
  const [device] = await ctx.db.select({ id: devices.id }).from(devices).where(eq(devices.id, deviceId));
  if (!device) throw notFound('Device not found');
  const rows = await ctx.db
    .select()
    .from(deviceMetrics)
    .where(eq(deviceMetrics.deviceId, deviceId))
    .orderBy(desc(deviceMetrics.receivedAt), desc(deviceMetrics.collectedAt))
    .limit(20);
  const latest = new Map<string, { value: unknown; at: number }>();
  const keep = (name: string, value: unknown, at: number) => {
    const seen = latest.get(name);
    if (!seen || at > seen.at) latest.set(name, { value, at });
  };
  const requests = rows.map((row) => {
    const collected = row.collectedAt.getTime();
    for (const [name, value] of Object.entries(row.data)) keep(name, value, collected);
    const history = row.history.map((step) => {
      const { timestamp, ...values } = step as Record<string, unknown> & { timestamp: number };
      for (const [name, value] of Object.entries(values)) keep(name, value, timestamp * 1000);
      return { at: new Date(timestamp * 1000).toISOString(), values };
    });
    return {
      id: row.id,
      receivedAt: row.receivedAt.toISOString(),
      collectedAt: row.collectedAt.toISOString(),
      requestCount: row.requestCount,
      requestTimestamp: row.requestTimestamp,
      authMethod: row.authMethod,
      data: row.data,
      history,
      tokensSent: row.tokensSent,
    };
  });
  return {
    latest: [...latest.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, { value, at }]) => ({ name, value, at: new Date(at).toISOString() })),
    requests,
  };
}
