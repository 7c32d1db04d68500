import { eq, sql } from 'drizzle-orm';
import type { ConversationChannel, CustomerIntent } from '../../../contracts/conversations';
import { conversationMessages, conversations, customers } from '../../../db/schema';
import { SYSTEM_ACTOR } from '../../audit';
import type { TxContext } from '../../context';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { addEvent } from '../contracts/events';
import { type AssistantReply, answerCustomer } from '../customer-service/answer';
import type { CustomerQuery } from '../customer-service/intent';
import { parseCustomerText } from '../customer-service/intent';
import { setChannelConsent } from '../customers/consent';
import { normalisePhone } from '../customers/phone';
import { queueMessage } from '../messages/outbox';
import { notify } from '../notifications/service';

/**
 * The inbound pipeline (issue 15 §4–§5): every message a customer sends, by WhatsApp, SMS or the
 * portal's chat, in one transaction — the thread of its number (created for an unknown number),
 * the line (de-duplicated on the provider's message id), the opt-out keywords, and the assistant's
 * answer queued through the outbox while no person has taken the thread over.
 */
export interface InboundMessage {
  channel: ConversationChannel;
  /** As the provider gives it: WhatsApp's digits without "+", an SMS gateway's +E.164. */
  phone: string;
  body: string;
  /** WhatsApp's wamid, the SMS gateway's id; null for the portal. */
  providerMessageId: string | null;
  payload?: unknown;
  /** The reading made before the transaction (`readCustomerText`), when the caller made one. */
  query?: CustomerQuery;
}

export interface InboundResult {
  conversationId: string;
  /** The same provider message id was received before: nothing was written. */
  duplicate: boolean;
  /** The lines written (the customer's, then the answer's), in order. */
  lineIds: string[];
  /** Outbox rows queued (the answer, a re-sent token). */
  queued: string[];
}

/** The thread's number in E.164; a number the numbering plan does not know is kept as given. */
export function threadPhone(raw: string, country: string): string {
  const text = raw.trim();
  const withPlus = /^\d{8,15}$/.test(text) ? `+${text}` : text;
  try {
    return normalisePhone(withPlus, country);
  } catch {
    return withPlus.replace(/[^\d+]/g, '').slice(0, 20) || text.slice(0, 20);
  }
}

export async function receiveInbound(ctx: TxContext, inbound: InboundMessage): Promise<InboundResult> {
  const org = await organisation(ctx, ctx.tx);
  const phone = threadPhone(inbound.phone, org.country);
  const now = ctx.clock.now();
  // The customer whose phone it is, looked up in the same statement (one round trip per message).
  const [thread] = await ctx.tx
    .insert(conversations)
    .values({
      id: newId(),
      phone,
      customerId: sql`(SELECT ${customers.id} FROM ${customers} WHERE ${customers.phone} = ${phone} LIMIT 1)`,
      channel: inbound.channel,
      lastMessageAt: now,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: conversations.phone,
      set: {
        channel: inbound.channel,
        // Strictly after the thread's last line: a thread read by time never ties or reorders.
        lastMessageAt: sql`greatest(excluded.last_message_at, ${conversations.lastMessageAt} + interval '1 millisecond')`,
        customerId: sql`coalesce(${conversations.customerId}, excluded.customer_id)`,
      },
    })
    .returning();
  if (!thread) throw new Error('The conversation was not written');
  const lineId = newId();
  const query = inbound.query ?? parseCustomerText(inbound.body, now.toISOString().slice(0, 10));
  const inserted = await ctx.tx
    .insert(conversationMessages)
    .values({
      id: lineId,
      conversationId: thread.id,
      direction: 'in',
      author: 'customer',
      channel: inbound.channel,
      body: inbound.body,
      intent: query.intent,
      providerMessageId: inbound.providerMessageId,
      payload: inbound.payload ?? null,
      createdAt: thread.lastMessageAt,
    })
    .onConflictDoNothing({
      target: [conversationMessages.channel, conversationMessages.providerMessageId],
      where: sql`${conversationMessages.providerMessageId} IS NOT NULL`,
    })
    .returning({ id: conversationMessages.id });
  if (!inserted.length) return { conversationId: thread.id, duplicate: true, lineIds: [], queued: [] };
  const result: InboundResult = {
    conversationId: thread.id,
    duplicate: false,
    lineIds: [lineId],
    queued: [],
  };
  const customerId = thread.customerId;

  // Opt-out and opt-in keywords change the consent to this channel whoever holds the thread.
  if ((query.intent === 'opt_out' || query.intent === 'opt_in') && inbound.channel !== 'portal') {
    const text = await changeConsent(ctx, customerId, inbound.channel, query.intent === 'opt_in');
    await answer(ctx, thread, result, {
      text,
      intent: query.intent,
      contractId: null,
      taskId: null,
      queued: [],
    });
    return result;
  }

  if (thread.mode === 'staff') {
    if (thread.takenOverBy) {
      await notify(
        ctx,
        { userId: thread.takenOverBy },
        {
          title: 'New message in a conversation you took over',
          message: `${await threadName(ctx, thread.customerId, phone)}: ${inbound.body.slice(0, 200)}`,
          type: 'info',
          link: `/ai-customer-service?conversation=${thread.id}`,
        },
      );
    }
    return result;
  }

  const reply = await answerCustomer(ctx, {
    customerId,
    conversationId: thread.id,
    text: inbound.body,
    channel: inbound.channel,
    query,
    thread,
  });
  await answer(ctx, thread, result, reply);
  if (reply.contractId) {
    await addEvent(
      ctx,
      reply.contractId,
      SYSTEM_ACTOR,
      'conversation',
      `The customer asked by ${channelLabel(inbound.channel)} (${intentLabel(reply.intent)}); the assistant answered`,
      { conversationId: thread.id },
    );
  }
  return result;
}

async function threadName(ctx: TxContext, customerId: string | null, phone: string): Promise<string> {
  if (!customerId) return phone;
  const [row] = await ctx.tx
    .select({ firstName: customers.firstName, lastName: customers.lastName })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row ? `${row.firstName} ${row.lastName}` : phone;
}

const channelLabel = (channel: ConversationChannel) =>
  channel === 'whatsapp' ? 'WhatsApp' : channel === 'sms' ? 'SMS' : 'the portal chat';
const intentLabel = (intent: CustomerIntent) => intent.replace(/_/g, ' ');

/** Writes the assistant's line and queues it on the thread's channel (a portal line is only stored). */
async function answer(
  ctx: TxContext,
  thread: typeof conversations.$inferSelect,
  result: InboundResult,
  reply: AssistantReply,
): Promise<void> {
  const line = await writeOutboundLine(ctx, thread, {
    author: reply.intent === 'opt_out' || reply.intent === 'opt_in' ? 'system' : 'assistant',
    body: reply.text,
    intent: reply.intent,
    contractId: reply.contractId,
    userId: null,
  });
  result.lineIds.push(line.lineId);
  if (line.messageId) result.queued.push(line.messageId);
  result.queued.push(...reply.queued);
}

/**
 * An outbound line (the assistant's, a person's, a confirmation): the outbox row first (template
 * `reply`, the thread's channel and number), then the line naming it. Answers both ids.
 */
export async function writeOutboundLine(
  ctx: TxContext,
  thread: Pick<typeof conversations.$inferSelect, 'id' | 'phone' | 'channel' | 'customerId'> & {
    /** The thread's last line's time, when the caller has it (the line this one answers). */
    lastMessageAt?: Date;
  },
  line: {
    author: 'assistant' | 'staff' | 'system';
    body: string;
    intent?: string | null;
    contractId?: string | null;
    userId: string | null;
  },
): Promise<{ lineId: string; messageId: string | null }> {
  const last =
    thread.lastMessageAt ??
    (
      await ctx.tx
        .select({ at: conversations.lastMessageAt })
        .from(conversations)
        .where(eq(conversations.id, thread.id))
    )[0]?.at;
  const now = ctx.clock.now();
  // Strictly after the thread's last line (the one it answers), so a thread read by time never ties.
  const at = new Date(Math.max(now.getTime(), (last?.getTime() ?? 0) + 1));
  const messageId =
    thread.channel === 'portal'
      ? null
      : await queueMessage(
          ctx,
          { ...SYSTEM_ACTOR, id: line.userId },
          {
            customerId: thread.customerId,
            contractId: line.contractId ?? null,
            template: 'reply',
            variables: { text: line.body },
            channel: thread.channel,
            recipient: thread.phone,
            conversationId: thread.id,
            source: { type: 'conversation', id: thread.id },
          },
        );
  const lineId = newId();
  await ctx.tx.insert(conversationMessages).values({
    id: lineId,
    conversationId: thread.id,
    direction: 'out',
    author: line.author,
    channel: thread.channel,
    body: line.body,
    intent: line.intent ?? null,
    messageId,
    userId: line.userId,
    createdAt: at,
  });
  await ctx.tx.update(conversations).set({ lastMessageAt: at }).where(eq(conversations.id, thread.id));
  return { lineId, messageId };
}

/** STOP (and its kin) withdraws the consent to the channel; START gives it again (customers' change, audited). */
async function changeConsent(
  ctx: TxContext,
  customerId: string | null,
  channel: 'sms' | 'whatsapp',
  give: boolean,
): Promise<string> {
  const name = channel === 'whatsapp' ? 'WhatsApp' : 'SMS';
  if (customerId) await setChannelConsent(ctx, customerId, channel, give, name);
  return give
    ? `You are subscribed again to our ${name} messages. Reply STOP to unsubscribe.`
    : `You will no longer receive our ${name} messages. Reply START to subscribe again.`;
}
