import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import type { CustomerEvent } from '../../../contracts/customers';
import { MESSAGE_STATUS_LABELS, templateLabel } from '../../../contracts/messages';
import { messages } from '../../../db/schema';
import type { Executor } from '../../context';

const CHANNEL = { sms: 'SMS', whatsapp: 'WhatsApp', email: 'E-mail' } as const;

/**
 * The customer's outbox messages as timeline events (issue 15 §4 "every message appears on the
 * customer's timeline"): `message.<status>`, newest first. A conversation's replies are left out
 * (the conversation's own lines stand for them), and so are messages still queued. Like the
 * contract's `message_sent` line, it names the template and channel, never the body: every role
 * reads the timeline, and bodies carry unlock codes.
 */
export async function outboxTimeline(
  executor: Executor,
  customerId: string,
  limit = 200,
): Promise<CustomerEvent[]> {
  const rows = await executor
    .select({
      id: messages.id,
      at: messages.createdAt,
      sentAt: messages.sentAt,
      status: messages.status,
      channel: messages.channel,
      templateKey: messages.templateKey,
    })
    .from(messages)
    .where(
      and(
        eq(messages.customerId, customerId),
        isNull(messages.conversationId),
        ne(messages.status, 'queued'),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    at: (row.sentAt ?? row.at).toISOString(),
    action: `message.${row.status}`,
    actor: null,
    summary: `${templateLabel(row.templateKey)} by ${CHANNEL[row.channel]}: ${MESSAGE_STATUS_LABELS[row.status].toLowerCase()}`,
  }));
}
