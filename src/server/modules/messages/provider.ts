import type { FastifyBaseLogger } from 'fastify';
import type { MessageChannel } from '../../../contracts/messages';
import { outboundFailure } from '../../outbound-http';

/** One message as a provider sends it. */
export interface OutgoingMessage {
  /**
   * Ours, and the provider's idempotency key where it takes one (an `Idempotency-Key` header, an
   * e-mail's Message-ID): a message sent again after a crash is the same message to the provider.
   */
  id: string;
  channel: MessageChannel;
  /** E.164 phone; an e-mail address for e-mail. */
  recipient: string;
  body: string;
  /** E-mail only. */
  subject?: string | null;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt?: number;
  /** The template it was rendered from: WhatsApp sends a business-initiated one as a template message. */
  templateKey?: string;
}

export type SendResult =
  | {
      ok: true;
      providerReference: string /** The provider confirmed delivery in its answer. */;
      delivered: boolean;
    }
  | { ok: false; reason: string /** Worth another attempt later (a timeout, a 5xx). */; retryable: boolean };

/**
 * A messaging provider behind one interface (decision 027; issue 15 "Providers"): the simulator
 * (the default), an SMS HTTP gateway, the WhatsApp Cloud API, SMTP. A provider never throws for
 * an answer it understood; a throw is read as a retryable failure.
 */
export interface MessageProvider {
  /** Recorded on each message it sent (`messages.provider`): delivery reports find them by it. */
  name: string;
  send(message: OutgoingMessage): Promise<SendResult>;
  /** Releases what it holds (SMTP's pooled connections). */
  close?(): Promise<void>;
}

/** Which provider each channel's messages go to, and how many per second it takes. */
export interface ProviderSet {
  providerFor(channel: MessageChannel): MessageProvider;
  ratePerSecond(channel: MessageChannel): number;
  close(): Promise<void>;
}

/** One provider for every channel, unlimited (tests, and callers that give a single provider). */
export function singleProvider(
  provider: MessageProvider,
  ratePerSecond = Number.POSITIVE_INFINITY,
): ProviderSet {
  return {
    providerFor: () => provider,
    ratePerSecond: () => ratePerSecond,
    close: async () => provider.close?.(),
  };
}

/** A failure worth another attempt (a timeout, a refused connection, a 5xx): retried by the sender. */
export function retryable(reason: string): SendResult {
  return { ok: false, reason, retryable: true };
}

/** A refusal retrying cannot cure (a bad number, bad credentials): the message fails at once. */
export function refused(reason: string): SendResult {
  return { ok: false, reason, retryable: false };
}

/** An HTTP answer's status read as a failure: 4xx will not change on retry (but 408 and 429 may), 5xx may. */
export function httpFailure(status: number, detail: string): SendResult {
  const reason = `HTTP ${status}${detail ? `: ${detail}` : ''}`;
  return status >= 500 || status === 408 || status === 429 ? retryable(reason) : refused(reason);
}

/** A request that failed without an answer (refused, reset, timed out): worth retrying. */
export function networkFailure(error: unknown): SendResult {
  return retryable(`No answer from the provider: ${outboundFailure(error)}`);
}

/** Logs each message (recipient and body) and answers it delivered: development. */
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
