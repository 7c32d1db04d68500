import { createHmac, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { AppInstance } from '../../src/server/app';
import { developmentAppSecret } from '../../src/server/modules/conversations/whatsapp';

/**
 * WhatsApp Cloud API webhook payloads as Meta posts them, and their `X-Hub-Signature-256`
 * (HMAC-SHA256 of the raw body with the app secret), for the webhook's tests and the bench.
 */

export interface TextMessage {
  /** The sender, digits only as WhatsApp gives it (254712345678). */
  from: string;
  text: string;
  /** The wamid; a new one when absent. */
  id?: string;
  timestamp?: number;
}

export function newWamid(): string {
  return `wamid.${randomUUID().replace(/-/g, '')}`;
}

const envelope = (value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '100000000000001',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550000000', phone_number_id: '100000000000000' },
            ...value,
          },
        },
      ],
    },
  ],
});

/** One or more inbound text messages in one payload. */
export function textPayload(...messages: TextMessage[]): Record<string, unknown> {
  return envelope({
    contacts: messages.map((m) => ({ profile: { name: 'Test' }, wa_id: m.from.replace(/\D/g, '') })),
    messages: messages.map((m) => ({
      from: m.from.replace(/\D/g, ''),
      id: m.id ?? newWamid(),
      timestamp: String(m.timestamp ?? Math.floor(Date.now() / 1000)),
      type: 'text',
      text: { body: m.text },
    })),
  });
}

/** A delivery status report for a message we sent (its wamid). */
export function statusPayload(
  id: string,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  error?: { code: number; title: string },
): Record<string, unknown> {
  return envelope({
    statuses: [
      {
        id,
        status,
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: '254700000000',
        ...(error ? { errors: [error] } : {}),
      },
    ],
  });
}

export function signature(secret: string, raw: string): string {
  return `sha256=${createHmac('sha256', secret).update(raw, 'utf8').digest('hex')}`;
}

/** The secret the webhook checks while no app secret is configured (the simulator). */
export function devSecret(app: AppInstance): string {
  return developmentAppSecret(app.ctx);
}

/**
 * POSTs a payload to the webhook, signed with `secret` (the development one by default), or with
 * the signature header given (`null`: none at all).
 */
export function postWhatsapp(
  app: AppInstance,
  payload: unknown,
  options: { secret?: string; signature?: string | null } = {},
): Promise<LightMyRequestResponse> {
  const raw = JSON.stringify(payload);
  const header =
    options.signature === undefined ? signature(options.secret ?? devSecret(app), raw) : options.signature;
  return app.inject({
    method: 'POST',
    url: '/api/webhooks/whatsapp',
    headers: {
      'content-type': 'application/json',
      ...(header === null ? {} : { 'x-hub-signature-256': header }),
    },
    payload: raw,
  });
}
