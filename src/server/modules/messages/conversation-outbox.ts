import { and, desc, eq, isNull } from 'drizzle-orm';
import { messages } from '../../../db/schema';
import type { Executor, TxContext } from '../../context';
import { newId } from '../../ids';
import { messagesQueued } from './wake';

/**
 * What conversations ask of the outbox (the messages area owns `messages`): the customer's latest
 * unlock-code message, a copy of it queued again after the customer confirmed who they are, and a
 * thread's replies linked to the customer staff identified.
 */

export interface TokenMessage {
  id: string;
  contractId: string | null;
  templateVersion: number;
  body: string;
  createdAt: Date;
}

/** The customer's latest unlock-code (token) message, as it was written. */
export async function latestTokenMessage(
  executor: Executor,
  customerId: string,
): Promise<TokenMessage | null> {
  const [row] = await executor
    .select({
      id: messages.id,
      contractId: messages.contractId,
      templateVersion: messages.templateVersion,
      body: messages.body,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(eq(messages.customerId, customerId), eq(messages.templateKey, 'token')))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row ?? null;
}

/** Queues the same token text again to the thread's number; answers the new message's id. */
export async function resendTokenMessage(
  ctx: TxContext,
  original: TokenMessage,
  to: { customerId: string; channel: 'sms' | 'whatsapp'; recipient: string; conversationId: string },
): Promise<string> {
  const id = newId();
  const now = ctx.clock.now();
  await ctx.tx.insert(messages).values({
    id,
    customerId: to.customerId,
    contractId: original.contractId,
    channel: to.channel,
    recipient: to.recipient,
    templateKey: 'token',
    templateVersion: original.templateVersion,
    body: original.body,
    status: 'queued',
    nextAttemptAt: now,
    sourceType: 'conversation',
    sourceId: to.conversationId,
    conversationId: to.conversationId,
    dedupeKey: `token-resend:${original.id}:${id}`,
    createdAt: now,
    updatedAt: now,
  });
  await messagesQueued(ctx);
  return id;
}

/** A thread linked to a customer: its replies queued while the number was unknown become theirs. */
export async function linkConversationMessages(
  ctx: TxContext,
  conversationId: string,
  customerId: string,
): Promise<void> {
  await ctx.tx
    .update(messages)
    .set({ customerId, updatedAt: ctx.clock.now() })
    .where(and(eq(messages.conversationId, conversationId), isNull(messages.customerId)));
}
