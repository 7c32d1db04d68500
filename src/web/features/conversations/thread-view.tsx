import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bot, Send, UserRoundCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import {
  type ConversationDetail,
  type ConversationLine,
  conversationEndpoints,
} from '@/contracts/conversations';
import { type CustomerListItem, customerEndpoints } from '@/contracts/customers';
import { can } from '@/contracts/roles';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Textarea } from '@/web/components/ui/textarea';
import { ServerPicker } from '@/web/features/contracts/server-picker';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, replaceQueryData } from '@/web/lib/queryClient';
import { cn } from '@/web/lib/utils';
import { TaskItem } from '../tasks/task-list';
import { conversationChanged } from './keys';
import { AUTHOR_LABELS, CHANNEL_LABELS, MODE_LABELS } from './labels';

/** One line of a thread: the customer's on the left, ours on the right, with who and when. */
export function ThreadLine({ line }: { line: ConversationLine }) {
  const ours = line.direction === 'out';
  return (
    <li className={cn('flex', ours ? 'justify-end' : 'justify-start')} data-testid={`line-${line.author}`}>
      <div
        className={cn(
          'grid max-w-[85%] gap-1 rounded-lg px-3 py-2 text-sm',
          ours ? 'bg-primary/10' : 'bg-muted',
        )}
      >
        <p className="whitespace-pre-wrap break-words">{line.body}</p>
        <p className="text-muted-foreground text-xs">
          {line.userName ?? AUTHOR_LABELS[line.author]} · {CHANNEL_LABELS[line.channel]} ·{' '}
          {formatDateTime(line.createdAt)}
          {line.intent && ` · ${line.intent.replace(/_/g, ' ')}`}
          {line.messageStatus && ` · ${line.messageStatus}`}
        </p>
      </div>
    </li>
  );
}

/** A thread with every line, the staff actions (take over, hand back, reply, link) and its tasks. */
export function ThreadView({ id }: { id: string }) {
  const { user } = useAuth();
  const client = useQueryClient();
  const maySend = can(user, 'messages.send');
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<CustomerListItem | null>(null);
  const thread = useQuery({
    queryKey: queryKeys.conversations.thread(id),
    queryFn: () => api(conversationEndpoints.get, { params: { id } }),
    refetchInterval: 5_000,
  });
  const act = useMutation({
    mutationFn: (action: () => Promise<ConversationDetail>) => action(),
    onSuccess: async (detail) => {
      await replaceQueryData(client, queryKeys.conversations.thread(id), detail);
      void conversationChanged(client);
    },
    onError: (failure) =>
      toast({ title: 'Not done', description: errorMessage(failure), variant: 'destructive' }),
  });

  if (thread.isPending) return <Spinner className="size-5" />;
  if (thread.isError)
    return (
      <p role="alert" className="text-destructive text-sm">
        {errorMessage(thread.error)}
      </p>
    );
  const { conversation: c, lines, tasks } = thread.data;
  const reply = (event: FormEvent) => {
    event.preventDefault();
    const body = text.trim();
    if (!body) return;
    act.mutate(() => api(conversationEndpoints.reply, { params: { id }, body: { text: body } }), {
      onSuccess: () => setText(''),
    });
  };

  return (
    <Card data-testid="card-thread">
      <CardHeader className="grid gap-2 pb-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="text-base" data-testid="text-thread-title">
            {c.customerId ? (
              <Link href={`/customers/${c.customerId}`} className="underline">
                {c.customerName}
              </Link>
            ) : (
              'Unknown number'
            )}{' '}
            <span className="font-normal text-muted-foreground">{c.phone}</span>
          </CardTitle>
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant={c.mode === 'staff' ? 'warning' : 'secondary'} data-testid="badge-mode">
              {c.mode === 'staff' && c.takenOverByName ? `${c.takenOverByName} answers` : MODE_LABELS[c.mode]}
            </Badge>
            {maySend &&
              (c.mode === 'assistant' || c.takenOverBy !== user?.id ? (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={act.isPending}
                  onClick={() => act.mutate(() => api(conversationEndpoints.takeOver, { params: { id } }))}
                  data-testid="button-take-over"
                >
                  <UserRoundCheck className="size-4" aria-hidden="true" /> Take over
                </Button>
              ) : null)}
            {maySend && c.mode === 'staff' && (
              <Button
                size="sm"
                variant="outline"
                disabled={act.isPending}
                onClick={() => act.mutate(() => api(conversationEndpoints.handBack, { params: { id } }))}
                data-testid="button-hand-back"
              >
                <Bot className="size-4" aria-hidden="true" /> Hand back to the assistant
              </Button>
            )}
          </div>
        </div>
        {!c.customerId && maySend && (
          <div className="flex flex-wrap items-end gap-2">
            <div className="min-w-64 flex-1">
              <ServerPicker<CustomerListItem>
                id="link-customer"
                endpoint={customerEndpoints.list}
                selected={
                  picked ? { value: picked.id, label: `${picked.fullName} (${picked.accountNumber})` } : null
                }
                onSelect={setPicked}
                itemId={(item) => item.id}
                itemLabel={(item) => `${item.fullName} (${item.accountNumber}, ${item.phone})`}
                searchLabel="Search customers by name, phone or account number"
                placeholder="Link to a customer…"
                data-testid="select-link-customer"
              />
            </div>
            <Button
              size="sm"
              disabled={!picked || act.isPending}
              onClick={() =>
                picked &&
                act.mutate(() =>
                  api(conversationEndpoints.link, { params: { id }, body: { customerId: picked.id } }),
                )
              }
              data-testid="button-link-customer"
            >
              Link
            </Button>
          </div>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <ol
          className="grid max-h-[60vh] gap-2 overflow-y-auto"
          aria-label="Messages"
          data-testid="list-thread-lines"
        >
          {lines.map((line) => (
            <ThreadLine key={line.id} line={line} />
          ))}
        </ol>
        {maySend && (
          <form onSubmit={reply} className="grid gap-2">
            <Textarea
              aria-label="Reply"
              placeholder={
                c.mode === 'assistant'
                  ? 'Reply as yourself (the assistant keeps answering until you take over)'
                  : 'Reply to the customer'
              }
              value={text}
              maxLength={1000}
              onChange={(e) => setText(e.target.value)}
              data-testid="input-reply"
            />
            <div className="flex items-center justify-between gap-2">
              <p className="text-muted-foreground text-xs">
                {c.channel === 'portal'
                  ? 'Shown in the portal chat.'
                  : `Sent by ${CHANNEL_LABELS[c.channel]} through the outbox.`}
              </p>
              <Button
                type="submit"
                size="sm"
                disabled={!text.trim() || act.isPending}
                data-testid="button-send-reply"
              >
                <Send className="size-4" aria-hidden="true" /> Send
              </Button>
            </div>
          </form>
        )}
        {tasks.length > 0 && (
          <section aria-label="Tasks of this conversation" className="grid gap-2">
            <h3 className="font-medium text-sm">Tasks</h3>
            <ul className="grid gap-2">
              {tasks.map((task) => (
                <TaskItem key={task.id} task={task} />
              ))}
            </ul>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
