import { useMutation } from '@tanstack/react-query';
import { Copy, Send } from 'lucide-react';
import { useState } from 'react';
import type { MessageChannel } from '@/contracts/messages';
import { type MessagingTestResult, messagingSettingsEndpoints } from '@/contracts/messaging-settings';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';

/** A credential's field: never shown, only whether one is stored; typing a new one replaces it. */
export function SecretField(props: {
  id: string;
  label: string;
  isSet: boolean;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <FormField
      id={props.id}
      label={props.label}
      error={props.error}
      labelAside={
        <Badge variant={props.isSet ? 'success' : 'outline'} data-testid={`badge-${props.id}`}>
          {props.isSet ? 'Set' : 'Not set'}
        </Badge>
      }
      hint={
        props.isSet ? 'Stored encrypted, never shown. Type a new one to replace it.' : 'Stored encrypted.'
      }
    >
      {(control) => (
        <Input
          {...control}
          type="password"
          autoComplete="new-password"
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          data-testid={`input-${props.id}`}
        />
      )}
    </FormField>
  );
}

/** An address the provider must be given, with a button to copy it. */
export function CopyableUrl({ label, url, testId }: { label: string; url: string; testId: string }) {
  const full = url.startsWith('/') ? `${window.location.origin}${url}` : url;
  return (
    // Columns that may shrink below the address's length, so that it is cut short (with its Copy
    // button beside it) instead of widening the page on a phone.
    <div className="grid min-w-0 grid-cols-1 gap-1.5 md:col-span-2">
      <span className="font-medium text-sm">{label}</span>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 truncate rounded-md bg-muted px-2 py-1.5 font-mono text-xs"
          data-testid={testId}
        >
          {full}
        </code>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => {
            void navigator.clipboard?.writeText(full).then(
              () => toast({ title: 'Copied', description: label }),
              () =>
                toast({ title: 'Could not copy', description: 'Select the address and copy it by hand.' }),
            );
          }}
          aria-label={`Copy ${label}`}
        >
          <Copy aria-hidden="true" /> Copy
        </Button>
      </div>
    </div>
  );
}

/** "Send test": one message through the channel's saved provider, and what it answered. */
export function TestSend({ channel, placeholder }: { channel: MessageChannel; placeholder: string }) {
  const [recipient, setRecipient] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [result, setResult] = useState<MessagingTestResult | null>(null);
  const send = useMutation({
    mutationFn: () => api(messagingSettingsEndpoints.test, { body: { channel, recipient } }),
    onSuccess: (answer) => {
      setError(undefined);
      setResult(answer);
    },
    onError: (failure) => {
      setResult(null);
      setError(fieldErrors(failure).recipient ?? errorMessage(failure));
    },
  });
  const id = `test-${channel}`;
  return (
    <div className="grid gap-2 border-t pt-4 md:col-span-2">
      <div className="flex flex-wrap items-end gap-2">
        <FormField
          id={id}
          label="Send a test to"
          error={error}
          className="min-w-56 flex-1"
          hint="Goes through the saved settings now (save first), not through the outbox."
        >
          {(control) => (
            <Input
              {...control}
              value={recipient}
              placeholder={placeholder}
              onChange={(event) => setRecipient(event.target.value)}
              data-testid={`input-${id}`}
            />
          )}
        </FormField>
        <Button
          type="button"
          variant="outline"
          disabled={send.isPending || !recipient.trim()}
          onClick={() => {
            setResult(null);
            send.mutate();
          }}
          data-testid={`button-${id}`}
        >
          {send.isPending ? <Spinner className="size-4" /> : <Send aria-hidden="true" />} Send test
        </Button>
      </div>
      <div aria-live="polite">
        {result && (
          <p
            className={result.ok ? 'text-sm text-success' : 'text-destructive text-sm'}
            data-testid={`text-${id}`}
          >
            {result.ok
              ? `Sent by ${result.provider} in ${result.latencyMs} ms${result.reference ? ` (reference ${result.reference})` : ''}.`
              : `Not sent by ${result.provider}: ${result.reason}`}
          </p>
        )}
      </div>
    </div>
  );
}
