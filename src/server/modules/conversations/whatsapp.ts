import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../context';
import { readMessagingSettings, whatsappSecretsOf } from '../messages/settings';

/**
 * The WhatsApp Cloud API's webhook format (issue 15 §1): the `X-Hub-Signature-256` check on the
 * raw body, the payload's messages and statuses, and the shapes /whatsapp-test builds.
 */

/**
 * The app secret the webhook checks. Without a configured one (the simulator) it is a development
 * secret derived from the app key, so /whatsapp-test signs with the very secret the webhook checks
 * and an unsigned request is refused in every mode.
 */
export async function webhookSecrets(
  ctx: AppContext,
): Promise<{ appSecret: string; verifyToken: string | null; configured: boolean }> {
  const secrets = whatsappSecretsOf(ctx, await readMessagingSettings(ctx.db));
  return {
    appSecret: secrets.appSecret ?? developmentAppSecret(ctx),
    verifyToken: secrets.verifyToken,
    configured: secrets.appSecret !== null,
  };
}

export function developmentAppSecret(ctx: Pick<AppServices, 'keyring'>): string {
  return ctx.keyring.sign('messaging.whatsapp.dev-app-secret', 'default');
}

/** `sha256=<hex HMAC-SHA256(app secret, raw body)>`, as Meta signs. */
export function signBody(appSecret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')}`;
}

/** Timing-safe: the header must be exactly the signature of these bytes. */
export function signatureHolds(appSecret: string, rawBody: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(appSecret, rawBody));
  const given = Buffer.from(header.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const messageSchema = z.object({
  from: z.string().min(3).max(40),
  id: z.string().min(1).max(200),
  timestamp: z.string().max(20).optional(),
  type: z.string().max(40),
  text: z.object({ body: z.string().max(4096) }).optional(),
  button: z.object({ text: z.string().max(4096) }).optional(),
  interactive: z.unknown().optional(),
});
const statusSchema = z.object({
  id: z.string().min(1).max(200),
  status: z.string().max(40),
  timestamp: z.string().max(20).optional(),
  recipient_id: z.string().max(40).optional(),
  errors: z
    .array(
      z.object({ code: z.number().optional(), title: z.string().optional(), message: z.string().optional() }),
    )
    .optional(),
});
const payloadSchema = z.object({
  object: z.string().optional(),
  entry: z
    .array(
      z.object({
        id: z.string().optional(),
        changes: z
          .array(
            z.object({
              field: z.string().optional(),
              value: z
                .object({
                  messages: z.array(z.unknown()).optional(),
                  statuses: z.array(z.unknown()).optional(),
                })
                .passthrough(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

export interface WhatsappInbound {
  from: string;
  id: string;
  body: string;
  at: Date | null;
  raw: unknown;
}
export interface WhatsappStatus {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  reason: string | null;
  at: Date | null;
}

const secondsToDate = (value: string | undefined) =>
  value && /^\d{1,12}$/.test(value) ? new Date(Number(value) * 1000) : null;

/**
 * The messages and delivery statuses of a (signed) payload. Entries of another shape, a type we
 * do not read (images, reactions) and unknown statuses are left out, never refused: the provider
 * would only retry them.
 */
export function readPayload(body: unknown): { messages: WhatsappInbound[]; statuses: WhatsappStatus[] } {
  const parsed = payloadSchema.safeParse(body);
  if (!parsed.success) return { messages: [], statuses: [] };
  const messages: WhatsappInbound[] = [];
  const statuses: WhatsappStatus[] = [];
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      for (const raw of change.value.messages ?? []) {
        const message = messageSchema.safeParse(raw);
        if (!message.success) continue;
        const text = message.data.text?.body ?? message.data.button?.text;
        if (text === undefined) continue;
        messages.push({
          from: message.data.from,
          id: message.data.id,
          body: text,
          at: secondsToDate(message.data.timestamp),
          raw,
        });
      }
      for (const raw of change.value.statuses ?? []) {
        const status = statusSchema.safeParse(raw);
        if (!status.success) continue;
        const state = status.data.status;
        if (state !== 'sent' && state !== 'delivered' && state !== 'read' && state !== 'failed') continue;
        const error = status.data.errors?.[0];
        statuses.push({
          id: status.data.id,
          status: state,
          reason: error ? [error.code, error.title ?? error.message].filter(Boolean).join(' ') || null : null,
          at: secondsToDate(status.data.timestamp),
        });
      }
    }
  }
  return { messages, statuses };
}

/** A WhatsApp Cloud API inbound text message, as Meta posts it to the webhook. */
export function inboundTextPayload(input: {
  phone: string;
  text: string;
  name?: string;
  phoneNumberId?: string;
  at: Date;
}): { payload: unknown; wamid: string } {
  const from = input.phone.replace(/\D/g, '');
  const wamid = `wamid.${randomBytes(24).toString('base64url')}`;
  const phoneNumberId = input.phoneNumberId ?? '100000000000000';
  return {
    wamid,
    payload: {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '100000000000001',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550000000', phone_number_id: phoneNumberId },
                contacts: [{ profile: { name: input.name ?? 'WhatsApp test' }, wa_id: from }],
                messages: [
                  {
                    from,
                    id: wamid,
                    timestamp: String(Math.floor(input.at.getTime() / 1000)),
                    type: 'text',
                    text: { body: input.text },
                  },
                ],
              },
            },
          ],
        },
      ],
    },
  };
}
