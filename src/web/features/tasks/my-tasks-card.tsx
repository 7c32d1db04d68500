import { Link } from 'wouter';
import { can } from '@/contracts/roles';
import { Spinner } from '@/web/components/loaders';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { useAuth } from '@/web/hooks/use-auth';
import { errorMessage } from '@/web/lib/queryClient';
import { TaskItem } from './task-list';
import { useTasks } from './use-tasks';

/** The dashboard's "My tasks" card: my open tasks (hand-offs from the assistant), the newest five. */
export function MyTasksCard() {
  const { user } = useAuth();
  const allowed = can(user, 'messages.read');
  const tasks = useTasks({ mine: 'true', status: 'open' }, allowed);
  if (!allowed) return null;
  return (
    <Card data-testid="card-my-tasks">
      <CardHeader className="flex flex-row items-center justify-between pb-3">
        <CardTitle className="text-base">My tasks{tasks.data ? ` (${tasks.data.open})` : ''}</CardTitle>
        <Link
          href="/ai-customer-service?tab=tasks"
          className="text-sm underline"
          data-testid="link-all-tasks"
        >
          All tasks
        </Link>
      </CardHeader>
      <CardContent>
        {tasks.isPending ? (
          <Spinner className="size-4" />
        ) : tasks.isError ? (
          <p role="alert" className="text-destructive text-sm">
            {errorMessage(tasks.error)}
          </p>
        ) : tasks.data.items.length === 0 ? (
          <p className="text-muted-foreground text-sm" data-testid="text-no-my-tasks">
            Nothing waiting for you.
          </p>
        ) : (
          <ul className="grid gap-2">
            {tasks.data.items.slice(0, 5).map((task) => (
              <TaskItem key={task.id} task={task} compact />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
