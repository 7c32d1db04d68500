import { z } from 'zod';
import { endpoint, okSchema } from './endpoint';
import { MESSAGE_CHANNELS } from './messages';

/**
 * The messaging providers' settings (issue 15 "Providers", PRODUCT.md §7), under integrations:
 * which provider each channel uses (the simulator by default), their addresses and credentials
 * (encrypted at rest, never returned: only whether each is set), the rate limit the sender keeps
 * per channel, and the optional OpenAI-compatible endpoint the assistant may classify with.
 */

/** As the `messaging_settings` table has them (src/db/schema/communications.ts). */
export const SMS_PROVIDERS = ['simulator', 'http'] as const;
export const WHATSAPP_PROVIDERS = ['simulator', 'cloud'] as const;
export const EMAIL_PROVIDERS = ['simulator', 'smtp'] as const;

/** Rates above this are refused: no gateway we know takes more, and the sender keeps a window of this many sends. */
export const MAX_RATE_PER_SECOND = 10_000;

export const messagingSettingsSchema = z.object({
  smsProvider: z.enum(SMS_PROVIDERS),
  smsUrl: z.string().nullable(),
  smsUsername: z.string().nullable(),
  smsApiKeySet: z.boolean(),
  smsSenderId: z.string().nullable(),
  /** Minor units per SMS segment, for the cost estimate. */
  smsCostPerSegment: z.number().int(),
  smsRatePerSecond: z.number().int(),
  whatsappProvider: z.enum(WHATSAPP_PROVIDERS),
  whatsappApiUrl: z.string().nullable(),
  whatsappPhoneNumberId: z.string().nullable(),
  whatsappAccessTokenSet: z.boolean(),
  whatsappAppSecretSet: z.boolean(),
  whatsappVerifyTokenSet: z.boolean(),
  whatsappRatePerSecond: z.number().int(),
  emailProvider: z.enum(EMAIL_PROVIDERS),
  smtpHost: z.string().nullable(),
  smtpPort: z.number().int().nullable(),
  /** Implicit TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  smtpSecure: z.boolean(),
  smtpUser: z.string().nullable(),
  smtpPasswordSet: z.boolean(),
  emailFrom: z.string().nullable(),
  emailRatePerSecond: z.number().int(),
  /** 0 to 1: the simulator's share of failed sends, to rehearse retries. */
  simulatorFailureRate: z.number(),
  aiBaseUrl: z.string().nullable(),
  aiApiKeySet: z.boolean(),
  aiModel: z.string().nullable(),
  updatedAt: z.string().nullable(),
  /** Where the SMS gateway posts delivery reports (its token included): copy it into the gateway. */
  smsCallbackUrl: z.string(),
  /** Where WhatsApp posts messages and statuses (the Meta app's callback URL). */
  whatsappWebhookUrl: z.string(),
});
export type MessagingSettings = z.infer<typeof messagingSettingsSchema>;

const httpUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/, error: `${what} must be an http(s) address` })
    .max(500, `${what} must be at most 500 characters`)
    .nullable()
    .optional();
const text = (what: string, max = 200) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(max, `${what} must be at most ${max} characters`)
    .transform((value) => value || null)
    .nullable()
    .optional();
/** A new credential; omitted keeps the stored one, null removes it. */
const secret = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .min(1, `Give the ${what.toLowerCase()}, or leave it out to keep the stored one`)
    .max(2000, `${what} must be at most 2,000 characters`)
    .nullable()
    .optional();
const rate = (what: string) =>
  z
    .number({ error: `The ${what} rate must be a whole number of messages per second` })
    .int(`The ${what} rate must be a whole number of messages per second`)
    .min(1, `The ${what} rate must be at least 1 message per second`)
    .max(MAX_RATE_PER_SECOND, `The ${what} rate must be at most ${MAX_RATE_PER_SECOND} messages per second`);

export const messagingSettingsBody = z
  .strictObject({
    smsProvider: z.enum(SMS_PROVIDERS, { error: `smsProvider must be one of: ${SMS_PROVIDERS.join(', ')}` }),
    smsUrl: httpUrl('The SMS gateway URL'),
    smsUsername: text('The SMS username', 100),
    smsApiKey: secret('SMS API key'),
    smsSenderId: z
      .string({ error: 'The sender id must be text' })
      .trim()
      .max(11, 'The sender id is at most 11 characters (an alphanumeric sender id)')
      .transform((value) => value || null)
      .nullable()
      .optional(),
    smsCostPerSegment: z
      .number({ error: 'The cost per segment must be a whole number of minor units' })
      .int('The cost per segment must be a whole number of minor units')
      .min(0, 'The cost per segment cannot be negative')
      .max(1_000_000, 'The cost per segment must be at most 1,000,000 minor units'),
    smsRatePerSecond: rate('SMS'),
    whatsappProvider: z.enum(WHATSAPP_PROVIDERS, {
      error: `whatsappProvider must be one of: ${WHATSAPP_PROVIDERS.join(', ')}`,
    }),
    whatsappApiUrl: httpUrl('The WhatsApp API URL'),
    whatsappPhoneNumberId: z
      .string({ error: 'The phone number id must be text' })
      .trim()
      .regex(/^\d{1,30}$/, 'The phone number id is the digits Meta shows for the number')
      .nullable()
      .optional()
      .or(z.literal('').transform(() => null)),
    whatsappAccessToken: secret('WhatsApp access token'),
    whatsappAppSecret: secret('WhatsApp app secret'),
    whatsappVerifyToken: secret('WhatsApp verify token'),
    whatsappRatePerSecond: rate('WhatsApp'),
    emailProvider: z.enum(EMAIL_PROVIDERS, {
      error: `emailProvider must be one of: ${EMAIL_PROVIDERS.join(', ')}`,
    }),
    smtpHost: z
      .string({ error: 'The SMTP host must be text' })
      .trim()
      .max(255, 'The SMTP host must be at most 255 characters')
      .regex(/^[A-Za-z0-9.-]*$/, 'The SMTP host is a host name or address, such as smtp.example.com')
      .transform((value) => value || null)
      .nullable()
      .optional(),
    smtpPort: z
      .number({ error: 'The SMTP port must be a number' })
      .int('The SMTP port must be a whole number')
      .min(1, 'The SMTP port is from 1 to 65535')
      .max(65_535, 'The SMTP port is from 1 to 65535')
      .nullable()
      .optional(),
    smtpSecure: z.boolean({ error: 'smtpSecure must be true or false' }).default(false),
    smtpUser: text('The SMTP user'),
    smtpPassword: secret('SMTP password'),
    emailFrom: z
      .email({ error: 'The sender address must be an e-mail address' })
      .max(200, 'The sender address must be at most 200 characters')
      .nullable()
      .optional()
      .or(z.literal('').transform(() => null)),
    emailRatePerSecond: rate('e-mail'),
    simulatorFailureRate: z
      .number({ error: 'The failure rate must be a number from 0 to 1' })
      .min(0, 'The failure rate must be from 0 to 1')
      .max(1, 'The failure rate must be from 0 to 1'),
    aiBaseUrl: httpUrl('The AI endpoint'),
    aiApiKey: secret('AI API key'),
    aiModel: text('The AI model', 100),
  })
  .superRefine((body, context) => {
    const need = (when: boolean, path: string, message: string) => {
      if (when) context.addIssue({ code: 'custom', path: [path], message });
    };
    need(body.smsProvider === 'http' && !body.smsUrl, 'smsUrl', 'The SMS gateway needs its URL');
    need(
      body.smsProvider === 'http' && !body.smsUsername,
      'smsUsername',
      'The SMS gateway needs its username',
    );
    need(
      body.whatsappProvider === 'cloud' && !body.whatsappApiUrl,
      'whatsappApiUrl',
      'The WhatsApp Cloud API needs its URL (e.g. https://graph.facebook.com/v21.0)',
    );
    need(
      body.whatsappProvider === 'cloud' && !body.whatsappPhoneNumberId,
      'whatsappPhoneNumberId',
      'The WhatsApp Cloud API needs the phone number id',
    );
    need(body.emailProvider === 'smtp' && !body.smtpHost, 'smtpHost', 'SMTP needs its host');
    need(body.emailProvider === 'smtp' && !body.emailFrom, 'emailFrom', 'SMTP needs the sender address');
    need(Boolean(body.aiBaseUrl) && !body.aiModel, 'aiModel', 'The AI endpoint needs its model name');
  });
export type MessagingSettingsBody = z.input<typeof messagingSettingsBody>;

export const messagingTestBody = z.strictObject({
  channel: z.enum(MESSAGE_CHANNELS, { error: `channel must be one of: ${MESSAGE_CHANNELS.join(', ')}` }),
  /** A phone in E.164 (+254…) for SMS and WhatsApp; an e-mail address for e-mail. */
  recipient: z
    .string({ error: 'Give the recipient' })
    .trim()
    .min(3, 'Give the recipient')
    .max(200, 'The recipient must be at most 200 characters'),
});
export type MessagingTestBody = z.input<typeof messagingTestBody>;

export const messagingTestResultSchema = z.object({
  ok: z.boolean(),
  provider: z.string(),
  /** The provider's id of the message, when it took it. */
  reference: z.string().nullable(),
  /** Why it was refused, in the provider's words. */
  reason: z.string().nullable(),
  latencyMs: z.number().int(),
});
export type MessagingTestResult = z.infer<typeof messagingTestResultSchema>;

/** An Africa's Talking style delivery report (form fields or JSON); other fields are ignored. */
export const smsStatusCallbackBody = z.looseObject({
  id: z.string({ error: 'id is required' }).min(1).max(200),
  status: z.string({ error: 'status is required' }).min(1).max(50),
  failureReason: z.string().max(500).optional(),
});
export const smsStatusCallbackQuery = z.object({ token: z.string().max(200).optional() });

export const messagingSettingsEndpoints = {
  settings: endpoint({ method: 'GET', path: '/api/messaging/settings', response: messagingSettingsSchema }),
  updateSettings: endpoint({
    method: 'PUT',
    path: '/api/messaging/settings',
    body: messagingSettingsBody,
    response: messagingSettingsSchema,
  }),
  /** Sends one message through the configured provider now (not through the outbox) and says how it went. */
  test: endpoint({
    method: 'POST',
    path: '/api/messaging/settings/test',
    body: messagingTestBody,
    response: messagingTestResultSchema,
  }),
  /** The SMS gateway's delivery reports, authenticated by the token in the callback URL. */
  smsStatus: endpoint({
    method: 'POST',
    path: '/api/webhooks/sms/status',
    query: smsStatusCallbackQuery,
    body: smsStatusCallbackBody,
    response: okSchema,
  }),
};
