import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { communicationEndpoints } from '@/contracts/communications';
import {
  CUSTOM_TEMPLATE_VARIABLES,
  type MessageChannel,
  type MessageTemplate,
  messageEndpoints,
} from '@/contracts/messages';
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
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { Textarea } from '@/web/components/ui/textarea';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { CustomerPicker } from './customer-picker';
import { ChannelField } from './message-fields';
import { PreviewPanel } from './preview-panel';
import { CHANNEL_LABELS, LANGUAGE_LABELS } from './queries';

/** What the editor does: a new template, another language or channel of a key, or an edit. */
export type EditorMode =
  | { kind: 'create' }
  | { kind: 'add'; key: string; name: string; variables: readonly string[] }
  | { kind: 'edit'; template: MessageTemplate };

/**
 * The template editor: its text with the variables it may use (a click inserts one), the subject
 * for e-mail, and the text rendered on a real customer before it is saved.
 */
export function TemplateEditor({ mode, onClose }: { mode: EditorMode; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const editing = mode.kind === 'edit' ? mode.template : null;
  const [name, setName] = useState(mode.kind === 'add' ? mode.name : '');
  const [key, setKey] = useState(mode.kind === 'add' ? mode.key : '');
  const [channel, setChannel] = useState<MessageChannel>(editing?.channel ?? 'sms');
  const [language, setLanguage] = useState(editing?.language ?? (mode.kind === 'add' ? 'sw' : 'en'));
  const [subject, setSubject] = useState(editing?.subject ?? '');
  const [body, setBody] = useState(editing?.body ?? '');
  const [customerId, setCustomerId] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const variables = editing?.variables ?? (mode.kind === 'add' ? mode.variables : CUSTOM_TEMPLATE_VARIABLES);
  const previewKey = editing?.key ?? (mode.kind === 'add' ? mode.key : 'preview_only');

  const mutation = useMutation({
    mutationFn: () => {
      const trimmedSubject = subject.trim();
      if (editing)
        return api(messageEndpoints.updateTemplate, {
          body: {
            key: editing.key,
            channel: editing.channel,
            language: editing.language,
            body: body.trim(),
            ...(trimmedSubject ? { subject: trimmedSubject } : {}),
          },
        });
      return api(communicationEndpoints.createTemplate, {
        body: {
          name: name.trim(),
          ...(key.trim() ? { key: key.trim() } : {}),
          channel,
          language,
          body: body.trim(),
          ...(trimmedSubject ? { subject: trimmedSubject } : {}),
        },
      });
    },
    onSuccess: (saved) => {
      void invalidate(queryClient, 'templatesChanged');
      toast({
        title: editing
          ? `Saved as version ${saved.version}`
          : `Template "${saved.name ?? saved.key}" created`,
      });
      onClose();
    },
    onError: (failure) => setErrors({ ...fieldErrors(failure) }),
  });

  const insert = (variable: string) => {
    const area = bodyRef.current;
    const token = `{{${variable}}}`;
    if (!area) return setBody((text) => text + token);
    const start = area.selectionStart ?? body.length;
    const end = area.selectionEnd ?? body.length;
    setBody(body.slice(0, start) + token + body.slice(end));
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (mode.kind === 'create' && name.trim().length < 2) found.name = 'Give the template a name';
    if (!body.trim()) found.body = 'Write the message text';
    if (channel === 'email' && !subject.trim()) found.subject = 'An e-mail template has a subject';
    setErrors(found);
    if (Object.keys(found).length) return;
    mutation.mutate();
  };
  const general =
    mutation.error && !Object.keys(fieldErrors(mutation.error)).length ? errorMessage(mutation.error) : null;
  const title = editing
    ? `Edit ${editing.name ?? editing.key} (${CHANNEL_LABELS[editing.channel]}, ${LANGUAGE_LABELS[editing.language] ?? editing.language})`
    : mode.kind === 'add'
      ? `Add a language or channel to ${mode.name}`
      : 'New template';

  return (
    <Dialog open onOpenChange={(next) => !next && !mutation.isPending && onClose()}>
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto" data-testid="dialog-template-editor">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>
              {editing
                ? 'Saving raises the version; messages already queued keep the text they were rendered with.'
                : 'Customers whose language the template lacks are sent its English text.'}
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={general} />
          {mode.kind === 'create' ? (
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              <FormField id={`${id}-name`} label="Name" error={errors.name}>
                {(control) => (
                  <Input
                    {...control}
                    value={name}
                    maxLength={80}
                    onChange={(event) => setName(event.target.value)}
                    data-testid="input-template-name"
                  />
                )}
              </FormField>
              <FormField
                id={`${id}-key`}
                label="Key"
                error={errors.key}
                hint="Made from the name when left empty"
              >
                {(control) => (
                  <Input
                    {...control}
                    value={key}
                    maxLength={48}
                    placeholder="harvest_offer"
                    onChange={(event) => setKey(event.target.value)}
                    data-testid="input-template-key"
                  />
                )}
              </FormField>
            </div>
          ) : null}
          {editing ? null : (
            <div className="grid grid-cols-2 gap-3">
              <ChannelField
                id={`${id}-channel`}
                value={channel}
                onChange={setChannel}
                error={errors.channel}
                testId="select-template-channel"
              />
              <FormField id={`${id}-language`} label="Language" error={errors.language}>
                {(control) => (
                  <NativeSelect
                    {...control}
                    value={language}
                    onChange={(event) => setLanguage(event.target.value)}
                    data-testid="select-template-language"
                  >
                    {Object.entries(LANGUAGE_LABELS).map(([code, label]) => (
                      <option key={code} value={code}>
                        {label}
                      </option>
                    ))}
                  </NativeSelect>
                )}
              </FormField>
            </div>
          )}
          {channel === 'email' ? (
            <FormField id={`${id}-subject`} label="Subject" error={errors.subject}>
              {(control) => (
                <Input
                  {...control}
                  value={subject}
                  maxLength={200}
                  onChange={(event) => setSubject(event.target.value)}
                  data-testid="input-template-subject"
                />
              )}
            </FormField>
          ) : null}
          <FormField id={`${id}-body`} label="Text" error={errors.body}>
            {(control) => (
              <Textarea
                {...control}
                ref={bodyRef}
                rows={5}
                maxLength={1000}
                value={body}
                onChange={(event) => setBody(event.target.value)}
                data-testid="input-template-body"
              />
            )}
          </FormField>
          <div className="flex flex-wrap items-center gap-1.5">
            <span className="text-muted-foreground text-xs">Insert:</span>
            {variables.map((variable) => (
              <Button
                key={variable}
                type="button"
                variant="outline"
                size="sm"
                className="h-7 px-2 font-mono text-xs"
                onClick={() => insert(variable)}
                data-testid={`button-variable-${variable}`}
              >
                {`{{${variable}}}`}
              </Button>
            ))}
          </div>
          {editing?.builtin ? null : (
            <div className="grid grid-cols-1 gap-2 border-t pt-3">
              <FormField id={`${id}-customer`} label="Preview on a customer">
                {(control) => (
                  <CustomerPicker
                    control={control}
                    value={customerId}
                    onChange={(chosen) => setCustomerId(chosen)}
                    testId="select-preview-customer"
                  />
                )}
              </FormField>
              {customerId && body.trim() ? (
                <PreviewPanel
                  templateKey={previewKey}
                  channel={channel}
                  customerId={customerId}
                  body={body.trim()}
                  subject={subject.trim() || undefined}
                />
              ) : null}
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending} data-testid="button-save-template">
              {mutation.isPending && <Spinner className="size-4" />}
              {editing ? 'Save' : 'Create template'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
