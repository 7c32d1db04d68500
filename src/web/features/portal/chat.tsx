import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { type ChatLine, portalEndpoints } from '@/contracts/portal';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, replaceQueryData } from '@/web/lib/queryClient';

const WHO: Record<ChatLine['from'], string> = { you: 'You', assistant: 'Assistant', team: 'Our team' };

/** How often an open chat looks for a team member's reply. */
const POLL_MS = 15_000;

/**
 * Chat with the customer-service assistant (the same one as on WhatsApp): it answers from this
 * customer's own account; "agent" asks for a person, whose replies appear here. Loaded only when
 * the customer opens it, with the thread so far.
 */
export default function PortalChat() {
  const queryClient = useQueryClient();
  const thread = useQuery({
    queryKey: queryKeys.portal.chat(),
    queryFn: async () => (await api(portalEndpoints.chatLines)).lines,
    refetchInterval: POLL_MS,
  });
  const lines: ChatLine[] = thread.data ?? [];
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  async function send(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api(portalEndpoints.chat, { body: { text } });
      await replaceQueryData(queryClient, queryKeys.portal.chat(), answer.lines);
      setText('');
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <ol className="flex max-h-80 flex-col gap-2 overflow-y-auto" aria-live="polite" data-testid="list-chat">
        {thread.isPending ? (
          <li className="text-muted-foreground text-sm">Loading your messages…</li>
        ) : lines.length === 0 ? (
          <li className="text-muted-foreground text-sm">
            Ask about your balance, next payment, how to pay, paying off early or your last payments.
          </li>
        ) : (
          lines.map((line) => (
            <li
              key={line.id}
              className={
                line.from === 'you'
                  ? 'ml-8 self-end rounded-lg bg-primary px-3 py-2 text-primary-foreground text-sm'
                  : 'mr-8 self-start rounded-lg bg-muted px-3 py-2 text-sm'
              }
            >
              <span className="sr-only">{WHO[line.from]}: </span>
              {line.body}
            </li>
          ))
        )}
      </ol>
      <form onSubmit={send} className="flex gap-2">
        <label htmlFor={inputId} className="sr-only">
          Your message
        </label>
        <Input
          id={inputId}
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Type your question"
          maxLength={1000}
          className="h-11"
          data-testid="input-chat"
        />
        <Button type="submit" disabled={busy || !text.trim()} className="h-11" data-testid="button-chat-send">
          {busy ? 'Sending…' : 'Send'}
        </Button>
      </form>
      {error || thread.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {error ?? errorMessage(thread.error)}
        </p>
      ) : null}
    </div>
  );
}
