import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import {
  type MessageChannel,
  TEMPLATE_KEYS,
  type TemplateKey,
  variablesOf,
} from '../../../contracts/messages';
import { queryRows } from '../../../db/client';
import { messages, messageTemplates } from '../../../db/schema';
import { renderTemplate } from '../../../domain';
import type { Actor } from '../../audit';
import type { AppContext, TxContext } from '../../context';
import { notFound } from '../../errors';
import { newId } from '../../ids';
import { messageContacts, messageContactsSql } from '../customers/contacts';
import { templateSql } from './values-sql';
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
 * (customer_id, contract_id, template_key, variables jsonb, dedupe_key); each is inserted unless
 * its dedupe key is already queued, its text rendered in SQL from the template compiled once into
 * one expression per key (`templateSql`, the customer's first name added): the PL/pgSQL renderer
 * this replaced parsed the template again for every row, most of the reminders' time on the
 * embedded database (decision 052). Answers how many were queued per template.
 */
export async function queueMessagesFrom(
  ctx: TxContext,
  actor: Actor,
  source: SQL,
  origin: { type: string; id: string },
): Promise<Partial<Record<TemplateKey, number>>> {
  const now = ctx.clock.now().toISOString();
  const templates = await ctx.tx
    .select()
    .from(messageTemplates)
    .where(
      and(
        // The close queues built-in templates only: a template staff created has no place here.
        inArray(messageTemplates.key, [...TEMPLATE_KEYS]),
        eq(messageTemplates.channel, DEFAULT_CHANNEL),
        eq(messageTemplates.language, DEFAULT_LANGUAGE),
      ),
    );
  // A key without its template queues nothing, as before any template existed.
  if (!templates.length) return {};
  const byKey = (value: (template: (typeof templates)[number]) => SQL) =>
    sql`CASE v.template_key ${sql.join(
      templates.map((template) => sql`WHEN ${template.key}::text THEN ${value(template)}`),
      sql` `,
    )} END`;
  const rows = await queryRows<{ template_key: TemplateKey; n: number }>(
    ctx.tx,
    sql`
    WITH queued AS (
      INSERT INTO ${messages} (id, customer_id, contract_id, channel, recipient, template_key, template_version,
                               body, status, next_attempt_at, source_type, source_id, dedupe_key, created_by,
                               created_at, updated_at)
      SELECT new_row_id(), v.customer_id, v.contract_id, ${DEFAULT_CHANNEL}::text, cu.phone, v.template_key,
             ${byKey((template) => sql`${template.version}::int`)},
             ${byKey((template) => templateSql(template.body, variablesOf(template.key), variableOfRow))},
             'queued', ${now}::timestamptz, ${origin.type}, ${origin.id}, v.dedupe_key, ${actor.id}::text,
             ${now}::timestamptz, ${now}::timestamptz
      FROM (${source}) AS v(customer_id, contract_id, template_key, variables, dedupe_key)
      JOIN (${messageContactsSql()}) AS cu ON cu.id = v.customer_id
      WHERE v.template_key IN (${sql.join(
        templates.map((template) => sql`${template.key}::text`),
        sql`, `,
      )})
      -- A key queued before is left by the conflict clause, through the unique index. No NOT EXISTS
      -- beside it: planned over an outbox still empty (a first close), it scanned the table for every
      -- row while this very statement filled it, quadratic (15 s for 27,805 reminders at 300,000
      -- contracts, 364 s for 92,682 at a million: decision 034, stop 52).
      ON CONFLICT (dedupe_key) DO NOTHING
      RETURNING template_key
    )
    SELECT template_key, count(*)::int AS n FROM queued GROUP BY template_key`,
  );
  return Object.fromEntries(rows.map((row) => [row.template_key, row.n]));
}

/** A variable of a source row `v` of `queueMessagesFrom`, the first name its customer's (`cu`). */
const variableOfRow = (name: string): SQL =>
  name === 'firstName' ? sql`cu.first_name` : sql`(v.variables ->> ${name}::text)`;

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
