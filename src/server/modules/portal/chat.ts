import type { ConversationLine } from '../../../contracts/conversations';
import type { ChatLine } from '../../../contracts/portal';
import type { AppContext, TxContext } from '../../context';
import { conflict } from '../../errors';
import { organisation } from '../../organisation';
import { receiveInbound, threadPhone } from '../conversations/pipeline';
import { getThread, threadLines, threadOfPhone } from '../conversations/threads';
import type { CustomerQuery } from '../customer-service/intent';
import { ownPhone } from './account';

/** How much of the thread the chat shows. */
const SHOWN_LINES = 50;

/**
 * The portal's chat is the customer's thread, the same one WhatsApp and SMS write (one thread per
 * phone): the message goes through the inbound pipeline on the 'portal' channel, so the
 * customer-service assistant answers from this customer's own records, a hand-off creates a task,
 * and a person who took the thread over sees it. The answer is stored on the thread, not sent.
 */
export async function portalChat(
  ctx: TxContext,
  customerId: string,
  text: string,
  query: CustomerQuery,
): Promise<ChatLine[]> {
  const phone = await ownPhone(ctx.tx, customerId);
  const result = await receiveInbound(ctx, {
    channel: 'portal',
    phone,
    body: text,
    providerMessageId: null,
    query,
  });
  const thread = await getThread(ctx.tx, result.conversationId);
  // The thread of this phone belongs to another customer (staff linked it so, or the number
  // moved): nothing of it is shown, and the answer, written in this transaction, is undone.
  if (thread.conversation.customerId !== customerId)
    throw conflict('The chat is not available for this number; please call or message us.');
  return chatLinesOf(thread.lines);
}

/**
 * The thread's latest lines as the chat opens (and while it stays open): a reply a team member
 * wrote since is there. Nothing before the customer's first message, and nothing of a thread
 * linked to another customer.
 */
export async function portalChatLines(ctx: AppContext, customerId: string): Promise<ChatLine[]> {
  const org = await organisation(ctx, ctx.db);
  const thread = await threadOfPhone(ctx.db, threadPhone(await ownPhone(ctx.db, customerId), org.country));
  if (!thread || thread.customerId !== customerId) return [];
  return chatLinesOf(await threadLines(ctx.db, thread.id));
}

function chatLinesOf(lines: readonly ConversationLine[]): ChatLine[] {
  return lines.slice(-SHOWN_LINES).map((line) => ({
    id: line.id,
    from: line.direction === 'in' ? 'you' : line.author === 'staff' ? 'team' : 'assistant',
    body: line.body,
    createdAt: line.createdAt,
  }));
}
