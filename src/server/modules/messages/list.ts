import { eq, type SQL, sql } from 'drizzle-orm';
import { type Message, messageEndpoints } from '../../../contracts/messages';
import { queryRows } from '../../../db/client';
import { contracts, customers, messages } from '../../../db/schema';
import type { Executor } from '../../context';
import { csvOf, defineList } from '../../list-definition';
import { searchCondition, withinDays } from '../../lists';

/**
 * A message with its customer's name and its contract's number, in one statement. A reply to a
 * number no customer has yet has no customer (LEFT JOIN: its name is null).
 */
// The outbox table is not aliased: the filters and sorts name its columns as drizzle writes them.
const from = sql`${messages} LEFT JOIN ${customers} cu ON cu.id = ${messages.customerId}
  LEFT JOIN ${contracts} c ON c.id = ${messages.contractId}`;

const iso = (column: SQL) => sql`to_json(${column}) #>> '{}'`;

async function selectMessages(
  executor: Executor,
  where: SQL | undefined,
  orderBy: SQL,
  limit: number,
  offset: number,
): Promise<Message[]> {
  const rows = await queryRows<Message>(
    executor,
    sql`SELECT "messages".id, "messages".customer_id AS "customerId", cu.first_name || ' ' || cu.last_name AS "customerName",
               "messages".subject, "messages".bulk_send_id AS "bulkSendId",
               "messages".contract_id AS "contractId", c.number AS "contractNumber", "messages".channel, "messages".recipient,
               "messages".template_key AS template, "messages".template_version AS "templateVersion", "messages".body, "messages".status,
               "messages".skipped_reason AS "skippedReason", "messages".failure_reason AS "failureReason", "messages".attempts,
               ${iso(sql`"messages".next_attempt_at`)} AS "nextAttemptAt", "messages".source_type AS "sourceType",
               "messages".source_id AS "sourceId", ${iso(sql`"messages".created_at`)} AS "createdAt",
               ${iso(sql`"messages".sent_at`)} AS "sentAt", ${iso(sql`"messages".delivered_at`)} AS "deliveredAt"
        FROM ${from}${where ? sql` WHERE ${where}` : sql``}
        ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
  );
  const at = (value: string | null) => (value === null ? null : new Date(value).toISOString());
  return rows.map((row) => ({
    ...row,
    nextAttemptAt: at(row.nextAttemptAt),
    createdAt: at(row.createdAt) as string,
    sentAt: at(row.sentAt),
    deliveredAt: at(row.deliveredAt),
  }));
}

/** One message as the outbox lists it (a single send's or a retry's answer). */
export async function messageById(executor: Executor, id: string): Promise<Message | undefined> {
  const [message] = await selectMessages(executor, sql`"messages".id = ${id}`, sql`"messages".id`, 1, 0);
  return message;
}

/** GET /api/outbox: every message, newest first (API.md "Messages"); the contract page's card. */
export const messageList = defineList({
  name: 'message',
  endpoint: messageEndpoints.outbox,
  shows: [messages],
  count: async (ctx, where) => {
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM ${from}${where ? sql` WHERE ${where}` : sql``}`,
    );
    return row?.n ?? 0;
  },
  search: (q) =>
    searchCondition(
      sql`lower("messages".body || ' ' || "messages".recipient || ' ' || coalesce(c.number, '') || ' ' || coalesce(cu.first_name || ' ' || cu.last_name, ''))`,
      q,
    ),
  filters: {
    status: (status) => eq(messages.status, status),
    template: (template) => eq(messages.templateKey, template),
    channel: (channel) => eq(messages.channel, channel),
    contractId: (id) => eq(messages.contractId, id),
    customerId: (id) => eq(messages.customerId, id),
    recipient: (recipient) => eq(messages.recipient, recipient),
    // Days in the organisation's time zone, as every list has them: `to` takes the whole day.
    from: (from, env) => withinDays(messages.createdAt, from, undefined, env.timeZone),
    to: (to, env) => withinDays(messages.createdAt, undefined, to, env.timeZone),
    bulkSendId: (id) => eq(messages.bulkSendId, id),
  },
  sorts: {
    createdAt: { columns: [messages.createdAt] },
    nextAttemptAt: { columns: [messages.nextAttemptAt], nullsLast: true },
  },
  tieBreak: messages.id,
  rows: ({ ctx, where, orderBy, limit, offset }) =>
    selectMessages(ctx.db, where, sql.join(orderBy, sql`, `), limit, offset),
  csv: csvOf<Message>({ filename: 'outbox.csv', noun: 'messages' }, [
    { header: 'Created at', value: (m) => m.createdAt },
    { header: 'Customer', value: (m) => m.customerName ?? '' },
    { header: 'Contract', value: (m) => m.contractNumber ?? '' },
    { header: 'Channel', value: (m) => m.channel },
    { header: 'Recipient', value: (m) => m.recipient },
    { header: 'Template', value: (m) => m.template },
    { header: 'Status', value: (m) => m.status },
    { header: 'Attempts', value: (m) => m.attempts },
    { header: 'Skipped because', value: (m) => m.skippedReason ?? '' },
    { header: 'Failure reason', value: (m) => m.failureReason ?? '' },
    { header: 'Sent at', value: (m) => m.sentAt ?? '' },
    { header: 'Body', value: (m) => m.body },
  ]),
});
