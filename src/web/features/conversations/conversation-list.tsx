import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  CONVERSATION_CHANNELS,
  CONVERSATION_MODES,
  type Conversation,
  conversationEndpoints,
} from '@/contracts/conversations';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { cn } from '@/web/lib/utils';
import { CHANNEL_LABELS, MODE_LABELS } from './labels';

const PAGE_SIZE = 20;

/** Every thread, the newest first: search, filters (mode, channel, unlinked) and pages. */
export function ConversationList({
  selected,
  onSelect,
}: {
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [mode, setMode] = useState('');
  const [channel, setChannel] = useState('');
  const [unlinked, setUnlinked] = useState('');
  const [page, setPage] = useState(1);
  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(text.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [text]);
  const query: Record<string, string> = {
    page: String(page),
    pageSize: String(PAGE_SIZE),
    ...(q ? { q } : {}),
    ...(mode ? { mode } : {}),
    ...(channel ? { channel } : {}),
    ...(unlinked ? { unlinked } : {}),
  };
  const list = useQuery({
    queryKey: queryKeys.conversations.list(query),
    queryFn: () => api(conversationEndpoints.list, { query }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;
  const filter = (set: (value: string) => void) => (event: { target: { value: string } }) => {
    set(event.target.value);
    setPage(1);
  };

  return (
    <section className="grid content-start gap-3" aria-label="Conversations" data-testid="list-conversations">
      <div className="relative">
        <Search className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden="true" />
        <Input
          className="pl-8"
          placeholder="Search phone, name or account"
          aria-label="Search conversations"
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="input-search-conversations"
        />
      </div>
      <div className="grid grid-cols-3 gap-2">
        <NativeSelect aria-label="Mode" value={mode} onChange={filter(setMode)} data-testid="select-mode">
          <option value="">Any mode</option>
          {CONVERSATION_MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect
          aria-label="Channel"
          value={channel}
          onChange={filter(setChannel)}
          data-testid="select-channel"
        >
          <option value="">Any channel</option>
          {CONVERSATION_CHANNELS.map((c) => (
            <option key={c} value={c}>
              {CHANNEL_LABELS[c]}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect
          aria-label="Customer"
          value={unlinked}
          onChange={filter(setUnlinked)}
          data-testid="select-unlinked"
        >
          <option value="">Any number</option>
          <option value="true">Unknown numbers</option>
          <option value="false">Customers</option>
        </NativeSelect>
      </div>
      {list.isPending ? (
        <Spinner className="size-4" />
      ) : list.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {errorMessage(list.error)}
        </p>
      ) : list.data.items.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="text-no-conversations">
          No conversations yet. Customers' WhatsApp and SMS messages appear here (try /whatsapp-test).
        </p>
      ) : (
        <ul className="grid gap-1">
          {list.data.items.map((c) => (
            <ConversationRow key={c.id} conversation={c} active={c.id === selected} onSelect={onSelect} />
          ))}
        </ul>
      )}
      {pages > 1 && (
        <div className="flex items-center justify-between text-sm">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <span className="text-muted-foreground">
            Page {page} of {pages}
          </span>
          <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Older
          </Button>
        </div>
      )}
    </section>
  );
}

function ConversationRow({
  conversation: c,
  active,
  onSelect,
}: {
  conversation: Conversation;
  active: boolean;
  onSelect: (id: string) => void;
}) {
  return (
    <li>
      <button
        type="button"
        onClick={() => onSelect(c.id)}
        aria-current={active ? 'true' : undefined}
        className={cn(
          'grid w-full gap-0.5 rounded-lg border p-2 text-left text-sm hover:bg-accent/40',
          active && 'border-primary bg-accent/40',
        )}
        data-testid={`row-conversation-${c.id}`}
      >
        <span className="flex items-center justify-between gap-2">
          <span className="truncate font-medium">{c.customerName ?? c.phone}</span>
          <span className="shrink-0 text-muted-foreground text-xs">{formatDateTime(c.lastMessageAt)}</span>
        </span>
        <span className="truncate text-muted-foreground">{c.lastMessage ?? ''}</span>
        <span className="flex flex-wrap gap-1">
          <Badge variant="outline">{CHANNEL_LABELS[c.channel]}</Badge>
          {c.mode === 'staff' && <Badge variant="warning">{c.takenOverByName ?? 'Taken over'}</Badge>}
          {!c.customerId && <Badge variant="secondary">Unknown number</Badge>}
          {c.openTasks > 0 && (
            <Badge variant="destructive">
              {c.openTasks} open task{c.openTasks === 1 ? '' : 's'}
            </Badge>
          )}
        </span>
      </button>
    </li>
  );
}
