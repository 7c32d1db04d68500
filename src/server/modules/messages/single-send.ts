import { eq, sql } from 'drizzle-orm';
import type { SingleSendBody } from '../../../contracts/communications';
import { ERROR_CODES } from '../../../contracts/errors';
import { type Message, type MessageChannel, TEMPLATE_KEYS } from '../../../contracts/messages';
import { queryRows } from '../../../db/client';
import { messages } from '../../../db/schema';
import { renderTemplate } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import type { TxContext } from '../../context';
import { AppError, conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import { messageById } from './list';
import { recipientOf, templateFor } from './preview';

/**
 * A single message from a customer's or contract's page (issue 15 "Sends"), queued in the outbox
 * like any other: the sender, not this screen, checks consent and quiet hours when it goes.
 * - A template staff created, rendered with the customer's real figures in their language (or
 *   English), as the preview shows it. Built-in templates belong to the events that send them
 *   (a payment's receipt, a token) and are not sent by hand.
 * - Free text: stored under the key `staff_message` (no template row, version 0). Not the built-in
 *   `reply`, which answers a customer who just wrote and so needs no standing consent: a message
 *   staff start needs the customer's consent to the channel, and waits for quiet hours to end.
 */

export const FREE_TEXT_KEY = 'staff_message';

const invalid = (field: string, message: string) =>
  new AppError(422, ERROR_CODES.VALIDATION, message, [{ field, message }]);

export async function sendSingle(
  ctx: TxContext,
  actor: Actor,
  input: SingleSendBody & { channel: MessageChannel },
): Promise<Message> {
  const recipient = await recipientOf(ctx, ctx.tx, input.customerId, input.contractId);
  const address = input.channel === 'email' ? recipient.email : recipient.phone;
  if (!address) throw invalid('channel', 'The customer has no e-mail address');
  let rendered: { key: string; version: number; body: string; subject: string | null };
  if (input.templateKey) {
    if ((TEMPLATE_KEYS as readonly string[]).includes(input.templateKey))
      throw invalid(
        'templateKey',
        'Built-in templates are sent by the events they belong to; choose another',
      );
    const template = await templateFor(ctx.tx, input.templateKey, input.channel, recipient.language);
    if (!template) throw invalid('templateKey', `The template has no ${input.channel} text`);
    rendered = {
      key: template.key,
      version: template.version,
      body: renderTemplate(template.body, recipient.vars),
      subject: template.subject ? renderTemplate(template.subject, recipient.vars) : null,
    };
  } else {
    if (input.channel === 'email') throw invalid('body', 'An e-mail needs a template with a subject');
    rendered = { key: FREE_TEXT_KEY, version: 0, body: input.body ?? '', subject: null };
  }
  const id = newId();
  const now = ctx.clock.now();
  await ctx.tx.insert(messages).values({
    id,
    customerId: input.customerId,
    contractId: recipient.contract_id,
    channel: input.channel,
    recipient: address,
    templateKey: rendered.key,
    templateVersion: rendered.version,
    body: rendered.body,
    subject: rendered.subject,
    status: 'queued',
    nextAttemptAt: now,
    sourceType: 'single_send',
    sourceId: actor.id,
    dedupeKey: id,
    createdBy: actor.id,
    createdAt: now,
    updatedAt: now,
  });
  await writeAudit(ctx.tx, actor, {
    action: 'message.send',
    entityType: 'message',
    entityId: id,
    after: {
      customerId: input.customerId,
      contractId: recipient.contract_id,
      channel: input.channel,
      template: rendered.key,
    },
  });
  const message = await messageById(ctx.tx, id);
  if (!message) throw notFound('Message not found');
  return message;
}

/**
 * A failed message queued again (the outbox's Retry): due now, with its attempts counted afresh;
 * the last failure's reason stays until a send replaces it.
 */
export async function retryMessage(ctx: TxContext, actor: Actor, id: string): Promise<Message> {
  const [before] = await queryRows<{ status: string; attempts: number }>(
    ctx.tx,
    sql`SELECT status, attempts FROM ${messages} WHERE id = ${id} FOR UPDATE`,
  );
  if (!before) throw notFound('Message not found');
  if (before.status !== 'failed')
    throw conflict(`Only a failed message can be retried; this one is ${before.status}`);
  const now = ctx.clock.now();
  await ctx.tx
    .update(messages)
    .set({ status: 'queued', attempts: 0, nextAttemptAt: now, updatedAt: now })
    .where(eq(messages.id, id));
  await writeAudit(ctx.tx, actor, {
    action: 'message.retry',
    entityType: 'message',
    entityId: id,
    before: { status: before.status, attempts: before.attempts },
    after: { status: 'queued', attempts: 0 },
  });
  const message = await messageById(ctx.tx, id);
  if (!message) throw notFound('Message not found');
  return message;
}
