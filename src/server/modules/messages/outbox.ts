import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { MessageChannel, TemplateKey } from '../../../contracts/messages';
import { queryRows } from '../../../db/client';
import { messages, messageTemplates } from '../../../db/schema';
import { renderTemplate } from '../../../domain';
import type { Actor } from '../../audit';
import type { AppContext, TxContext } from '../../context';
import { notFound } from '../../errors';
import { newId } from '../../ids';
import { messageContacts, messageContactsSql } from '../customers/contacts';
import { messagesQueued } from './wake';

/**
 * The message outbox (decision 027): every message to a customer is queued here, in the
 * transaction of what caused it, and delivered later by the sender job (`sender.ts`). Queueing
 * writes no audit row of its own: it is part of the audited change that caused it (a payment, a
 * close of business), and the outbox row itself records who and what queued it.
 */

/** Until the communications issue lets a customer choose: SMS, in English. */
export const DEFAULT_CHANNEL: MessageChannel = 'sms';
export const DEFAULT_LANGUAGE = 'en';

export interface MessageRequest {
  /** Null only with `recipient`: a conversation's reply to a number no customer has yet. */
  customerId: string | null;
  contractId?: string | null;
  template: TemplateKey;
  /** The template's variables; `firstName` is the customer's unless given. */
  variables: Record<string, string | number>;
  source?: { type: string; id: string };
  /** The same key again queues nothing (a retried request, a re-run). Unique per message when absent. */
  dedupeKey?: string;
  /** A conversation's reply goes back on the thread's channel, to the thread's number. */
  channel?: MessageChannel;
  recipient?: string;
  conversationId?: string;
}

/**
 * Queues one message: the template rendered now (a missing variable is a 422, nothing queued),
 * to the customer's phone. Answers the message's id, or null when its dedupe key was queued before.
 */
export async function queueMessage(
  ctx: TxContext,
  actor: Actor,
  request: MessageRequest,
): Promise<string | null> {
  const [template] = await ctx.tx
    .select()
    .from(messageTemplates)
    .where(
      and(
        eq(messageTemplates.key, request.template),
        eq(messageTemplates.channel, request.channel ?? DEFAULT_CHANNEL),
        eq(messageTemplates.language, DEFAULT_LANGUAGE),
      ),
    );
  if (!template) throw notFound(`No ${request.channel ?? DEFAULT_CHANNEL} template "${request.template}"`);
  const contact = request.customerId
    ? (await messageContacts(ctx.tx, [request.customerId])).get(request.customerId)
    : { firstName: '', phone: request.recipient };
  if (!contact?.phone) throw notFound('Customer not found');
  const body = renderTemplate(template.body, { firstName: contact.firstName, ...request.variables });
  const id = newId();
  const now = ctx.clock.now();
  const inserted = await ctx.tx
    .insert(messages)
    .values({
      id,
      customerId: request.customerId,
      contractId: request.contractId ?? null,
      channel: template.channel,
      recipient: request.recipient ?? contact.phone,
      templateKey: template.key,
      templateVersion: template.version,
      body,
      status: 'queued',
      nextAttemptAt: now,
      sourceType: request.source?.type ?? null,
      sourceId: request.source?.id ?? null,
      conversationId: request.conversationId ?? null,
      dedupeKey: request.dedupeKey ?? id,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: messages.dedupeKey })
    .returning({ id: messages.id });
  // Sent at once (a token, a receipt, a reply), not at the next scheduler tick.
  if (inserted.length) await messagesQueued(ctx);
  return inserted[0]?.id ?? null;
}

/**
 * Queues many messages in one statement (close of business): `source` yields rows of
 * (customer_id, contract_id, template_key, variables jsonb, dedupe_key); each is rendered in SQL
 * by `render_message` (the renderer's rule; the customer's first name added) and inserted unless
 * its dedupe key is already queued. Answers how many were queued per template.
 */
export async function queueMessagesFrom(
  ctx: TxContext,
  actor: Actor,
  source: SQL,
  origin: { type: string; id: string },
): Promise<Partial<Record<TemplateKey, number>>> {
  const now = ctx.clock.now().toISOString();
  const rows = await queryRows<{ template_key: TemplateKey; n: number }>(
    ctx.tx,
    sql`
    WITH queued AS (
      INSERT INTO ${messages} (id, customer_id, contract_id, channel, recipient, template_key, template_version,
                               body, status, next_attempt_at, source_type, source_id, dedupe_key, created_by,
                               created_at, updated_at)
      SELECT new_row_id(), v.customer_id, v.contract_id, t.channel, cu.phone, t.key, t.version,
             render_message(t.body, jsonb_build_object('firstName', cu.first_name) || v.variables),
             'queued', ${now}::timestamptz, ${origin.type}, ${origin.id}, v.dedupe_key, ${actor.id}::text,
             ${now}::timestamptz, ${now}::timestamptz
      FROM (${source}) AS v(customer_id, contract_id, template_key, variables, dedupe_key)
      JOIN ${messageTemplates} t ON t.key = v.template_key AND t.channel = ${DEFAULT_CHANNEL}
                                 AND t.language = ${DEFAULT_LANGUAGE}
      JOIN (${messageContactsSql()}) AS cu ON cu.id = v.customer_id
      -- Rendered only when not queued already (a reminder is asked for on each of its lead days):
      -- rendering was most of this statement's time. The conflict clause still settles a race.
      WHERE NOT EXISTS (SELECT 1 FROM ${messages} m WHERE m.dedupe_key = v.dedupe_key)
      ON CONFLICT (dedupe_key) DO NOTHING
      RETURNING template_key
    )
    SELECT template_key, count(*)::int AS n FROM queued GROUP BY template_key`,
  );
  return Object.fromEntries(rows.map((row) => [row.template_key, row.n]));
}

/**
 * The demo book's history (decision 027): the messages its year of payments queued while it was
 * built went out at the time, by the console provider (every demo customer consented to SMS), so a
 * fresh demo does not send a year of tokens at its first minute. Answers how many.
 */
export async function recordDemoHistoryDelivered(ctx: Pick<AppContext, 'db'>): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    ctx.db,
    sql`UPDATE ${messages} SET status = 'delivered', attempts = 1, provider = 'console',
               provider_reference = 'console-' || id, next_attempt_at = NULL,
               sent_at = created_at, delivered_at = created_at, updated_at = created_at
        WHERE status = 'queued' RETURNING id`,
  );
  return rows.length;
}
