import { createTransport } from 'nodemailer';
import { SMTP_PROVIDER_NAME } from '../delivery-status';
import { type MessageProvider, refused, retryable } from '../provider';

export interface SmtpOptions {
  host: string;
  port: number | null;
  /** Implicit TLS (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user: string | null;
  password: string | null;
  from: string;
  timeoutMs?: number;
}

/** The Message-ID an outbox message goes with: the same on a resend, so a receiving server can drop the copy. */
export function emailMessageId(id: string, from: string): string {
  return `<${id}@${from.split('@')[1] ?? 'localhost'}>`;
}

/**
 * E-mail over SMTP through nodemailer (issue 15 "Providers"): to the customer's address, with the
 * subject the template rendered, plain text. A pool of a few connections is kept while the
 * provider lives (one sender run). SMTP says only that the server took the message, so it is
 * `sent`, never `delivered`; the provider reference is its Message-ID, which is our id.
 *
 * Errors: a 5xx answer (no such mailbox, refused sender) or failed authentication is not
 * retried; a 4xx answer (greylisting, a full queue), a timeout or a refused connection is.
 */
export function smtpProvider(options: SmtpOptions): MessageProvider {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const transport = createTransport({
    host: options.host,
    port: options.port ?? (options.secure ? 465 : 587),
    secure: options.secure,
    ...(options.user ? { auth: { user: options.user, pass: options.password ?? '' } } : {}),
    pool: true,
    maxConnections: 4,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    name: SMTP_PROVIDER_NAME,
    async send(message) {
      const messageId = emailMessageId(message.id, options.from);
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: message.recipient,
          subject: message.subject ?? 'A message about your account',
          text: message.body,
          messageId,
        });
        if (info.rejected.length) return refused(`The server refused ${message.recipient}: ${info.response}`);
        return { ok: true, providerReference: info.messageId || messageId, delivered: false };
      } catch (error) {
        const failure = error as {
          responseCode?: number;
          code?: string;
          response?: string;
          message?: string;
        };
        const reason = failure.response ?? failure.message ?? String(error);
        if (failure.code === 'EAUTH') return refused(`SMTP authentication failed: ${reason}`);
        if (failure.responseCode && failure.responseCode >= 500) return refused(reason);
        return retryable(reason);
      }
    },
    async close() {
      transport.close();
    },
  };
}
