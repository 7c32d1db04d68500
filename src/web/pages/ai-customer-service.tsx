import { useLocation, useSearch } from 'wouter';
import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { Button } from '@/web/components/ui/button';
import { ConversationList } from '@/web/features/conversations/conversation-list';
import { ThreadView } from '@/web/features/conversations/thread-view';
import { AssistantScope } from '@/web/features/customer-service/assistant-scope';
import { TaskList } from '@/web/features/tasks/task-list';

const AREA = AREAS['/ai-customer-service'];

/**
 * /ai-customer-service (issue 15 §5): every conversation with the customer-service assistant and
 * staff, a thread with take over, hand back, reply and link, and the hand-off tasks. The open
 * thread and tab live in the address (`?conversation=`, `?tab=tasks`) so links and reloads keep them.
 */
export default function AiCustomerServicePage() {
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const selected = params.get('conversation');
  const tab = params.get('tab') === 'tasks' ? 'tasks' : 'conversations';
  const go = (next: Record<string, string>) =>
    navigate(`${location}?${new URLSearchParams(next).toString()}`, { replace: true });
  return (
    <AreaLayout
      area={AREA}
      className="gap-4"
      refusal={{
        heading: 'Conversations are for staff who message customers',
        reason: 'Ask a manager for the agent role.',
      }}
    >
      <div className="flex gap-2" role="tablist" aria-label="AI customer service">
        <Button
          role="tab"
          aria-selected={tab === 'conversations'}
          size="sm"
          variant={tab === 'conversations' ? 'default' : 'outline'}
          onClick={() => go(selected ? { conversation: selected } : {})}
          data-testid="tab-conversations"
        >
          Conversations
        </Button>
        <Button
          role="tab"
          aria-selected={tab === 'tasks'}
          size="sm"
          variant={tab === 'tasks' ? 'default' : 'outline'}
          onClick={() => go({ tab: 'tasks' })}
          data-testid="tab-tasks"
        >
          Tasks
        </Button>
      </div>
      {tab === 'tasks' ? (
        <TaskList />
      ) : (
        <div className="grid gap-4 lg:grid-cols-[minmax(18rem,26rem)_1fr]">
          <ConversationList selected={selected} onSelect={(id) => go({ conversation: id })} />
          {selected ? <ThreadView key={selected} id={selected} /> : <AssistantScope />}
        </div>
      )}
    </AreaLayout>
  );
}
