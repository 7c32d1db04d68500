import { desc, eq, sql } from 'drizzle-orm';
import { type DeviceToken, type IssuedToken, tokenGivesUse } from '../../../contracts/devices';
import { devices, deviceTokens, users } from '../../../db/schema';
import {
  DomainError,
  daysOfTokenValue,
  encodeToken,
  formatMoney,
  maxTokenDays,
  type TokenType,
  tokenValueForDays,
} from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import { businessToday } from '../../business-date';
import type { AppContext, TxContext } from '../../context';
import { AppError, forbidden, notFound, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { deviceListsChanged } from './list-cache';
import { deviceStanding, OPENPAYGO_KEY_PURPOSE } from './service';

export interface TokenRequest {
  type: TokenType;
  /** ADD_TIME / SET_TIME: days (a fraction on a unit with a time divider); the token carries days × divider. */
  days?: number | undefined;
  /** Give at most what one token carries on this unit, rather than refuse more (activation). */
  upToMax?: boolean;
}

/**
 * The value a token carries for `days` on a unit with this divider, as the official library
 * computes it (decision 029): a 422 naming `days` when it is above a token's largest value, or
 * when ADD_TIME would round to nothing.
 */
export function tokenValueOf(type: TokenType, days: number, divider: number): number {
  let value: number;
  try {
    value = tokenValueForDays(days, divider);
  } catch (error) {
    if (error instanceof DomainError) {
      throw new AppError(422, 'RULE', error.message, [{ field: 'days', message: error.message }]);
    }
    throw error;
  }
  // The official library would round; a person asking for a time the unit cannot count is told so.
  if (Math.abs(days * divider - value) > 1e-6) {
    const step = divider === 1 ? '1 day' : `1/${divider} day`;
    const message = `This unit counts time in steps of ${step} (time divider ${divider}): ${days} days is not a whole number of steps`;
    throw new AppError(422, 'RULE', message, [{ field: 'days', message }]);
  }
  if (type === 'ADD_TIME' && value === 0) {
    const message = `${days} days is less than one step of this unit (1/${divider} day)`;
    throw new AppError(422, 'RULE', message, [{ field: 'days', message }]);
  }
  return value;
}

/**
 * Issues the next OpenPAYGO token of a unit inside the caller's transaction (the contracts area
 * issues tokens on activation and payment with it). The unit row is locked, so two requests
 * never use the same count; the count advances as the specification says (ADD_TIME to the next
 * even count, the other types to the next odd one). The caller writes the audit row.
 */
export async function issueTokenInTransaction(
  ctx: TxContext,
  deviceId: string,
  request: TokenRequest,
  issuedBy: string | null,
  contractId: string | null = null,
): Promise<IssuedToken> {
  const { tx } = ctx;
  const [device] = await tx.select().from(devices).where(eq(devices.id, deviceId)).for('update');
  if (!device) throw notFound('Device not found');
  if (
    device.controlKind !== 'openpaygo' ||
    !device.openpaygoSecret ||
    device.openpaygoStartingCode === null
  ) {
    throw unprocessable('This unit is not controlled by OpenPAYGO; it takes no tokens', 'NOT_OPENPAYGO');
  }
  const timed = request.type === 'ADD_TIME' || request.type === 'SET_TIME';
  const divider = device.openpaygoTimeDivider ?? 1;
  const days = request.upToMax ? Math.min(request.days ?? 0, maxTokenDays(divider)) : (request.days ?? 0);
  const value = timed ? tokenValueOf(request.type, days, divider) : null;
  const { token, newCount } = encodeToken({
    secretKey: ctx.keyring.decrypt(OPENPAYGO_KEY_PURPOSE, device.openpaygoSecret),
    startingCode: Number(device.openpaygoStartingCode),
    count: device.openpaygoCount ?? 0,
    type: request.type,
    ...(value === null ? {} : { value }),
  });
  const now = ctx.clock.now();
  const id = newId();
  await tx.update(devices).set({ openpaygoCount: newCount, updatedAt: now }).where(eq(devices.id, deviceId));
  // The unit lists show the token count.
  await deviceListsChanged(ctx, tx);
  await tx.insert(deviceTokens).values({
    id,
    deviceId,
    type: request.type,
    value,
    timeDivider: divider,
    count: newCount,
    token,
    contractId,
    issuedBy,
    issuedAt: now,
  });
  return {
    id,
    token,
    type: request.type,
    value,
    days: value === null ? null : daysOfTokenValue(value, divider),
    timeDivider: divider,
    count: newCount,
    issuedAt: now.toISOString(),
  };
}

/**
 * What a token does to the unit's record (decision 050): ADD_TIME adds its whole days to the
 * unit's time (counted from the business date when the time had run out), SET_TIME sets it from
 * the business date, and DISABLE_PAYG lets the unit run for good; a unit that runs again is
 * recorded unlocked. For tokens given by hand (the token route, a device control `token` command)
 * and a pay-off's DISABLE_PAYG; a payment's ADD_TIME keeps the unit's time with its paid-through
 * date (`extendDeviceAccess`), and a `release` command's state follows its acknowledgement.
 */
export async function recordUseGiven(
  ctx: TxContext,
  deviceId: string,
  issued: Pick<IssuedToken, 'type' | 'days'>,
): Promise<void> {
  if (!tokenGivesUse(issued.type)) return;
  const today = businessToday(ctx, await organisation(ctx, ctx.tx));
  const days = Math.floor(issued.days ?? 0);
  const until =
    issued.type === 'ADD_TIME'
      ? sql`greatest(coalesce(d.active_until, ${today}::date), ${today}::date) + ${days}::int`
      : issued.type === 'SET_TIME'
        ? sql`${today}::date + ${days}::int`
        : sql`d.active_until`;
  const forGood = issued.type === 'DISABLE_PAYG';
  await ctx.tx.execute(sql`UPDATE ${devices} d SET active_until = ${until},
      lock_state = CASE WHEN ${forGood}::boolean OR ${until} > ${today}::date THEN 'unlocked' ELSE d.lock_state END,
      updated_at = ${ctx.clock.now().toISOString()}::timestamptz
    WHERE d.id = ${deviceId}`);
  await deviceListsChanged(ctx, ctx.tx);
}

/**
 * POST /api/devices/:id/tokens: a token issued by hand (device control). A token that gives use
 * to a unit whose contract is in arrears is a manual override: only for those who may override
 * (`mayOverride`, the devices.override permission), with a reason, and audited as one.
 */
export async function issueToken(
  ctx: TxContext,
  actor: Actor,
  deviceId: string,
  request: TokenRequest & { overrideReason?: string | undefined },
  mayOverride: boolean,
): Promise<IssuedToken> {
  const standing = tokenGivesUse(request.type) ? await deviceStanding(ctx, ctx.tx, deviceId) : null;
  const inArrears = standing !== null && standing.dpd > 0;
  if (inArrears) {
    const arrears = `${standing.number} is ${standing.dpd} ${standing.dpd === 1 ? 'day' : 'days'} in arrears (${formatMoney(standing.overdue, standing.currency)} overdue)`;
    if (!mayOverride) {
      throw forbidden(`${arrears}: only a manager may give it use by manual override`, 'ROLE_FORBIDDEN');
    }
    if (!request.overrideReason) {
      const message = `${arrears}: give the reason for the manual override`;
      throw new AppError(
        422,
        'ARREARS_OVERRIDE_REQUIRED',
        message,
        [{ field: 'overrideReason', message: 'Give the reason for the override' }],
        undefined,
        standing,
      );
    }
  }
  const issued = await issueTokenInTransaction(ctx, deviceId, request, actor.id);
  await recordUseGiven(ctx, deviceId, issued);
  // The token itself stays in device_tokens (readable by device control); the audit says what was given.
  const given = { tokenId: issued.id, type: issued.type, value: issued.value, count: issued.count };
  await writeAudit(
    ctx.tx,
    actor,
    inArrears
      ? {
          action: 'device.token_override',
          entityType: 'device',
          entityId: deviceId,
          before: {
            contractId: standing.id,
            number: standing.number,
            dpd: standing.dpd,
            overdue: standing.overdue,
          },
          after: { ...given, reason: request.overrideReason },
        }
      : { action: 'device.token', entityType: 'device', entityId: deviceId, after: given },
  );
  return issued;
}

export async function listTokens(ctx: AppContext, deviceId: string): Promise<DeviceToken[]> {
  const [device] = await ctx.db.select({ id: devices.id }).from(devices).where(eq(devices.id, deviceId));
  if (!device) throw notFound('Device not found');
  const rows = await ctx.db
    .select({
      token: deviceTokens,
      issuerId: users.id,
      issuerFirst: users.firstName,
      issuerLast: users.lastName,
    })
    .from(deviceTokens)
    .leftJoin(users, eq(users.id, deviceTokens.issuedBy))
    .where(eq(deviceTokens.deviceId, deviceId))
    .orderBy(desc(deviceTokens.count))
    .limit(1000);
  return rows.map(({ token, issuerId, issuerFirst, issuerLast }) => ({
    id: token.id,
    token: token.token,
    type: token.type,
    value: token.value,
    days: token.value === null ? null : daysOfTokenValue(token.value, token.timeDivider),
    timeDivider: token.timeDivider,
    count: token.count,
    issuedAt: token.issuedAt.toISOString(),
    issuedBy: issuerId ? { id: issuerId, name: `${issuerFirst ?? ''} ${issuerLast ?? ''}`.trim() } : null,
    contractId: token.contractId,
  }));
}
