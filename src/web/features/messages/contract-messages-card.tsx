import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Contract } from '@/contracts/contracts';
import {
  MESSAGE_STATUS_LABELS,
  type Message,
  type MessageStatus,
  messageEndpoints,
  templateLabel,
} from '@/contracts/messages';
import { can } from '@/contracts/roles';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { useAuth } from '@/web/hooks/use-auth';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

const STATUS_VARIANT: Record<MessageStatus, 'secondary' | 'success' | 'destructive' | 'warning'> = {
  queued: 'secondary',
  sent: 'success',
  delivered: 'success',
  failed: 'destructive',
  skipped: 'warning',
};

/** What a person reads under a message: why it failed or was not sent, or when it went. */
export function messageDetail(message: Message): string {
  if (message.status === 'skipped') return message.skippedReason ?? 'Not sent';
  if (message.status === 'failed')
    return `Failed after ${message.attempts} attempt${message.attempts === 1 ? '' : 's'}: ${message.failureReason ?? 'no reason given'}`;
  if (message.status === 'queued')
    return message.failureReason
      ? `Retrying (attempt ${message.attempts} failed: ${message.failureReason})`
      : message.nextAttemptAt
        ? `Goes out ${formatDateTime(message.nextAttemptAt)}`
        : 'Waiting to be sent';
  return `${message.status === 'delivered' ? 'Delivered' : 'Sent'} ${formatDateTime(message.deliveredAt ?? message.sentAt ?? message.createdAt)}`;
}

const PAGE = 10;

/**
 * The contract page's "Messages" card: what the outbox sent (or holds) for this contract, newest
 * first, with each message's state and, when it failed or was not sent, the reason.
 */
export function ContractMessagesCard({ contract }: { contract: Pick<Contract, 'id'> }) {
  const { user } = useAuth();
  if (!can(user, 'messages.read')) return null;
  return <MessagesCardBody contractId={contract.id} />;
}

function MessagesCardBody({ contractId }: { contractId: string }) {
  const [pageSize, setPageSize] = useState(PAGE);
  const query = useQuery({
    queryKey: queryKeys.messages.contract(contractId, pageSize),
    queryFn: () => api(messageEndpoints.outbox, { query: { contractId, pageSize } }),
    placeholderData: (previous) => previous,
  });
  return (
    <Card data-testid="card-contract-messages">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Messages</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3 text-sm">
        {query.isPending ? (
          <Spinner className="size-4" />
        ) : query.isError ? (
          <p role="alert" className="text-destructive">
            {errorMessage(query.error)}
          </p>
        ) : query.data.items.length === 0 ? (
          <p className="text-muted-foreground" data-testid="text-no-messages">
            No messages to the customer about this contract yet.
          </p>
        ) : (
          <>
            <ul className="grid grid-cols-1 gap-3" aria-label="Messages to the customer">
              {query.data.items.map((message) => (
                <li key={message.id} className="grid gap-1" data-testid={`item-message-${message.id}`}>
                  <div className="flex items-center justify-between gap-2">
                    <p className="font-medium">{templateLabel(message.template)}</p>
                    <Badge variant={STATUS_VARIANT[message.status]}>
                      {MESSAGE_STATUS_LABELS[message.status]}
                    </Badge>
                  </div>
                  <p className="whitespace-pre-wrap break-words text-muted-foreground">{message.body}</p>
                  <p
                    className={
                      message.status === 'failed' || message.status === 'skipped'
                        ? 'text-destructive text-xs'
                        : 'text-muted-foreground text-xs'
                    }
                  >
                    {message.channel === 'sms' ? 'SMS' : 'WhatsApp'} · {messageDetail(message)}
                  </p>
                </li>
              ))}
            </ul>
            {query.data.total > query.data.items.length && (
              <Button
                size="sm"
                variant="outline"
                disabled={query.isFetching}
                onClick={() => setPageSize((size) => Math.min(200, size + PAGE * 2))}
                data-testid="button-more-messages"
              >
                Show more ({query.data.total - query.data.items.length} older)
              </Button>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
