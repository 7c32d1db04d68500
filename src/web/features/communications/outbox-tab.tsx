import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Inbox, RotateCcw } from 'lucide-react';
import { useId, useState } from 'react';
import { communicationEndpoints } from '@/contracts/communications';
import {
  MESSAGE_CHANNELS,
  MESSAGE_STATUS_LABELS,
  MESSAGE_STATUSES,
  type Message,
  messageEndpoints,
  templateLabel,
} from '@/contracts/messages';
import { can } from '@/contracts/roles';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { type Column, ListPage, type ListStateApi, TwoLineCell } from '@/web/components/data-list';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { messageDetail } from '@/web/features/messages/contract-messages-card';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage } from '@/web/lib/queryClient';
import { CHANNEL_LABELS, groupTemplates, useTemplates } from './queries';

/**
 * The Outbox tab: every message, newest first, with its delivery state and the reason it failed
 * or was not sent; filters by status, channel, template and date; search by recipient or text;
 * CSV; and Retry for a failed message (queued again, attempts reset).
 */
export function OutboxTab() {
  const { user } = useAuth();
  const templates = useTemplates();
  const [retrying, setRetrying] = useState<Message | null>(null);
  const keys = groupTemplates(templates.data?.items ?? []).map((g) => [g.key, g.name] as const);
  const columns: Column<Message>[] = [
    {
      key: 'createdAt',
      header: 'Queued',
      sort: 'createdAt',
      cell: (m) => <span className="whitespace-nowrap text-xs">{formatDateTime(m.createdAt)}</span>,
    },
    {
      key: 'recipient',
      header: 'To',
      cell: (m) => (
        <TwoLineCell
          main={m.customerName ?? 'Unknown number'}
          sub={`${CHANNEL_LABELS[m.channel]} · ${m.recipient}${m.contractNumber ? ` · ${m.contractNumber}` : ''}`}
        />
      ),
    },
    {
      key: 'body',
      header: 'Message',
      wide: true,
      cell: (m) => (
        <TwoLineCell
          main={templateLabel(m.template)}
          sub={<span className="line-clamp-2 whitespace-normal">{m.body}</span>}
        />
      ),
    },
    {
      key: 'status',
      header: 'State',
      cell: (m) => (
        <TwoLineCell
          main={<span data-testid={`status-message-${m.id}`}>{MESSAGE_STATUS_LABELS[m.status]}</span>}
          sub={<span className="whitespace-normal">{messageDetail(m)}</span>}
        />
      ),
    },
    {
      key: 'actions',
      header: '',
      align: 'right',
      cell: (m) =>
        m.status === 'failed' && can(user, 'messages.send') ? (
          <Button
            variant="outline"
            size="sm"
            onClick={() => setRetrying(m)}
            data-testid={`button-retry-${m.id}`}
          >
            <RotateCcw aria-hidden="true" /> Retry
          </Button>
        ) : null,
    },
  ];
  return (
    <div className="grid min-w-0 grid-cols-1" data-testid="panel-outbox">
      <ListPage<Message>
        endpoint={messageEndpoints.outbox}
        label="Messages"
        testId="outbox"
        searchPlaceholder="Search recipient, customer, contract or text"
        filters={[
          {
            name: 'status',
            label: 'State',
            allLabel: 'All states',
            options: MESSAGE_STATUSES.map((s) => [s, MESSAGE_STATUS_LABELS[s]] as const),
            testId: 'outbox-status',
          },
          {
            name: 'channel',
            label: 'Channel',
            allLabel: 'All channels',
            options: MESSAGE_CHANNELS.map((c) => [c, CHANNEL_LABELS[c]] as const),
            testId: 'outbox-channel',
          },
          {
            name: 'template',
            label: 'Template',
            allLabel: 'All templates',
            options: keys,
            testId: 'outbox-template',
            keepCurrent: true,
          },
        ]}
        header={(list) => <DateRange list={list} />}
        columns={columns}
        rowKey={(m) => m.id}
        empty={{
          filtered: 'No messages match these filters.',
          none: 'No messages yet. Reminders, receipts, tokens and sends from this page appear here.',
        }}
        emptyIcon={Inbox}
      />
      {retrying ? <RetryDialog message={retrying} onClose={() => setRetrying(null)} /> : null}
    </div>
  );
}

function DateRange({ list }: { list: ListStateApi }) {
  const ids = useId();
  const { filters } = list.state;
  const wrong = filters.from && filters.to && filters.from > filters.to;
  return (
    <div className="mb-3 flex flex-wrap items-end gap-3">
      <div className="grid grid-cols-1 gap-1">
        <Label htmlFor={`${ids}-from`} className="text-xs">
          From
        </Label>
        <Input
          id={`${ids}-from`}
          type="date"
          className="w-40 dark:[color-scheme:dark]"
          value={filters.from ?? ''}
          onChange={(event) => list.setFilter('from', event.target.value)}
          aria-invalid={!!wrong}
          data-testid="input-outbox-from"
        />
      </div>
      <div className="grid grid-cols-1 gap-1">
        <Label htmlFor={`${ids}-to`} className="text-xs">
          To
        </Label>
        <Input
          id={`${ids}-to`}
          type="date"
          className="w-40 dark:[color-scheme:dark]"
          value={filters.to ?? ''}
          onChange={(event) => list.setFilter('to', event.target.value)}
          data-testid="input-outbox-to"
        />
      </div>
      {wrong ? (
        <p role="alert" className="text-destructive text-xs">
          The start date is after the end date
        </p>
      ) : null}
    </div>
  );
}

function RetryDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => api(communicationEndpoints.retry, { params: { id: message.id } }),
    onSuccess: () => {
      void invalidate(queryClient, 'messagesQueued');
      toast({ title: 'Queued again' });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => !next && onClose()}
      title="Retry this message?"
      description={
        <>
          It is queued again with its attempts counted afresh
          {message.failureReason ? ` (it failed: ${message.failureReason})` : ''}.
          {mutation.error ? (
            <span role="alert" className="mt-2 block text-destructive">
              {errorMessage(mutation.error)}
            </span>
          ) : null}
        </>
      }
      confirmLabel="Retry"
      pending={mutation.isPending}
      onConfirm={() => mutation.mutate()}
    />
  );
}
