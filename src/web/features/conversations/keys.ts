import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/web/lib/query-keys';

/** A thread changed (a reply, take over, hand back, link): its lists, the thread, the tasks. */
export function conversationChanged(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.conversations.all() }),
    client.invalidateQueries({ queryKey: queryKeys.tasks.all() }),
  ]);
}
