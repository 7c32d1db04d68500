import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Megaphone } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import {
  type BulkPreview,
  type BulkSend,
  type BulkSendBody,
  communicationEndpoints,
} from '@/contracts/communications';
import type { MessageChannel } from '@/contracts/messages';
import { can } from '@/contracts/roles';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { EmptyMessage } from '@/web/components/empty-message';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { ChannelField, TemplateField } from './message-fields';
import { SmsEstimate } from './preview-panel';
import { CHANNEL_LABELS, useBulkSends, useSegments, useTemplates } from './queries';

/**
 * The Send tab: a bulk send to a segment. "Check" counts who will receive it, who is left out
 * for want of consent, and how many quiet hours would hold at the time they are due; only then
 * can it be confirmed. Below, the sends with their progress from the outbox.
 */
export function BulkTab() {
  const { user } = useAuth();
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="panel-bulk">
      {can(user, 'messages.send') ? <BulkForm /> : null}
      <BulkSendsList />
    </div>
  );
}

function BulkForm() {
  const id = useId();
  const queryClient = useQueryClient();
  const segments = useSegments();
  const templates = useTemplates();
  const [name, setName] = useState('');
  const [segmentId, setSegmentId] = useState('');
  const [channel, setChannel] = useState<MessageChannel>('sms');
  const [templateKey, setTemplateKey] = useState('');
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState('');
  const [rate, setRate] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState<{ body: BulkSendBody; preview: BulkPreview } | null>(null);
  const [confirming, setConfirming] = useState(false);

  const bodyOf = (): BulkSendBody | null => {
    const found: Record<string, string> = {};
    if (name.trim().length < 2) found.name = 'Give the send a name';
    if (!segmentId) found.segmentId = 'Choose a segment';
    if (!templateKey) found.templateKey = 'Choose a template';
    if (when === 'later' && !at) found.scheduledAt = 'Choose the date and time';
    const perMinute = rate.trim() ? Number(rate) : undefined;
    if (perMinute !== undefined && (!Number.isInteger(perMinute) || perMinute < 1))
      found.ratePerMinute = 'A whole number of messages a minute, at least 1';
    setErrors(found);
    if (Object.keys(found).length) return null;
    return {
      name: name.trim(),
      segmentId,
      templateKey,
      channel,
      ...(when === 'later' ? { scheduledAt: new Date(at).toISOString() } : {}),
      ...(perMinute ? { ratePerMinute: perMinute } : {}),
    };
  };
  const check = useMutation({
    mutationFn: (body: BulkSendBody) => api(communicationEndpoints.previewBulkSend, { body }),
    onSuccess: (preview, body) => setChecked({ body, preview }),
    onError: (failure) => setErrors({ ...fieldErrors(failure) }),
  });
  const create = useMutation({
    mutationFn: (body: BulkSendBody) => api(communicationEndpoints.createBulkSend, { body }),
    onSuccess: (created) => {
      void invalidate(queryClient, 'bulkSendsChanged');
      toast({
        title: `"${created.name}" confirmed`,
        description: `${created.recipients.toLocaleString()} messages from ${formatDateTime(created.scheduledAt)}`,
      });
      setConfirming(false);
      setChecked(null);
      setName('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(null);
    const body = bodyOf();
    if (body) check.mutate(body);
  };
  const general =
    check.error && !Object.keys(fieldErrors(check.error)).length ? errorMessage(check.error) : null;
  const p = checked?.preview;
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Send to a segment</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <FormAlert message={general} />
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <FormField id={`${id}-name`} label="Name" error={errors.name}>
              {(control) => (
                <Input
                  {...control}
                  value={name}
                  maxLength={80}
                  onChange={(event) => setName(event.target.value)}
                  data-testid="input-bulk-name"
                />
              )}
            </FormField>
            <FormField
              id={`${id}-segment`}
              label="Segment"
              error={errors.segmentId}
              hint={segments.data?.items.length === 0 ? 'Save a segment first (Segments tab).' : undefined}
            >
              {(control) => (
                <NativeSelect
                  {...control}
                  value={segmentId}
                  onChange={(event) => setSegmentId(event.target.value)}
                  data-testid="select-bulk-segment"
                >
                  <option value="">Choose…</option>
                  {(segments.data?.items ?? []).map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name} ({s.customers.toLocaleString()})
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
            <ChannelField
              id={`${id}-channel`}
              value={channel}
              onChange={(next) => {
                setChannel(next);
                setTemplateKey('');
              }}
              error={errors.channel}
              testId="select-bulk-channel"
            />
            <TemplateField
              id={`${id}-template`}
              channel={channel}
              templates={templates.data?.items ?? []}
              value={templateKey}
              onChange={setTemplateKey}
              error={errors.templateKey}
              testId="select-bulk-template"
            />
            <FormField id={`${id}-when`} label="When" error={errors.scheduledAt}>
              {(control) => (
                <div className="flex gap-2">
                  <NativeSelect
                    {...control}
                    className="w-32"
                    value={when}
                    onChange={(event) => setWhen(event.target.value as 'now' | 'later')}
                    data-testid="select-bulk-when"
                  >
                    <option value="now">Now</option>
                    <option value="later">Later</option>
                  </NativeSelect>
                  {when === 'later' ? (
                    <Input
                      type="datetime-local"
                      aria-label="Date and time"
                      className="dark:[color-scheme:dark]"
                      value={at}
                      onChange={(event) => setAt(event.target.value)}
                      data-testid="input-bulk-at"
                    />
                  ) : null}
                </div>
              )}
            </FormField>
            <FormField
              id={`${id}-rate`}
              label="Messages a minute"
              error={errors.ratePerMinute}
              hint="The provider's rate when left empty"
            >
              {(control) => (
                <Input
                  {...control}
                  type="number"
                  min={1}
                  value={rate}
                  onChange={(event) => setRate(event.target.value)}
                  data-testid="input-bulk-rate"
                />
              )}
            </FormField>
          </div>
          <div>
            <Button
              type="submit"
              variant="outline"
              disabled={check.isPending}
              data-testid="button-bulk-check"
            >
              {check.isPending && <Spinner className="size-4" />}
              Check who will receive it
            </Button>
          </div>
        </form>
        {p && checked ? (
          <div className="mt-4 grid grid-cols-1 gap-2 rounded-md border p-3" data-testid="panel-bulk-preview">
            <p className="text-sm">
              <strong data-testid="text-bulk-recipients">{p.recipients.toLocaleString()}</strong> of{' '}
              {p.inSegment.toLocaleString()} customers will receive it;{' '}
              <strong data-testid="text-bulk-excluded">{p.excludedConsent.toLocaleString()}</strong> left out
              (no consent to {CHANNEL_LABELS[checked.body.channel ?? 'sms']}
              {checked.body.channel === 'email' ? ' or no address' : ''}).
            </p>
            <p className="text-sm" data-testid="text-bulk-quiet">
              {p.heldByQuietHours
                ? `${p.heldByQuietHours.toLocaleString()} would fall in quiet hours and go from ${formatDateTime(p.heldUntil)}.`
                : 'None falls in quiet hours.'}{' '}
              {p.ratePerMinute.toLocaleString()} a minute from {formatDateTime(p.scheduledAt)}, the last at{' '}
              {formatDateTime(p.lastAt)}.
            </p>
            {p.sample ? (
              <div className="rounded bg-muted/40 p-2 text-sm">
                <span className="text-muted-foreground text-xs">For {p.sample.customerName}:</span>
                <p className="whitespace-pre-wrap">{p.sample.body}</p>
                {p.sms ? <SmsEstimate sms={p.sms} /> : null}
                {p.sms ? (
                  <p className="text-muted-foreground text-xs">
                    About {money(p.totalCostMinor, p.sms.currency)} for all recipients
                  </p>
                ) : null}
              </div>
            ) : null}
            <div>
              <Button
                onClick={() => setConfirming(true)}
                disabled={!p.recipients}
                data-testid="button-bulk-confirm"
              >
                Confirm the send
              </Button>
            </div>
          </div>
        ) : null}
        {confirming && checked ? (
          <ConfirmDialog
            open
            onOpenChange={(next) => !next && setConfirming(false)}
            title={`Send "${checked.body.name}" to ${checked.preview.recipients.toLocaleString()} customers?`}
            description={
              <>
                It is queued{' '}
                {checked.body.scheduledAt ? `at ${formatDateTime(checked.body.scheduledAt)}` : 'now'}; until
                then it can be cancelled.
                {create.error ? (
                  <span role="alert" className="mt-2 block text-destructive">
                    {errorMessage(create.error)}
                  </span>
                ) : null}
              </>
            }
            confirmLabel="Send"
            pending={create.isPending}
            onConfirm={() => create.mutate(checked.body)}
          />
        ) : null}
      </CardContent>
    </Card>
  );
}

const STATUS_LABELS: Record<BulkSend['status'], string> = {
  scheduled: 'Scheduled',
  queued: 'Queued',
  cancelled: 'Cancelled',
};

function BulkSendsList() {
  const { user } = useAuth();
  const list = useBulkSends();
  const [cancelling, setCancelling] = useState<BulkSend | null>(null);
  if (list.isPending) return <Spinner className="size-5" />;
  if (list.isError)
    return (
      <p role="alert" className="text-destructive text-sm">
        Bulk sends could not be loaded: {errorMessage(list.error)}
      </p>
    );
  if (!list.data.items.length)
    return (
      <EmptyMessage icon={Megaphone} testId="text-no-bulk-sends">
        No bulk sends yet.
      </EmptyMessage>
    );
  return (
    <div className="grid grid-cols-1 gap-3">
      {list.data.items.map((b) => {
        const done = b.progress.sent + b.progress.delivered + b.progress.failed + b.progress.skipped;
        const total = Math.max(b.queued || b.recipients, 1);
        return (
          <Card key={b.id} data-testid={`card-bulk-${b.id}`}>
            <CardContent className="grid grid-cols-1 gap-2 pt-4 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">
                  {b.name}{' '}
                  <Badge variant={b.status === 'cancelled' ? 'secondary' : 'outline'}>
                    {STATUS_LABELS[b.status]}
                  </Badge>
                </span>
                {b.status === 'scheduled' && can(user, 'messages.send') ? (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setCancelling(b)}
                    data-testid={`button-cancel-bulk-${b.id}`}
                  >
                    Cancel
                  </Button>
                ) : null}
              </div>
              <p className="text-muted-foreground text-xs">
                {b.segmentName ?? 'A filter'} · {b.templateKey} · {CHANNEL_LABELS[b.channel]} · from{' '}
                {formatDateTime(b.scheduledAt)} · {b.ratePerMinute.toLocaleString()} a minute ·{' '}
                {b.recipients.toLocaleString()} recipients, {b.excludedConsent.toLocaleString()} without
                consent
              </p>
              {b.status === 'queued' ? (
                <>
                  <progress
                    className="h-2 w-full"
                    max={total}
                    value={done}
                    aria-label={`${b.name} progress`}
                  />
                  <p className="text-xs">
                    {b.progress.queued.toLocaleString()} waiting · {b.progress.sent.toLocaleString()} sent ·{' '}
                    {b.progress.delivered.toLocaleString()} delivered · {b.progress.failed.toLocaleString()}{' '}
                    failed · {b.progress.skipped.toLocaleString()} not sent
                  </p>
                </>
              ) : null}
            </CardContent>
          </Card>
        );
      })}
      {cancelling ? <CancelBulkDialog bulk={cancelling} onClose={() => setCancelling(null)} /> : null}
    </div>
  );
}

function CancelBulkDialog({ bulk, onClose }: { bulk: BulkSend; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => api(communicationEndpoints.cancelBulkSend, { params: { id: bulk.id } }),
    onSuccess: () => {
      void invalidate(queryClient, 'bulkSendsChanged');
      toast({ title: `"${bulk.name}" cancelled` });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => !next && onClose()}
      title={`Cancel "${bulk.name}"?`}
      description={
        <>
          Nothing of it has been queued yet; it will not be.
          {mutation.error ? (
            <span role="alert" className="mt-2 block text-destructive">
              {errorMessage(mutation.error)}
            </span>
          ) : null}
        </>
      }
      confirmLabel="Cancel the send"
      destructive
      pending={mutation.isPending}
      onConfirm={() => mutation.mutate()}
    />
  );
}
