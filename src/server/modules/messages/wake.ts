import type { TxContext } from '../../context';

/** The invalidation bus's namespace that tells every instance a message is waiting to be sent. */
export const MESSAGES_QUEUED = 'messages_queued';

/**
 * Wakes the sender on every instance once the transaction commits, so a token, a receipt or an
 * assistant's reply goes out at once rather than at the next scheduler tick (the delivery routes
 * listen). Inside `withTransaction` it sends no statement of its own (decision 024).
 */
export async function messagesQueued(ctx: TxContext): Promise<void> {
  await ctx.bus.publish(ctx.tx, MESSAGES_QUEUED, 'queued');
}
