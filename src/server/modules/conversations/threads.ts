import { asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import {
  type Conversation,
  type ConversationDetail,
  type ConversationLine,
  conversationEndpoints,
} from '../../../contracts/conversations';
import { queryRows } from '../../../db/client';
import {
  conversationMessages,
  conversations,
  customers,
  messages,
  staffTasks,
  users,
} from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { conflict, notFound, unprocessable } from '../../errors';
import { csvOf, defineList } from '../../list-definition';
import { searchCondition } from '../../lists';
import { phoneSearchDigits } from '../customers/phone';
import { linkConversationMessages } from '../messages/conversation-outbox';
import { linkConversationTasks, tasksOfConversation } from '../tasks/service';
import { writeOutboundLine } from './pipeline';

/**
 * Reading and holding threads (issue 15 §5–§6): the list and a thread with every line on
 * /ai-customer-service, a person's reply, take over and hand back (audited), and linking an
 * unknown number's thread to a customer.
 */

const from = sql`${conversations} LEFT JOIN ${customers} cu ON cu.id = ${conversations.customerId}
  LEFT JOIN ${users} u ON u.id = ${conversations.takenOverBy}`;

const iso = (at: string | Date | null) => (at === null ? null : new Date(at).toISOString());

async function selectThreads(
  executor: Executor,
  where: SQL | undefined,
  orderBy: SQL,
  limit: number,
  offset: number,
) {
  const rows = await queryRows<
    Omit<Conversation, 'lastMessageAt' | 'createdAt'> & { lastMessageAt: string; createdAt: string }
  >(
    executor,
    sql`SELECT "conversations".id, "conversations".phone, "conversations".customer_id AS "customerId",
               CASE WHEN cu.id IS NULL THEN NULL ELSE cu.first_name || ' ' || cu.last_name END AS "customerName",
               cu.account_number AS "accountNumber", "conversations".channel, "conversations".mode,
               "conversations".taken_over_by AS "takenOverBy",
               CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END AS "takenOverByName",
               (SELECT m.body FROM ${conversationMessages} m WHERE m.conversation_id = "conversations".id
                 ORDER BY m.created_at DESC, m.id DESC LIMIT 1) AS "lastMessage",
               "conversations".last_message_at AS "lastMessageAt",
               (SELECT count(*)::int FROM ${staffTasks} t WHERE t.conversation_id = "conversations".id AND t.status = 'open') AS "openTasks",
               "conversations".created_at AS "createdAt"
        FROM ${from}${where ? sql` WHERE ${where}` : sql``}
        ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map((row) => ({
    ...row,
    lastMessageAt: iso(row.lastMessageAt) as string,
    createdAt: iso(row.createdAt) as string,
  }));
}

/** GET /api/conversations: every thread, the newest first. */
export const conversationList = defineList({
  name: 'conversation',
  endpoint: conversationEndpoints.list,
  shows: [conversations, conversationMessages, customers, staffTasks],
  count: async (ctx, where) => {
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM ${from}${where ? sql` WHERE ${where}` : sql``}`,
    );
    return row?.n ?? 0;
  },
  search: (q) => {
    // "0712 345 678" finds +254712345678: a phone-like query is matched on its digits.
    const digits = phoneSearchDigits(q);
    const text = searchCondition(
      sql`lower("conversations".phone || ' ' || coalesce(cu.first_name || ' ' || cu.last_name || ' ' || cu.account_number, ''))`,
      q,
    );
    return digits ? sql`(${text} OR "conversations".phone LIKE ${`%${digits}%`})` : text;
  },
  filters: {
    mode: (mode) => eq(conversations.mode, mode),
    channel: (channel) => eq(conversations.channel, channel),
    unlinked: (unlinked) =>
      unlinked === 'true' ? isNull(conversations.customerId) : sql`${conversations.customerId} IS NOT NULL`,
    customerId: (id) => eq(conversations.customerId, id),
  },
  sorts: {
    lastMessageAt: { columns: [conversations.lastMessageAt] },
    createdAt: { columns: [conversations.createdAt] },
  },
  tieBreak: conversations.id,
  rows: ({ ctx, where, orderBy, limit, offset }) =>
    selectThreads(ctx.db, where, sql.join(orderBy, sql`, `), limit, offset),
  csv: csvOf<Conversation>({ filename: 'conversations.csv', noun: 'conversations' }, [
    { header: 'Last message at', value: (c) => c.lastMessageAt },
    { header: 'Phone', value: (c) => c.phone },
    { header: 'Customer', value: (c) => c.customerName ?? '' },
    { header: 'Channel', value: (c) => c.channel },
    { header: 'Mode', value: (c) => c.mode },
    { header: 'Taken over by', value: (c) => c.takenOverByName ?? '' },
    { header: 'Last message', value: (c) => c.lastMessage ?? '' },
  ]),
});

export async function threadLines(executor: Executor, conversationId: string): Promise<ConversationLine[]> {
  const rows = await executor
    .select({
      id: conversationMessages.id,
      direction: conversationMessages.direction,
      author: conversationMessages.author,
      channel: conversationMessages.channel,
      body: conversationMessages.body,
      intent: conversationMessages.intent,
      userName: sql<
        string | null
      >`CASE WHEN ${users.id} IS NULL THEN NULL ELSE ${users.firstName} || ' ' || ${users.lastName} END`,
      messageId: conversationMessages.messageId,
      messageStatus: messages.status,
      createdAt: conversationMessages.createdAt,
    })
    .from(conversationMessages)
    .leftJoin(users, eq(users.id, conversationMessages.userId))
    .leftJoin(messages, eq(messages.id, conversationMessages.messageId))
    .where(eq(conversationMessages.conversationId, conversationId))
    .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id))
    .limit(1000);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** The thread of a phone in E.164 (one per phone), with the customer it is linked to; null before its first line. */
export async function threadOfPhone(
  executor: Executor,
  phone: string,
): Promise<{ id: string; customerId: string | null } | null> {
  const [row] = await executor
    .select({ id: conversations.id, customerId: conversations.customerId })
    .from(conversations)
    .where(eq(conversations.phone, phone));
  return row ?? null;
}

export async function getThread(executor: Executor, id: string): Promise<ConversationDetail> {
  const [conversation] = await selectThreads(
    executor,
    sql`"conversations".id = ${id}`,
    sql`"conversations".id`,
    1,
    0,
  );
  if (!conversation) throw notFound('Conversation not found');
  return {
    conversation,
    lines: await threadLines(executor, id),
    tasks: await tasksOfConversation(executor, id),
  };
}

async function lockThread(ctx: TxContext, id: string) {
  const [row] = await ctx.tx.select().from(conversations).where(eq(conversations.id, id)).for('update');
  if (!row) throw notFound('Conversation not found');
  return row;
}

/** A person's reply: a line, queued on the thread's channel (a portal thread only stores it). */
export async function staffReply(
  ctx: TxContext,
  actor: Actor,
  id: string,
  text: string,
): Promise<ConversationDetail> {
  const thread = await lockThread(ctx, id);
  await writeOutboundLine(ctx, thread, { author: 'staff', body: text, userId: actor.id });
  return getThread(ctx.tx, id);
}

/** A person answers from now on; the assistant stays silent until they hand it back. */
export async function takeOver(ctx: TxContext, actor: Actor, id: string): Promise<ConversationDetail> {
  const thread = await lockThread(ctx, id);
  if (thread.mode === 'staff' && thread.takenOverBy === actor.id)
    throw conflict('You already hold this conversation');
  await ctx.tx
    .update(conversations)
    .set({ mode: 'staff', takenOverBy: actor.id })
    .where(eq(conversations.id, id));
  await writeAudit(ctx.tx, actor, {
    action: 'conversation.take_over',
    entityType: 'conversation',
    entityId: id,
    before: { mode: thread.mode, takenOverBy: thread.takenOverBy },
    after: { mode: 'staff', takenOverBy: actor.id },
  });
  return getThread(ctx.tx, id);
}

export async function handBack(ctx: TxContext, actor: Actor, id: string): Promise<ConversationDetail> {
  const thread = await lockThread(ctx, id);
  if (thread.mode === 'assistant') throw conflict('The assistant already answers this conversation');
  await ctx.tx
    .update(conversations)
    .set({ mode: 'assistant', takenOverBy: null, pending: null })
    .where(eq(conversations.id, id));
  await writeAudit(ctx.tx, actor, {
    action: 'conversation.hand_back',
    entityType: 'conversation',
    entityId: id,
    before: { mode: thread.mode, takenOverBy: thread.takenOverBy },
    after: { mode: 'assistant', takenOverBy: null },
  });
  return getThread(ctx.tx, id);
}

/** Links an unknown number's thread (and its open tasks) to the customer staff identified. */
export async function linkThread(
  ctx: TxContext,
  actor: Actor,
  id: string,
  customerId: string,
): Promise<ConversationDetail> {
  const thread = await lockThread(ctx, id);
  if (thread.customerId) throw conflict('This conversation is already linked to a customer');
  const [customer] = await ctx.tx
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!customer) throw unprocessable('Customer not found');
  await ctx.tx.update(conversations).set({ customerId }).where(eq(conversations.id, id));
  await linkConversationTasks(ctx, id, customerId);
  await linkConversationMessages(ctx, id, customerId);
  await writeAudit(ctx.tx, actor, {
    action: 'conversation.link',
    entityType: 'conversation',
    entityId: id,
    before: { customerId: null },
    after: { customerId, phone: thread.phone },
  });
  return getThread(ctx.tx, id);
}
