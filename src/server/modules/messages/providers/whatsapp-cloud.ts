import { TEMPLATE_KEYS } from '../../../../contracts/messages';
import { type OutboundAnswer, outboundRequest } from '../../../outbound-http';
import { WHATSAPP_PROVIDER_NAME } from '../delivery-status';
import {
  httpFailure,
  type MessageProvider,
  networkFailure,
  type OutgoingMessage,
  refused,
  retryable,
} from '../provider';

export interface WhatsappCloudOptions {
  /** The Graph API base, e.g. https://graph.facebook.com/v21.0 (a fake server's in tests). */
  apiUrl: string;
  phoneNumberId: string;
  accessToken: string;
  timeoutMs?: number;
}

/** Meta's error codes that clear by themselves: rate limits, a temporary outage. */
const RETRYABLE_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056, 133004]);

/**
 * The WhatsApp template a message goes as, or null for a text message. WhatsApp takes free text
 * only within 24 hours of the customer's last message; what we start (reminders, tokens, receipts,
 * warnings, the welcome) must be a template Meta approved. The rule: a built-in template's message
 * other than a conversation reply goes as the approved template named after its key (e.g.
 * `overdue_day_3`), in English, with the text we rendered as its one body parameter ({{1}}); a
 * reply, a custom template's message and a test go as text.
 */
export function whatsappTemplateOf(message: OutgoingMessage): { name: string; language: string } | null {
  const key = message.templateKey;
  if (!key || key === 'reply' || !(TEMPLATE_KEYS as readonly string[]).includes(key)) return null;
  return { name: key, language: 'en' };
}

/** The Cloud API's request body for a message. */
export function whatsappPayload(message: OutgoingMessage): Record<string, unknown> {
  const to = message.recipient.replace(/^\+/, '');
  const common = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    biz_opaque_callback_data: message.id,
  };
  const template = whatsappTemplateOf(message);
  if (!template) return { ...common, type: 'text', text: { preview_url: false, body: message.body } };
  return {
    ...common,
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      components: [{ type: 'body', parameters: [{ type: 'text', text: message.body }] }],
    },
  };
}

/**
 * The WhatsApp Cloud API's send side (issue 15 "Providers"): `POST {api}/{phone number id}/messages`
 * with the bearer token, answered with `messages[0].id` (the wamid), our provider reference:
 * WhatsApp's `statuses` webhook names it when the message is delivered, read or failed. Our id
 * goes as `Idempotency-Key` and `biz_opaque_callback_data` (echoed in those statuses).
 *
 * Errors: 401/403 and Meta's request errors are not retried; 5xx, 429, a timeout and Meta's
 * throttling codes (130429, 131056, …) are.
 */
export function whatsappCloudProvider(options: WhatsappCloudOptions): MessageProvider {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const url = `${options.apiUrl.replace(/\/+$/, '')}/${encodeURIComponent(options.phoneNumberId)}/messages`;
  return {
    name: WHATSAPP_PROVIDER_NAME,
    async send(message) {
      let response: OutboundAnswer;
      try {
        response = await outboundRequest(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${options.accessToken}`,
            'content-type': 'application/json',
            'idempotency-key': message.id,
          },
          body: JSON.stringify(whatsappPayload(message)),
          timeoutMs,
        });
      } catch (error) {
        return networkFailure(error);
      }
      const { text } = response;
      let answer: { messages?: { id?: string }[]; error?: { message?: string; code?: number } } = {};
      try {
        answer = JSON.parse(text);
      } catch {
        if (response.ok)
          return retryable(`WhatsApp answered something other than JSON: ${text.slice(0, 100)}`);
      }
      if (!response.ok) {
        const error = answer.error;
        if (!error?.code) return httpFailure(response.status, text.slice(0, 200));
        const reason = `${error.message ?? 'WhatsApp refused the message'} (${error.code})`;
        return RETRYABLE_CODES.has(error.code) || response.status >= 500
          ? retryable(reason)
          : refused(reason);
      }
      const wamid = answer.messages?.[0]?.id;
      if (!wamid) return retryable('WhatsApp answered without a message id');
      return { ok: true, providerReference: wamid, delivered: false };
    },
  };
}
