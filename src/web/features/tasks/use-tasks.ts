import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Task, taskEndpoints } from '@/contracts/tasks';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { conversationChanged } from '../conversations/keys';

/** Staff tasks: mine or everyone's, open or done (GET /api/tasks). */
export function useTasks(query: { mine?: 'true' | 'false'; status?: 'open' | 'done' }, enabled = true) {
  return useQuery({
    queryKey: queryKeys.tasks.list(query),
    queryFn: () => api(taskEndpoints.list, { query }),
    enabled,
    refetchInterval: 30_000,
  });
}

export function useCompleteTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (task: Task) => api(taskEndpoints.done, { params: { id: task.id } }),
    onSuccess: (task) => {
      void conversationChanged(client);
      toast({ title: 'Task done', description: task.title });
    },
    onError: (failure) =>
      toast({
        title: 'The task was not changed',
        description: errorMessage(failure),
        variant: 'destructive',
      }),
  });
}
