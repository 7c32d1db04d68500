import { eq } from 'drizzle-orm';
import type { ControlSettings, ControlSettingsBody } from '../../../../contracts/device-control';
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_RETRY_BASE_SECONDS,
  deviceControlEndpoints,
} from '../../../../contracts/device-control';
import { deviceControlSettings } from '../../../../db/schema';
import { type Actor, writeAudit } from '../../../audit';
import type { AppServices, Executor, TxContext } from '../../../context';
import { fieldError } from '../../../errors';
import { lockApiProvider } from './lock-api';
import { type CommandProvider, simulatorProvider } from './provider';

/** The keyring purpose the lock API's signing secret is encrypted under. */
export const LOCK_API_SECRET_PURPOSE = 'device-control.lock-api';

export type SettingsRow = typeof deviceControlSettings.$inferSelect;

const DEFAULTS: SettingsRow = {
  id: 'default',
  provider: 'simulator',
  lockApiUrl: null,
  lockApiSecret: null,
  simulatorLatencyMs: 200,
  simulatorFailureRate: 0,
  maxAttempts: DEFAULT_MAX_ATTEMPTS,
  retryBaseSeconds: DEFAULT_RETRY_BASE_SECONDS,
  updatedBy: null,
  updatedAt: null,
};

/** The settings row (the migration inserts it; the defaults stand in if it was removed). */
export async function readControlSettings(executor: Executor): Promise<SettingsRow> {
  const [row] = await executor
    .select()
    .from(deviceControlSettings)
    .where(eq(deviceControlSettings.id, 'default'));
  return row ?? DEFAULTS;
}

export function toControlSettings(row: SettingsRow): ControlSettings {
  return {
    provider: row.provider,
    lockApiUrl: row.lockApiUrl,
    lockApiSecretSet: row.lockApiSecret !== null,
    simulatorLatencyMs: row.simulatorLatencyMs,
    simulatorFailureRate: row.simulatorFailureRate,
    maxAttempts: row.maxAttempts,
    retryBaseSeconds: row.retryBaseSeconds,
    updatedAt: row.updatedAt?.toISOString() ?? null,
    callbackPath: deviceControlEndpoints.ack.path,
  };
}

/** PUT /api/device-control/settings: audited, the secret never in the audit row (only whether it changed). */
export async function updateControlSettings(
  ctx: TxContext,
  actor: Actor,
  body: ControlSettingsBody,
): Promise<ControlSettings> {
  const before = await readControlSettings(ctx.tx);
  if (body.provider === 'lock_api' && body.lockApiSecret === undefined && !before.lockApiSecret)
    throw fieldError('lockApiSecret', 'The lock API needs its signing secret');
  const now = ctx.clock.now();
  const values = {
    provider: body.provider,
    lockApiUrl: body.lockApiUrl ?? null,
    lockApiSecret:
      body.lockApiSecret !== undefined
        ? ctx.keyring.encrypt(LOCK_API_SECRET_PURPOSE, body.lockApiSecret)
        : before.lockApiSecret,
    simulatorLatencyMs: body.simulatorLatencyMs,
    simulatorFailureRate: body.simulatorFailureRate,
    maxAttempts: body.maxAttempts,
    retryBaseSeconds: body.retryBaseSeconds,
    updatedBy: actor.id,
    updatedAt: now,
  };
  const [row] = await ctx.tx
    .insert(deviceControlSettings)
    .values({ id: 'default', ...values })
    .onConflictDoUpdate({ target: deviceControlSettings.id, set: values })
    .returning();
  const after = toControlSettings(row as SettingsRow);
  const { updatedAt: _before, callbackPath: _b, ...beforeShown } = toControlSettings(before);
  const { updatedAt: _after, callbackPath: _a, ...afterShown } = after;
  await writeAudit(ctx.tx, actor, {
    action: 'device_control.settings',
    entityType: 'device_control_settings',
    entityId: 'default',
    before: beforeShown,
    after: { ...afterShown, secretChanged: body.lockApiSecret !== undefined },
  });
  return after;
}

/**
 * The provider lock-API units' commands go to, from the settings: the simulator, or the lock API
 * with its decrypted secret. A lock API chosen without a secret signs with an empty one: the
 * provider refuses it, and the attempt shows why.
 */
export function lockProviderOf(ctx: AppServices, settings: SettingsRow): CommandProvider {
  if (settings.provider === 'lock_api' && settings.lockApiUrl) {
    return lockApiProvider({
      url: settings.lockApiUrl,
      secret: settings.lockApiSecret
        ? ctx.keyring.decrypt(LOCK_API_SECRET_PURPOSE, settings.lockApiSecret)
        : '',
      clock: ctx.clock,
    });
  }
  return simulatorProvider({
    latencyMs: settings.simulatorLatencyMs,
    failureRate: settings.simulatorFailureRate,
  });
}

/** The lock API's secret, decrypted, for verifying its callbacks; null when none is stored. */
export function lockApiSecretOf(ctx: AppServices, settings: SettingsRow): string | null {
  return settings.lockApiSecret ? ctx.keyring.decrypt(LOCK_API_SECRET_PURPOSE, settings.lockApiSecret) : null;
}
