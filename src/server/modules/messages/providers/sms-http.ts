import { type OutboundAnswer, outboundRequest } from '../../../outbound-http';
import { SMS_PROVIDER_NAME } from '../delivery-status';
import { httpFailure, type MessageProvider, networkFailure, refused, retryable } from '../provider';

export interface SmsHttpOptions {
  /** The gateway's send address, e.g. https://api.africastalking.com/version1/messaging. */
  url: string;
  username: string;
  apiKey: string;
  /** An alphanumeric sender id or short code; the gateway's default when null. */
  senderId: string | null;
  timeoutMs?: number;
}

/** One recipient's line of the gateway's answer. */
interface RecipientAnswer {
  statusCode?: number;
  status?: string;
  messageId?: string;
  number?: string;
}

/**
 * An SMS gateway in the Africa's Talking style (issue 15 "Providers"): a form POST of `username`,
 * `to`, `message` and `from`, authenticated by the `apiKey` header, answered with
 * `SMSMessageData.Recipients[]`, each with a status code and the gateway's message id (our
 * provider reference; its delivery reports name it). Our message id goes as `Idempotency-Key`, so
 * a gateway that honours it sends a message resent after a crash once.
 *
 * Errors: an HTTP 4xx (bad credentials, a malformed request) is not retried; 5xx, 408, 429, a
 * timeout or a refused connection are. A recipient refused for its number (403, 404), a block
 * list (406) or do-not-disturb (409) is not retried; insufficient balance (405), no route (407)
 * and the gateway's own errors (5xx codes) are.
 */
export function smsHttpProvider(options: SmsHttpOptions): MessageProvider {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    name: SMS_PROVIDER_NAME,
    async send(message) {
      const form = new URLSearchParams({
        username: options.username,
        to: message.recipient,
        message: message.body,
      });
      if (options.senderId) form.set('from', options.senderId);
      let response: OutboundAnswer;
      try {
        response = await outboundRequest(options.url, {
          method: 'POST',
          headers: {
            apiKey: options.apiKey,
            accept: 'application/json',
            'content-type': 'application/x-www-form-urlencoded',
            'idempotency-key': message.id,
          },
          body: form.toString(),
          timeoutMs,
        });
      } catch (error) {
        return networkFailure(error);
      }
      const { text } = response;
      if (!response.ok) return httpFailure(response.status, text.slice(0, 200));
      let answer: { SMSMessageData?: { Message?: string; Recipients?: RecipientAnswer[] } };
      try {
        answer = JSON.parse(text);
      } catch {
        return retryable(`The gateway answered something other than JSON: ${text.slice(0, 100)}`);
      }
      const data = answer.SMSMessageData;
      const recipient = data?.Recipients?.[0];
      if (!recipient) return refused(data?.Message || 'The gateway accepted no recipient');
      const code = recipient.statusCode ?? 0;
      if (code >= 100 && code < 200 && recipient.messageId)
        return { ok: true, providerReference: recipient.messageId, delivered: false };
      const reason = `${recipient.status ?? 'Refused'} (${code})`;
      return code >= 500 || code === 405 || code === 407 ? retryable(reason) : refused(reason);
    },
  };
}
