import { useMutation } from '@tanstack/react-query';
import { Bot, SendHorizontal, Sparkles, X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { type Analysis, assistantEndpoints } from '@/contracts/assistant';
// Only the money module: the rest of the engine (schedules, decimal maths) stays with the calculator.
import { formatMoney } from '@/domain/money';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { cn } from '@/web/lib/utils';
import {
  ASSISTANT_TITLE,
  type ChatMessage,
  ERROR_TOAST,
  formatConfidence,
  formatDays,
  GREETING,
  INPUT_PLACEHOLDER,
  LOADING_TEXT,
  LOW_CONFIDENCE,
  QUICK_QUERIES,
} from './messages';

/** The answer is checked against its schema: one of another shape is a failure like any other. */
function analyze(query: string) {
  return api(assistantEndpoints.analyze, { body: { query } });
}

interface AssistantPanelProps {
  open: boolean;
  onClose: () => void;
}

/**
 * Seed sections 2-8: the Finance AI Assistant chat. Sending trims the question and ignores a blank
 * one; Enter sends, Shift+Enter starts a new line; send is disabled while blank or pending. A reply
 * shows the summary, the impacts (term reduction in days, interest savings in the answer's currency)
 * and the confidence as a percentage, with the figures behind the summary under "Show details" and
 * the server's suggestions as one-click questions; a failure shows the 'Analysis Error' toast. A floating panel
 * on desktop, a bottom sheet above the navigation bar on phones; Escape closes it.
 */
export default function AssistantPanel({ open, onClose }: AssistantPanelProps) {
  const [messages, setMessages] = useState<ChatMessage[]>([{ type: 'assistant', content: GREETING }]);
  const [input, setInput] = useState('');
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);

  const analysis = useMutation({
    mutationFn: analyze,
    onSuccess: (response) => {
      setMessages((current) => [...current, { type: 'assistant', content: response.summary, response }]);
    },
    onError: () => {
      toast({ variant: 'destructive', title: ERROR_TOAST.title, description: ERROR_TOAST.description });
    },
  });
  const pending = analysis.isPending;

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  // Keep the newest message in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the conversation changes
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, pending]);

  const send = (text: string) => {
    const query = text.trim();
    if (!query || pending) return;
    setMessages((current) => [...current, { type: 'user', content: query }]);
    setInput('');
    analysis.mutate(query);
    inputRef.current?.focus();
  };

  /** Quick queries and suggestions: fill the input and send at once. */
  const ask = (query: string) => {
    setInput(query);
    send(query);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send(input);
  };

  const onInputKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send(input);
    }
  };

  const onPanelKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <section
      id="assistant-panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby="assistant-title"
      hidden={!open}
      onKeyDown={onPanelKeyDown}
      data-testid="panel-assistant"
      className={cn(
        'fixed inset-x-0 bottom-[calc(4rem+env(safe-area-inset-bottom))] z-40 flex h-[min(70dvh,34rem)] flex-col overflow-hidden rounded-t-2xl border bg-card text-card-foreground shadow-2xl',
        'md:inset-x-auto md:right-6 md:bottom-24 md:h-[min(34rem,calc(100dvh-12rem))] md:w-[26rem] md:rounded-2xl',
        'print:hidden',
      )}
    >
      <header className="flex items-center gap-3 border-b px-4 py-3">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
          <Bot className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id="assistant-title" className="font-semibold text-sm leading-tight">
            {ASSISTANT_TITLE}
          </h2>
          <p className="truncate text-muted-foreground text-xs">Answers from your portfolio's own figures</p>
        </div>
        <Button
          variant="ghost"
          size="icon"
          onClick={onClose}
          aria-label={`Close ${ASSISTANT_TITLE}`}
          data-testid="button-assistant-close"
        >
          <X aria-hidden="true" />
        </Button>
      </header>

      <div
        ref={logRef}
        role="log"
        aria-live="polite"
        aria-label="Conversation"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to scroll the conversation
        tabIndex={0}
        className="flex flex-1 flex-col gap-3 overflow-y-auto overscroll-contain px-4 py-4 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
        data-testid="list-assistant-messages"
      >
        {messages.map((message, index) => (
          <MessageBubble
            // Messages are only ever appended, so the index is a stable key.
            // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
            key={index}
            message={message}
            onAsk={ask}
            disabled={pending}
          />
        ))}
        {pending && (
          <div
            role="status"
            className="flex items-center gap-2 self-start rounded-2xl rounded-bl-sm bg-muted px-3 py-2 text-muted-foreground text-sm"
            data-testid="text-assistant-loading"
          >
            <Spinner className="size-4" />
            {LOADING_TEXT}
          </div>
        )}
      </div>

      <div className="border-t px-3 pt-2.5 pb-3">
        <fieldset className="-mx-3 mb-2.5 flex gap-2 overflow-x-auto px-3 pb-0.5 md:flex-wrap md:overflow-visible">
          <legend className="sr-only">Quick queries</legend>
          {QUICK_QUERIES.map((query, index) => (
            <button
              key={query}
              type="button"
              onClick={() => ask(query)}
              disabled={pending}
              className="shrink-0 rounded-full border bg-card px-3 py-1.5 font-medium text-xs transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
              data-testid={`button-quick-query-${index}`}
            >
              {query}
            </button>
          ))}
        </fieldset>
        <form onSubmit={onSubmit} className="flex items-end gap-2">
          <label htmlFor="assistant-input" className="sr-only">
            Your question
          </label>
          <textarea
            id="assistant-input"
            ref={inputRef}
            value={input}
            onChange={(event) => setInput(event.target.value)}
            onKeyDown={onInputKeyDown}
            placeholder={INPUT_PLACEHOLDER}
            rows={Math.min(4, input.split('\n').length)}
            maxLength={500}
            enterKeyHint="send"
            className="max-h-32 min-h-10 flex-1 resize-none rounded-lg border border-input bg-background px-3 py-2 text-base outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 md:text-sm"
            data-testid="input-assistant"
          />
          <Button
            type="submit"
            size="icon"
            className="size-10 shrink-0"
            disabled={!input.trim() || pending}
            aria-label="Send"
            data-testid="button-assistant-send"
          >
            <SendHorizontal aria-hidden="true" />
          </Button>
        </form>
      </div>
    </section>
  );
}

function MessageBubble({
  message,
  onAsk,
  disabled,
}: {
  message: ChatMessage;
  onAsk: (query: string) => void;
  disabled: boolean;
}) {
  if (message.type === 'user') {
    return (
      <div
        className="max-w-[85%] self-end whitespace-pre-wrap break-words rounded-2xl rounded-br-sm bg-primary px-3 py-2 text-primary-foreground text-sm"
        data-testid="message-user"
      >
        <span className="sr-only">You: </span>
        {message.content}
      </div>
    );
  }
  const { response } = message;
  return (
    <div
      className="grid grid-cols-1 max-w-[92%] gap-2.5 self-start rounded-2xl rounded-bl-sm bg-muted px-3 py-2.5 text-sm"
      data-testid="message-assistant"
    >
      <p
        className="whitespace-pre-wrap break-words"
        data-testid={response ? 'text-assistant-summary' : undefined}
      >
        <span className="sr-only">Assistant: </span>
        {message.content}
      </p>
      {response && <Reply response={response} onAsk={onAsk} disabled={disabled} />}
    </div>
  );
}

function Reply({
  response,
  onAsk,
  disabled,
}: {
  response: Analysis;
  onAsk: (q: string) => void;
  disabled: boolean;
}) {
  const low = response.confidence < LOW_CONFIDENCE;
  return (
    <>
      <dl className="grid grid-cols-2 gap-2">
        <Impact
          label="Term reduction"
          value={formatDays(response.impacts.termReduction)}
          testId="text-term-reduction"
        />
        <Impact
          label="Interest savings"
          value={savings(response.impacts.interestSavings, response.currency)}
          testId="text-interest-savings"
        />
      </dl>
      <p className="text-muted-foreground text-xs">
        Confidence:{' '}
        <span
          className={cn(
            'font-semibold',
            low ? 'text-warning-foreground dark:text-warning' : 'text-foreground',
          )}
          data-testid="text-confidence"
        >
          {formatConfidence(response.confidence)}
        </span>
      </p>
      {response.details.length > 0 && (
        <details className="group text-xs" data-testid="details-assistant">
          <summary className="cursor-pointer select-none rounded font-medium text-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <span className="group-open:hidden">Show details</span>
            <span className="hidden group-open:inline">Hide details</span>
          </summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-4" data-testid="list-assistant-details">
            {response.details.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </details>
      )}
      {response.assumptions.length > 0 && (
        <div className="text-xs">
          <p className="font-medium text-muted-foreground">Assumptions</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-4" data-testid="list-assumptions">
            {response.assumptions.map((assumption) => (
              <li key={assumption}>{assumption}</li>
            ))}
          </ul>
        </div>
      )}
      {response.suggestions.length > 0 && (
        <div className="text-xs">
          <p className="flex items-center gap-1 font-medium text-muted-foreground">
            <Sparkles className="size-3.5" aria-hidden="true" />
            You could ask
          </p>
          <div className="mt-1.5 flex flex-wrap gap-1.5">
            {response.suggestions.map((suggestion, index) => (
              <button
                key={suggestion}
                type="button"
                onClick={() => onAsk(suggestion)}
                disabled={disabled}
                className="rounded-full border border-primary/40 bg-card px-2.5 py-1 text-left text-primary transition-colors hover:bg-primary/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
                data-testid={`button-suggestion-${index}`}
              >
                {suggestion}
              </button>
            ))}
          </div>
        </div>
      )}
    </>
  );
}

function Impact({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg bg-card px-2.5 py-2">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Interest savings from minor units in the answer's currency; an unknown code is shown as is. */
function savings(minor: number, currency: string): string {
  try {
    return formatMoney(minor, currency);
  } catch {
    return `${minor.toLocaleString('en-US')} (minor units of ${currency})`;
  }
}
