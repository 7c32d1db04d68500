import { desc, eq } from 'drizzle-orm';
import type { CustomerEvent } from '../../../contracts/customers';
import { conversationMessages, conversations } from '../../../db/schema';
import type { Executor } from '../../context';

const CHANNEL = { whatsapp: 'WhatsApp', sms: 'SMS', portal: 'Portal chat' } as const;
const WHO = {
  customer: 'Customer',
  assistant: 'Assistant',
  staff: 'Staff',
  system: 'Automatic reply',
} as const;

/**
 * The customer's conversation lines as timeline events (issue 15 §4 "every message appears on
 * the customer's timeline"): `conversation.in` / `conversation.out`, newest first.
 */
export async function conversationTimeline(
  executor: Executor,
  customerId: string,
  limit = 200,
): Promise<CustomerEvent[]> {
  const rows = await executor
    .select({
      id: conversationMessages.id,
      at: conversationMessages.createdAt,
      direction: conversationMessages.direction,
      author: conversationMessages.author,
      channel: conversationMessages.channel,
      intent: conversationMessages.intent,
    })
    .from(conversationMessages)
    .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
    .where(eq(conversations.customerId, customerId))
    .orderBy(desc(conversationMessages.createdAt), desc(conversationMessages.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    action: `conversation.${row.direction}`,
    actor: WHO[row.author],
    // The timeline is shown to every role: what kind of message, not its words (the thread has them).
    summary: `${CHANNEL[row.channel]} ${row.direction === 'in' ? 'message from the customer' : 'reply'}${row.intent ? ` (${row.intent.replace(/_/g, ' ')})` : ''}`,
  }));
}
