import type { FastifyBaseLogger } from 'fastify';
import type { MessageChannel } from '../../../contracts/messages';

/** One message as a provider sends it. */
export interface OutgoingMessage {
  /** Ours; a provider that sees it twice answers the first result. */
  id: string;
  channel: MessageChannel;
  /** E.164 phone. */
  recipient: string;
  body: string;
}

export type SendResult =
  | {
      ok: true;
      providerReference: string /** The provider confirmed delivery in its answer. */;
      delivered: boolean;
    }
  | { ok: false; reason: string /** Worth another attempt later (a timeout, a 5xx). */; retryable: boolean };

/**
 * A messaging provider behind one interface (decision 027). The console provider is the default
 * until the communications issue brings SMS and WhatsApp gateways, which reuse this outbox.
 */
export interface MessageProvider {
  /** Recorded on each message it sent. */
  name: string;
  send(message: OutgoingMessage): Promise<SendResult>;
}

/** Logs each message (recipient and body) and answers it delivered: development and the demo. */
export function consoleProvider(log: Pick<FastifyBaseLogger, 'info'>): MessageProvider {
  return {
    name: 'console',
    async send(message) {
      log.info(
        { messageId: message.id, channel: message.channel, recipient: message.recipient, body: message.body },
        'message sent (console provider)',
      );
      return { ok: true, providerReference: `console-${message.id}`, delivered: true };
    },
  };
}
