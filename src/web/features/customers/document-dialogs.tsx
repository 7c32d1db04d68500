import { ExternalLink, FileWarning } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { KYC_DOCUMENT_LABELS, type KycDocument } from '@/contracts/customers';
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
import { formatDateTime } from '@/web/lib/format';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { DocumentStatusBadge } from './badges';
import { Textarea } from './controls';
import {
  COMMON_REJECT_REASONS,
  documentFileUrl,
  isImage,
  REJECT_REASON_MAX,
  rejectReasonProblem,
} from './document-rules';
import { formatFileSize } from './format';

/** The file itself: an image inline, a PDF in a frame, with a link to open it in its own tab. */
export function PreviewDialog({
  document,
  customerName,
  onOpenChange,
  actions,
}: {
  document: KycDocument | null;
  customerName: string;
  onOpenChange: (open: boolean) => void;
  /** Review buttons, when the person may review. */
  actions?: ReactNode;
}) {
  const [broken, setBroken] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new document is a new file to load
  useEffect(() => setBroken(false), [document?.id]);
  if (!document) return null;
  const url = documentFileUrl(document);
  const label = KYC_DOCUMENT_LABELS[document.type];
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        className="flex max-h-[92dvh] max-w-4xl flex-col overflow-hidden sm:max-w-4xl"
        data-testid="dialog-document-preview"
      >
        <DialogHeader>
          <DialogTitle className="flex flex-wrap items-center gap-2">
            {label} <DocumentStatusBadge status={document.status} />
          </DialogTitle>
          <DialogDescription>
            {customerName} · {document.fileName} · {formatFileSize(document.size)} · uploaded{' '}
            {formatDateTime(document.uploadedAt)}
            {document.uploadedBy ? ` by ${document.uploadedBy.name}` : ''}
          </DialogDescription>
        </DialogHeader>
        <div className="min-h-0 flex-1 overflow-auto rounded-md border bg-muted/40">
          {broken ? (
            <div className="flex flex-col items-center gap-2 p-10 text-center text-muted-foreground text-sm">
              <FileWarning className="size-8" aria-hidden="true" />
              This file cannot be shown here. Open it in its own tab or download it.
            </div>
          ) : isImage(document) ? (
            <img
              src={url}
              alt={`${label} of ${customerName}`}
              className="mx-auto block max-h-[65dvh] w-auto max-w-full object-contain"
              onError={() => setBroken(true)}
              data-testid="img-document-preview"
            />
          ) : (
            <iframe
              src={url}
              title={`${label} of ${customerName} (PDF)`}
              className="block h-[65dvh] w-full bg-white"
              data-testid="frame-document-preview"
            />
          )}
        </div>
        <DialogFooter className="items-center sm:justify-between">
          <Button variant="link" className="px-0" asChild>
            <a href={url} target="_blank" rel="noopener noreferrer" data-testid="link-open-document">
              <ExternalLink aria-hidden="true" />
              Open in a new tab
            </a>
          </Button>
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Reject with the reason the customer will be told; the reason is required. */
export function RejectDialog({
  document,
  pending,
  error,
  onOpenChange,
  onReject,
}: {
  document: KycDocument | null;
  pending: boolean;
  /** The server's refusal, if the last attempt failed. */
  error: unknown;
  onOpenChange: (open: boolean) => void;
  onReject: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each document starts with an empty reason
  useEffect(() => {
    setReason('');
    setProblem(null);
  }, [document?.id]);
  if (!document) return null;
  const serverReason = error ? fieldErrors(error).reason : undefined;
  const alert = error && !serverReason ? errorMessage(error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const issue = rejectReasonProblem(reason);
    setProblem(issue);
    if (!issue) onReject(reason.trim());
  };

  return (
    <Dialog open onOpenChange={(open) => !pending && onOpenChange(open)}>
      <DialogContent data-testid="dialog-reject-document">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4" aria-label="Reject document">
          <DialogHeader>
            <DialogTitle>Reject {KYC_DOCUMENT_LABELS[document.type]}?</DialogTitle>
            <DialogDescription>
              Say what is wrong so that the agent can ask the customer for a better document. The reason is
              kept with the document and shown on the profile.
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={alert} />
          <FormField
            id="reject-reason"
            label="Reason"
            error={problem ?? serverReason}
            hint={`${reason.trim().length}/${REJECT_REASON_MAX} characters`}
          >
            {(control) => (
              <Textarea
                {...control}
                value={reason}
                maxLength={REJECT_REASON_MAX + 50}
                onChange={(event) => {
                  setReason(event.target.value);
                  if (problem) setProblem(rejectReasonProblem(event.target.value));
                }}
                data-testid="input-reject-reason"
              />
            )}
          </FormField>
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">Common reasons</legend>
            {COMMON_REJECT_REASONS.map((common) => (
              <Button
                key={common}
                type="button"
                variant="outline"
                size="sm"
                onClick={() => {
                  setReason(common);
                  setProblem(null);
                }}
              >
                {common}
              </Button>
            ))}
          </fieldset>
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              onClick={() => onOpenChange(false)}
              disabled={pending}
              data-testid="button-cancel-reject"
            >
              Cancel
            </Button>
            <Button
              type="submit"
              variant="destructive"
              disabled={pending}
              data-testid="button-confirm-reject"
            >
              {pending && <Spinner className="size-4" />}
              Reject document
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
