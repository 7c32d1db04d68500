import { Check, MessagesSquare } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { can } from '@/contracts/roles';
import type { Task } from '@/contracts/tasks';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { NativeSelect } from '@/web/components/ui/native-select';
import { useAuth } from '@/web/hooks/use-auth';
import { formatDateTime } from '@/web/lib/format';
import { errorMessage } from '@/web/lib/queryClient';
import { useCompleteTask, useTasks } from './use-tasks';

/** One task: what, about whom, for whom, and the way to its conversation. */
export function TaskItem({ task, compact = false }: { task: Task; compact?: boolean }) {
  const { user } = useAuth();
  const complete = useCompleteTask();
  return (
    <li className="grid gap-1 rounded-lg border p-3" data-testid={`item-task-${task.id}`}>
      <div className="flex items-start justify-between gap-2">
        <p className="font-medium text-sm">{task.title}</p>
        <Badge variant={task.status === 'open' ? 'warning' : 'secondary'}>
          {task.status === 'open' ? 'Open' : 'Done'}
        </Badge>
      </div>
      {!compact && task.detail && <p className="break-words text-muted-foreground text-sm">{task.detail}</p>}
      <p className="text-muted-foreground text-xs">
        {formatDateTime(task.createdAt)} ·{' '}
        {task.assignedToName ? `for ${task.assignedToName}` : 'not assigned'}
        {task.customerName && (
          <>
            {' · '}
            <Link href={`/customers/${task.customerId}`} className="underline">
              {task.customerName}
            </Link>
          </>
        )}
        {task.contractNumber && ` · ${task.contractNumber}`}
      </p>
      <div className="flex flex-wrap gap-2">
        {task.conversationId && (
          <Button asChild size="sm" variant="outline">
            <Link
              href={`/ai-customer-service?conversation=${task.conversationId}`}
              data-testid={`link-task-thread-${task.id}`}
            >
              <MessagesSquare className="size-4" aria-hidden="true" /> Open the conversation
            </Link>
          </Button>
        )}
        {task.status === 'open' && can(user, 'messages.read') && (
          <Button
            size="sm"
            variant="secondary"
            disabled={complete.isPending}
            onClick={() => complete.mutate(task)}
            data-testid={`button-task-done-${task.id}`}
          >
            <Check className="size-4" aria-hidden="true" /> Done
          </Button>
        )}
      </div>
    </li>
  );
}

/** /ai-customer-service's tasks: the hand-offs, mine or everyone's, open or done. */
export function TaskList() {
  const [mine, setMine] = useState<'true' | 'false'>('false');
  const [status, setStatus] = useState<'open' | 'done'>('open');
  const tasks = useTasks({ mine, status });
  return (
    <section className="grid gap-3" aria-label="Staff tasks" data-testid="list-tasks">
      <div className="flex flex-wrap gap-2">
        <NativeSelect
          aria-label="Whose tasks"
          value={mine}
          onChange={(e) => setMine(e.target.value as 'true' | 'false')}
          data-testid="select-task-mine"
        >
          <option value="false">Everyone's tasks</option>
          <option value="true">My tasks</option>
        </NativeSelect>
        <NativeSelect
          aria-label="Task status"
          value={status}
          onChange={(e) => setStatus(e.target.value as 'open' | 'done')}
          data-testid="select-task-status"
        >
          <option value="open">Open</option>
          <option value="done">Done</option>
        </NativeSelect>
      </div>
      {tasks.isPending ? (
        <Spinner className="size-4" />
      ) : tasks.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {errorMessage(tasks.error)}
        </p>
      ) : tasks.data.items.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="text-no-tasks">
          No {status} tasks.
        </p>
      ) : (
        <ul className="grid gap-2">
          {tasks.data.items.map((task) => (
            <TaskItem key={task.id} task={task} />
          ))}
        </ul>
      )}
    </section>
  );
}
