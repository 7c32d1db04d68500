import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { communicationEndpoints } from '@/contracts/communications';
import type { MessageChannel } from '@/contracts/messages';
import { can } from '@/contracts/roles';
import { smsSegments } from '@/domain/sms-segments';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { NativeSelect } from '@/web/components/ui/native-select';
import { Textarea } from '@/web/components/ui/textarea';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { ChannelField, TemplateField } from './message-fields';
import { PreviewPanel } from './preview-panel';
import { useTemplates } from './queries';

/**
 * "Send message" on a customer's or a contract's page: a template staff wrote (rendered on this
 * customer, previewed before it goes) or free text, on a channel. The outbox's sender checks
 * consent and quiet hours when it goes, so the dialog says it is queued, not sent.
 */
export function SendMessageButton({
  customerId,
  contractId,
  customerName,
}: {
  customerId: string;
  contractId?: string;
  customerName: string;
}) {
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  if (!can(user, 'messages.send')) return null;
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} data-testid="button-send-message">
        <Send aria-hidden="true" /> Send message
      </Button>
      {open ? (
        <SendMessageDialog
          customerId={customerId}
          contractId={contractId}
          customerName={customerName}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function SendMessageDialog({
  customerId,
  contractId,
  customerName,
  onClose,
}: {
  customerId: string;
  contractId?: string | undefined;
  customerName: string;
  onClose: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const templates = useTemplates();
  const [channel, setChannel] = useState<MessageChannel>('sms');
  const [mode, setMode] = useState<'template' | 'text'>('template');
  const [templateKey, setTemplateKey] = useState('');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: () =>
      api(communicationEndpoints.send, {
        body: {
          customerId,
          ...(contractId ? { contractId } : {}),
          channel,
          ...(mode === 'template' ? { templateKey } : { body: text.trim() }),
        },
      }),
    onSuccess: () => {
      void invalidate(queryClient, 'messagesQueued');
      toast({
        title: `Message to ${customerName} queued`,
        description:
          'It goes out when the sender next runs, if the customer consents and it is not quiet hours.',
      });
      onClose();
    },
    onError: (failure) => setErrors({ ...fieldErrors(failure) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (mode === 'template' && !templateKey) found.templateKey = 'Choose a template';
    if (mode === 'text' && !text.trim()) found.body = 'Write the message';
    setErrors(found);
    if (Object.keys(found).length) return;
    mutation.mutate();
  };
  const general =
    mutation.error && !Object.keys(fieldErrors(mutation.error)).length ? errorMessage(mutation.error) : null;
  const segments = mode === 'text' && channel === 'sms' && text.trim() ? smsSegments(text.trim()) : null;
  return (
    <Dialog open onOpenChange={(next) => !next && !mutation.isPending && onClose()}>
      <DialogContent className="max-w-lg" data-testid="dialog-send-message">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>Send a message to {customerName}</DialogTitle>
            <DialogDescription>
              It is queued in the outbox; consent and quiet hours are checked when it goes.
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={general} />
          <div className="grid grid-cols-2 gap-3">
            <ChannelField
              id={`${id}-channel`}
              value={channel}
              onChange={(next) => {
                setChannel(next);
                setTemplateKey('');
              }}
              error={errors.channel}
              testId="select-send-channel"
            />
            <FormField id={`${id}-mode`} label="Message">
              {(control) => (
                <NativeSelect
                  {...control}
                  value={mode}
                  onChange={(event) => setMode(event.target.value as 'template' | 'text')}
                  data-testid="select-send-mode"
                >
                  <option value="template">From a template</option>
                  <option value="text">Written here</option>
                </NativeSelect>
              )}
            </FormField>
          </div>
          {mode === 'template' ? (
            <TemplateField
              id={`${id}-template`}
              channel={channel}
              templates={templates.data?.items ?? []}
              value={templateKey}
              onChange={setTemplateKey}
              error={errors.templateKey}
              testId="select-send-template"
            />
          ) : (
            <FormField
              id={`${id}-body`}
              label="Text"
              error={errors.body}
              hint={
                segments
                  ? `${segments.segments} SMS segment${segments.segments === 1 ? '' : 's'} (${segments.encoding})`
                  : undefined
              }
            >
              {(control) => (
                <Textarea
                  {...control}
                  rows={4}
                  maxLength={1000}
                  value={text}
                  onChange={(event) => setText(event.target.value)}
                  data-testid="input-send-body"
                />
              )}
            </FormField>
          )}
          {mode === 'template' && templateKey ? (
            <PreviewPanel
              templateKey={templateKey}
              channel={channel}
              customerId={customerId}
              contractId={contractId}
            />
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending} data-testid="button-confirm-send">
              {mutation.isPending && <Spinner className="size-4" />}
              Send
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
