import { useQuery } from '@tanstack/react-query';
import { communicationEndpoints, type TemplatePreview } from '@/contracts/communications';
import type { MessageChannel } from '@/contracts/messages';
import { Spinner } from '@/web/components/loaders';
import { api } from '@/web/lib/api';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { languageLabel } from './queries';

/** The SMS segment count, encoding and cost of a rendered text. */
export function SmsEstimate({ sms }: { sms: TemplatePreview['sms'] }) {
  return (
    <p className="text-muted-foreground text-xs" data-testid="text-sms-estimate">
      {sms.segments} SMS segment{sms.segments === 1 ? '' : 's'} · {sms.encoding} ({sms.units} of{' '}
      {sms.segments === 1 ? sms.perSegment : `${sms.perSegment} per part`}) · cost{' '}
      {money(sms.costMinor, sms.currency)}
    </p>
  );
}

/**
 * A template (or an unsaved text of it) rendered on a real customer, as the server renders it:
 * the text, its language, and the SMS estimate.
 */
export function PreviewPanel({
  templateKey,
  channel,
  customerId,
  contractId,
  body,
  subject,
}: {
  templateKey: string;
  channel: MessageChannel;
  customerId: string;
  contractId?: string | undefined;
  body?: string | undefined;
  subject?: string | undefined;
}) {
  const input = {
    key: templateKey,
    channel,
    customerId,
    ...(contractId ? { contractId } : {}),
    ...(body ? { body } : {}),
    ...(subject ? { subject } : {}),
  };
  const preview = useQuery({
    queryKey: queryKeys.messages.preview(input),
    queryFn: () => api(communicationEndpoints.previewTemplate, { body: input }),
    enabled: Boolean(templateKey && customerId),
    retry: false,
  });
  if (!customerId)
    return (
      <p className="text-muted-foreground text-sm">Choose a customer to see the message they would get.</p>
    );
  if (preview.isPending) return <Spinner className="size-4" />;
  if (preview.isError)
    return (
      <p role="alert" className="text-destructive text-sm">
        {errorMessage(preview.error)}
      </p>
    );
  const shown = preview.data;
  return (
    <div className="grid grid-cols-1 gap-1.5 rounded-md border bg-muted/40 p-3" data-testid="panel-preview">
      {shown.subject ? (
        <p className="font-medium text-sm" data-testid="text-preview-subject">
          {shown.subject}
        </p>
      ) : null}
      <p className="whitespace-pre-wrap text-sm" data-testid="text-preview-body">
        {shown.body}
      </p>
      <p className="text-muted-foreground text-xs">
        In {languageLabel(shown.language)}
        {shown.language !== shown.customerLanguage
          ? ` (the customer reads ${languageLabel(shown.customerLanguage)}; this template has no text in it)`
          : ''}
      </p>
      {channel === 'sms' ? <SmsEstimate sms={shown.sms} /> : null}
    </div>
  );
}
