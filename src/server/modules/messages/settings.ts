import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type MessagingSettings,
  type messagingSettingsBody,
  messagingSettingsEndpoints,
} from '../../../contracts/messaging-settings';
import { messagingSettings } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { AppServices, Executor, TxContext } from '../../context';
import { fieldError } from '../../errors';

/**
 * The messaging providers' settings (one row, `id = 'default'`, inserted by the migration).
 * Every credential is encrypted with the app key under its own keyring purpose.
 */

export type MessagingSettingsRow = typeof messagingSettings.$inferSelect;

/** Keyring purposes, one per credential, so a value sealed for one cannot be read as another. */
export const SECRET_PURPOSES = {
  smsApiKey: 'messaging.sms',
  whatsappAccessToken: 'messaging.whatsapp.access-token',
  whatsappAppSecret: 'messaging.whatsapp.app-secret',
  whatsappVerifyToken: 'messaging.whatsapp.verify-token',
  smtpPassword: 'messaging.smtp',
  aiApiKey: 'messaging.ai',
} as const;
export type SecretField = keyof typeof SECRET_PURPOSES;

export const MESSAGING_DEFAULTS: MessagingSettingsRow = {
  id: 'default',
  smsProvider: 'simulator',
  smsUrl: null,
  smsUsername: null,
  smsApiKey: null,
  smsSenderId: null,
  smsCostPerSegment: 0,
  smsRatePerSecond: 50,
  whatsappProvider: 'simulator',
  whatsappApiUrl: null,
  whatsappPhoneNumberId: null,
  whatsappAccessToken: null,
  whatsappAppSecret: null,
  whatsappVerifyToken: null,
  whatsappRatePerSecond: 50,
  emailProvider: 'simulator',
  smtpHost: null,
  smtpPort: null,
  smtpSecure: null,
  smtpUser: null,
  smtpPassword: null,
  emailFrom: null,
  emailRatePerSecond: 10,
  simulatorFailureRate: 0,
  aiBaseUrl: null,
  aiApiKey: null,
  aiModel: null,
  updatedBy: null,
  updatedAt: null,
};

/** The settings row (the migration inserts it; the defaults stand in if it was removed). */
export async function readMessagingSettings(executor: Executor): Promise<MessagingSettingsRow> {
  const [row] = await executor.select().from(messagingSettings).where(eq(messagingSettings.id, 'default'));
  return row ?? MESSAGING_DEFAULTS;
}

/** One credential decrypted; null when none is stored. */
export function secretOf(ctx: Pick<AppServices, 'keyring'>, row: MessagingSettingsRow, field: SecretField) {
  const sealed = row[field];
  return sealed ? ctx.keyring.decrypt(SECRET_PURPOSES[field], sealed) : null;
}

/** The WhatsApp credentials decrypted: the webhook checks its signature and handshake with these. */
export function whatsappSecretsOf(
  ctx: Pick<AppServices, 'keyring'>,
  row: MessagingSettingsRow,
): { appSecret: string | null; verifyToken: string | null; accessToken: string | null } {
  return {
    appSecret: secretOf(ctx, row, 'whatsappAppSecret'),
    verifyToken: secretOf(ctx, row, 'whatsappVerifyToken'),
    accessToken: secretOf(ctx, row, 'whatsappAccessToken'),
  };
}

/** The AI endpoint's settings with its key decrypted; null when no endpoint is configured. */
export function aiEndpointOf(
  ctx: Pick<AppServices, 'keyring'>,
  row: MessagingSettingsRow,
): { baseUrl: string; apiKey: string | null; model: string | null } | null {
  if (!row.aiBaseUrl) return null;
  return { baseUrl: row.aiBaseUrl, apiKey: secretOf(ctx, row, 'aiApiKey'), model: row.aiModel };
}

/** The keyring purpose the SMS delivery-report token is derived under. */
export const SMS_CALLBACK_PURPOSE = 'messaging.sms-callback';

/** The token the SMS gateway's delivery reports carry in their URL (derived from the app key: nothing stored). */
export function smsCallbackToken(ctx: Pick<AppServices, 'keyring'>): string {
  return ctx.keyring.sign(SMS_CALLBACK_PURPOSE, 'default');
}

/** Whether a delivery report's token is ours (constant time). */
export function smsCallbackTokenValid(ctx: Pick<AppServices, 'keyring'>, token: string | undefined): boolean {
  return typeof token === 'string' && ctx.keyring.verify(SMS_CALLBACK_PURPOSE, 'default', token);
}

/** The settings as the API shows them: every credential only as whether it is set. */
export function toMessagingSettings(
  ctx: Pick<AppServices, 'keyring' | 'config'>,
  row: MessagingSettingsRow,
): MessagingSettings {
  const base = ctx.config.PUBLIC_URL?.replace(/\/+$/, '') ?? '';
  return {
    smsProvider: row.smsProvider,
    smsUrl: row.smsUrl,
    smsUsername: row.smsUsername,
    smsApiKeySet: row.smsApiKey !== null,
    smsSenderId: row.smsSenderId,
    smsCostPerSegment: row.smsCostPerSegment,
    smsRatePerSecond: row.smsRatePerSecond,
    whatsappProvider: row.whatsappProvider,
    whatsappApiUrl: row.whatsappApiUrl,
    whatsappPhoneNumberId: row.whatsappPhoneNumberId,
    whatsappAccessTokenSet: row.whatsappAccessToken !== null,
    whatsappAppSecretSet: row.whatsappAppSecret !== null,
    whatsappVerifyTokenSet: row.whatsappVerifyToken !== null,
    whatsappRatePerSecond: row.whatsappRatePerSecond,
    emailProvider: row.emailProvider,
    smtpHost: row.smtpHost,
    smtpPort: row.smtpPort,
    smtpSecure: row.smtpSecure === 'true',
    smtpUser: row.smtpUser,
    smtpPasswordSet: row.smtpPassword !== null,
    emailFrom: row.emailFrom,
    emailRatePerSecond: row.emailRatePerSecond,
    simulatorFailureRate: row.simulatorFailureRate,
    aiBaseUrl: row.aiBaseUrl,
    aiApiKeySet: row.aiApiKey !== null,
    aiModel: row.aiModel,
    updatedAt: row.updatedAt?.toISOString() ?? null,
    smsCallbackUrl: `${base}${messagingSettingsEndpoints.smsStatus.path}?token=${smsCallbackToken(ctx)}`,
    whatsappWebhookUrl: `${base}${WHATSAPP_WEBHOOK_PATH}`,
  };
}

/** Where WhatsApp posts (the conversations area serves it). */
const WHATSAPP_WEBHOOK_PATH = '/api/webhooks/whatsapp';

/**
 * PUT /api/messaging/settings: every field replaced; a credential given is encrypted, one left
 * out is kept, null removes it. Audited with the credentials only as changed or not.
 */
export async function updateMessagingSettings(
  ctx: TxContext,
  actor: Actor,
  body: z.output<typeof messagingSettingsBody>,
): Promise<MessagingSettings> {
  const before = await readMessagingSettings(ctx.tx);
  const sealed = (field: SecretField) => {
    const given = body[field];
    if (given === undefined) return before[field];
    return given === null ? null : ctx.keyring.encrypt(SECRET_PURPOSES[field], given);
  };
  const values = {
    smsProvider: body.smsProvider,
    smsUrl: body.smsUrl ?? null,
    smsUsername: body.smsUsername ?? null,
    smsApiKey: sealed('smsApiKey'),
    smsSenderId: body.smsSenderId ?? null,
    smsCostPerSegment: body.smsCostPerSegment,
    smsRatePerSecond: body.smsRatePerSecond,
    whatsappProvider: body.whatsappProvider,
    whatsappApiUrl: body.whatsappApiUrl ?? null,
    whatsappPhoneNumberId: body.whatsappPhoneNumberId ?? null,
    whatsappAccessToken: sealed('whatsappAccessToken'),
    whatsappAppSecret: sealed('whatsappAppSecret'),
    whatsappVerifyToken: sealed('whatsappVerifyToken'),
    whatsappRatePerSecond: body.whatsappRatePerSecond,
    emailProvider: body.emailProvider,
    smtpHost: body.smtpHost ?? null,
    smtpPort: body.smtpPort ?? null,
    smtpSecure: body.smtpSecure ? 'true' : 'false',
    smtpUser: body.smtpUser ?? null,
    smtpPassword: sealed('smtpPassword'),
    emailFrom: body.emailFrom ?? null,
    emailRatePerSecond: body.emailRatePerSecond,
    simulatorFailureRate: body.simulatorFailureRate,
    aiBaseUrl: body.aiBaseUrl ?? null,
    aiApiKey: sealed('aiApiKey'),
    aiModel: body.aiModel ?? null,
    updatedBy: actor.id,
    updatedAt: ctx.clock.now(),
  };
  // A real provider chosen without its credential would fail every message: said now, on the field.
  if (values.smsProvider === 'http' && !values.smsApiKey)
    throw fieldError('smsApiKey', 'The SMS gateway needs its API key');
  if (values.whatsappProvider === 'cloud' && !values.whatsappAccessToken)
    throw fieldError('whatsappAccessToken', 'The WhatsApp Cloud API needs its access token');
  const [row] = await ctx.tx
    .insert(messagingSettings)
    .values({ id: 'default', ...values })
    .onConflictDoUpdate({ target: messagingSettings.id, set: values })
    .returning();
  const after = toMessagingSettings(ctx, row as MessagingSettingsRow);
  const shown = ({ updatedAt: _u, smsCallbackUrl: _s, whatsappWebhookUrl: _w, ...rest }: MessagingSettings) =>
    rest;
  await writeAudit(ctx.tx, actor, {
    action: 'messaging.settings',
    entityType: 'messaging_settings',
    entityId: 'default',
    before: shown(toMessagingSettings(ctx, before)),
    after: {
      ...shown(after),
      secretsChanged: (Object.keys(SECRET_PURPOSES) as SecretField[]).filter(
        (field) => body[field] !== undefined,
      ),
    },
  });
  return after;
}
