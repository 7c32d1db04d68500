import type { QueryClient } from '@tanstack/react-query';

/**
 * The query keys of conversations and staff tasks (issue 15). Each starts with its endpoint's path,
 * as every key of the app does, so a change refreshes all of an area's queries at once.
 */
export const conversationKeys = {
  all: () => ['/api/conversations'] as const,
  list: (query: Record<string, string>) => ['/api/conversations', 'list', query] as const,
  thread: (id: string) => ['/api/conversations', id] as const,
};

export const taskKeys = {
  all: () => ['/api/tasks'] as const,
  list: (query: Record<string, string>) => ['/api/tasks', query] as const,
};

/** A thread changed (a reply, take over, hand back, link): its lists, the thread, the tasks. */
export function conversationChanged(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: conversationKeys.all() }),
    client.invalidateQueries({ queryKey: taskKeys.all() }),
  ]);
}
