import { and, eq } from 'drizzle-orm';
import { templateLabel } from '../../../contracts/messages';
import { messages } from '../../../db/schema';
import { SYSTEM_ACTOR } from '../../audit';
import type { TxContext } from '../../context';
import { addEvent } from '../contracts/events';

/** The WhatsApp Cloud API provider's name, recorded on each message it sent (`messages.provider`). */
export const WHATSAPP_PROVIDER_NAME = 'whatsapp_cloud';
/** The SMS HTTP provider's name. */
export const SMS_PROVIDER_NAME = 'sms_http';
/** The SMTP provider's name. */
export const SMTP_PROVIDER_NAME = 'smtp';

export type DeliveryState = 'sent' | 'delivered' | 'read' | 'failed';

export interface DeliveryUpdate {
  provider: string;
  /** The provider's id of the message (a WhatsApp wamid, an SMS gateway's message id). */
  reference: string;
  status: DeliveryState;
  reason?: string | null;
  at?: Date;
}

/**
 * A provider's delivery report (an SMS status callback, a WhatsApp `statuses` entry): finds the
 * outbox row by (provider, provider_reference) and moves it forward only. `sent` changes nothing
 * the sender has not already written; `delivered` (and `read`, which implies it) moves a sent
 * message to delivered; `failed` marks a sent message failed with the reason and writes the line
 * on its contract's timeline. A report older than what we know (delivered, then a late `sent`) or
 * repeated is ignored. Answers whether a message matched, so a callback for an unknown id can be
 * told apart (and answered 200 anyway: providers retry anything else).
 */
export async function recordDeliveryStatus(ctx: TxContext, update: DeliveryUpdate): Promise<boolean> {
  const [message] = await ctx.tx
    .select({
      id: messages.id,
      status: messages.status,
      contractId: messages.contractId,
      templateKey: messages.templateKey,
      channel: messages.channel,
      attempts: messages.attempts,
    })
    .from(messages)
    .where(and(eq(messages.provider, update.provider), eq(messages.providerReference, update.reference)))
    .limit(1)
    .for('update');
  if (!message) return false;
  const at = update.at ?? ctx.clock.now();
  const now = ctx.clock.now();
  if (message.status !== 'sent') return true;
  if (update.status === 'delivered' || update.status === 'read') {
    await ctx.tx
      .update(messages)
      .set({ status: 'delivered', deliveredAt: at, updatedAt: now })
      .where(eq(messages.id, message.id));
  } else if (update.status === 'failed') {
    const reason = update.reason?.trim() || 'The provider reported that the message was not delivered';
    await ctx.tx
      .update(messages)
      .set({ status: 'failed', failureReason: reason, nextAttemptAt: null, updatedAt: now })
      .where(eq(messages.id, message.id));
    if (message.contractId)
      await addEvent(
        ctx,
        message.contractId,
        SYSTEM_ACTOR,
        'message_failed',
        `${templateLabel(message.templateKey)} by ${channelName(message.channel)} was not delivered: ${reason}`,
        { messageId: message.id, template: message.templateKey, attempts: message.attempts },
      );
  }
  return true;
}

export function channelName(channel: string): string {
  return channel === 'sms' ? 'SMS' : channel === 'whatsapp' ? 'WhatsApp' : 'e-mail';
}
