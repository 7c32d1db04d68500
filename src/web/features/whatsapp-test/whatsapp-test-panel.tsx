import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Send, XCircle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { conversationEndpoints, type WhatsappTestResult } from '@/contracts/conversations';
import { FormAlert } from '@/web/components/form-alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { api } from '@/web/lib/api';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { conversationChanged } from '../conversations/keys';
import { ThreadLine } from '../conversations/thread-view';

function Json({ value, label, testId }: { value: unknown; label: string; testId: string }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className="max-h-80 overflow-auto rounded-md bg-muted p-3 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      data-testid={testId}
    >
      <pre className="text-xs">{JSON.stringify(value, null, 2)}</pre>
    </section>
  );
}

/**
 * /whatsapp-test (issue 15 §6): a phone number and a text become the WhatsApp Cloud API payload
 * Meta would post, signed and sent through the real webhook; the answer, both payloads, the
 * signature check and the thread are shown. Each send continues the same thread.
 */
export function WhatsappTestPanel() {
  const client = useQueryClient();
  const [phone, setPhone] = useState('');
  const [text, setText] = useState('');
  const [results, setResults] = useState<WhatsappTestResult[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () => api(conversationEndpoints.whatsappTest, { body: { phone, text } }),
    onSuccess: (result) => {
      setResults((previous) => [result, ...previous].slice(0, 10));
      setText('');
      setErrors({});
      setAlert(null);
      void conversationChanged(client);
    },
    onError: (failure) => {
      const fields = fieldErrors(failure);
      setErrors(fields);
      setAlert(Object.keys(fields).length ? null : errorMessage(failure));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate();
  };
  const [latest] = results;

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Send as a customer</CardTitle>
          <CardDescription>
            A customer’s own phone number gets their own answers; any other number opens a thread for an
            unknown number.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form className="grid gap-3" onSubmit={submit}>
            <FormAlert message={alert} />
            <div className="grid gap-1">
              <Label htmlFor="wa-phone">Phone number</Label>
              <Input
                id="wa-phone"
                value={phone}
                onChange={(e) => setPhone(e.target.value)}
                placeholder="+254 712 345 678"
                aria-invalid={!!errors.phone}
                data-testid="input-wa-phone"
              />
              {errors.phone && <p className="text-destructive text-xs">{errors.phone}</p>}
            </div>
            <div className="grid gap-1">
              <Label htmlFor="wa-text">Message</Label>
              <Input
                id="wa-text"
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder="What is my balance?"
                aria-invalid={!!errors.text}
                data-testid="input-wa-text"
              />
              {errors.text && <p className="text-destructive text-xs">{errors.text}</p>}
            </div>
            <Button
              type="submit"
              disabled={send.isPending || !phone.trim() || !text.trim()}
              data-testid="button-wa-send"
            >
              <Send className="size-4" aria-hidden="true" /> Send through the webhook
            </Button>
          </form>
          {latest && (
            <div className="mt-4 grid gap-2 text-sm" data-testid="wa-result">
              <p className="flex items-center gap-2" data-testid="text-signature-result">
                {latest.signatureValid ? (
                  <CheckCircle2 className="size-4 text-success" aria-hidden="true" />
                ) : (
                  <XCircle className="size-4 text-destructive" aria-hidden="true" />
                )}
                Signature {latest.signatureValid ? 'verified' : 'refused'} · webhook answered HTTP{' '}
                {latest.status}
              </p>
              <p className="break-all font-mono text-muted-foreground text-xs">
                X-Hub-Signature-256: {latest.signature}
              </p>
              {latest.conversationId && (
                <Link
                  href={`/ai-customer-service?conversation=${latest.conversationId}`}
                  className="underline"
                  data-testid="link-wa-thread"
                >
                  Open the thread{latest.customerName ? ` with ${latest.customerName}` : ' (unknown number)'}
                </Link>
              )}
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Conversation</CardTitle>
        </CardHeader>
        <CardContent>
          {results.length === 0 ? (
            <p className="text-muted-foreground text-sm">Send a message to see the assistant’s answer.</p>
          ) : (
            <ol className="grid gap-2" aria-label="Test conversation" data-testid="list-wa-lines">
              {[...results]
                .reverse()
                .flatMap((result) => result.lines.map((line) => <ThreadLine key={line.id} line={line} />))}
            </ol>
          )}
        </CardContent>
      </Card>
      {latest && (
        <>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Inbound payload (signed, as Meta posts it)</CardTitle>
            </CardHeader>
            <CardContent>
              <Json value={latest.inbound} label="Inbound payload" testId="json-inbound" />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Outbound payload (the Cloud API send body)</CardTitle>
            </CardHeader>
            <CardContent>
              {latest.outbound.length ? (
                <Json value={latest.outbound} label="Outbound payload" testId="json-outbound" />
              ) : (
                <p className="text-muted-foreground text-sm">
                  No reply was queued (a person holds the thread).
                </p>
              )}
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
