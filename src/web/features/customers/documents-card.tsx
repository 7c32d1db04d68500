import { BadgeCheck, Eye, FileImage, FileText, History, RotateCw, UserCheck, X } from 'lucide-react';
import { useState } from 'react';
import type { User } from '@/contracts/auth';
import { type Customer, KYC_DOCUMENT_LABELS, type KycDocument } from '@/contracts/customers';
import { can } from '@/contracts/roles';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { formatDateTime } from '@/web/lib/format';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { DocumentStatusBadge } from './badges';
import { PreviewDialog, RejectDialog } from './document-dialogs';
import { canUpload, isImage, reviewState } from './document-rules';
import { formatFileSize } from './format';
import { useDocuments } from './queries';
import { useReviewDocument } from './review';
import { UploadForm } from './upload-form';

/** The KYC documents: upload, the latest of each kind with its review, older uploads on request. */
export function DocumentsCard({ customer, user }: { customer: Customer; user: User | null }) {
  const documents = useDocuments(customer.id);
  const review = useReviewDocument(customer.id);
  const [previewId, setPreviewId] = useState<string | null>(null);
  const [rejectingId, setRejectingId] = useState<string | null>(null);
  const [showOlder, setShowOlder] = useState(false);
  /** The last review refusal, shown with its document. */
  const [refusal, setRefusal] = useState<{ id: string; message: string } | null>(null);

  const all = documents.data ?? [];
  const latest = all.filter((doc) => doc.latest);
  const older = all.filter((doc) => !doc.latest);
  const preview = all.find((doc) => doc.id === previewId) ?? null;
  const rejecting = all.find((doc) => doc.id === rejectingId) ?? null;
  const suggestedType = customer.kyc.missingDocuments.find(
    (type) => !latest.some((doc) => doc.type === type && doc.status === 'pending'),
  );

  const verify = (document: KycDocument) => {
    setRefusal(null);
    review.mutate(
      { document, body: { decision: 'verify' } },
      { onError: (error) => setRefusal({ id: document.id, message: errorMessage(error) }) },
    );
  };
  const reject = (document: KycDocument, reason: string) => {
    setRefusal(null);
    review.mutate(
      { document, body: { decision: 'reject', reason } },
      {
        onSuccess: () => setRejectingId(null),
        onError: (error) => {
          // A field message stays in the dialog; any other refusal is shown with the document.
          if (!fieldErrors(error).reason) {
            setRejectingId(null);
            setRefusal({ id: document.id, message: errorMessage(error) });
          }
        },
      },
    );
  };

  const reviewButtons = (document: KycDocument, inDialog = false) => {
    const state = reviewState(user, document);
    if (state.kind === 'own') {
      return (
        <p
          className="flex items-center gap-1.5 text-muted-foreground text-xs"
          data-testid={`text-own-upload-${document.id}`}
        >
          <UserCheck className="size-3.5 shrink-0" aria-hidden="true" />
          {state.message}
        </p>
      );
    }
    if (state.kind !== 'allowed') return null;
    const busy = review.isPending && review.variables?.document.id === document.id;
    const label = KYC_DOCUMENT_LABELS[document.type];
    return (
      <>
        <Button
          size="sm"
          onClick={() => verify(document)}
          disabled={busy}
          aria-label={inDialog ? undefined : `Verify ${label}`}
          data-testid={`button-verify-${inDialog ? 'dialog' : document.id}`}
        >
          {busy && review.variables?.body.decision === 'verify' ? (
            <Spinner className="size-4" />
          ) : (
            <BadgeCheck aria-hidden="true" />
          )}
          Verify
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => {
            setPreviewId(null);
            setRefusal(null);
            review.reset();
            setRejectingId(document.id);
          }}
          disabled={busy}
          aria-label={inDialog ? undefined : `Reject ${label}`}
          data-testid={`button-reject-${inDialog ? 'dialog' : document.id}`}
        >
          <X aria-hidden="true" />
          Reject
        </Button>
      </>
    );
  };

  const row = (document: KycDocument) => {
    const Icon = isImage(document) ? FileImage : FileText;
    const label = KYC_DOCUMENT_LABELS[document.type];
    return (
      <li
        key={document.id}
        className="grid grid-cols-1 gap-3 py-4 first:pt-0 last:pb-0 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start"
        data-testid={`row-document-${document.id}`}
        data-type={document.type}
        data-status={document.status}
      >
        <div className="flex min-w-0 items-start gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground">
            <Icon className="size-4" aria-hidden="true" />
          </span>
          <div className="grid grid-cols-1 min-w-0 gap-1">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-sm">{label}</span>
              <DocumentStatusBadge status={document.status} testId={`text-document-status-${document.id}`} />
              {!document.latest && (
                <Badge variant="outline" className="text-muted-foreground">
                  Replaced
                </Badge>
              )}
            </div>
            <p className="truncate text-muted-foreground text-xs">
              {document.fileName} · {formatFileSize(document.size)} · uploaded{' '}
              {formatDateTime(document.uploadedAt)}
              {document.uploadedBy ? ` by ${document.uploadedBy.name}` : ''}
            </p>
            {document.reviewedAt && (
              <p className="text-muted-foreground text-xs">
                {document.status === 'verified' ? 'Verified' : 'Rejected'}{' '}
                {formatDateTime(document.reviewedAt)}
                {document.reviewedBy ? ` by ${document.reviewedBy.name}` : ''}
              </p>
            )}
            {document.rejectionReason && (
              <p className="text-destructive text-xs" data-testid={`text-rejection-reason-${document.id}`}>
                Reason: {document.rejectionReason}
              </p>
            )}
            {refusal?.id === document.id && (
              <p
                role="alert"
                className="font-medium text-destructive text-xs"
                data-testid={`alert-review-${document.id}`}
              >
                {refusal.message}
              </p>
            )}
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2 sm:justify-end">
          {/* The scans themselves are for the roles that work KYC (issue 12 §3); viewers see the review. */}
          {can(user, 'customers.write') && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => setPreviewId(document.id)}
              aria-label={`Preview ${label} (${document.fileName})`}
              data-testid={`button-preview-${document.id}`}
            >
              <Eye aria-hidden="true" />
              Preview
            </Button>
          )}
          {reviewButtons(document)}
        </div>
      </li>
    );
  };

  let body: React.ReactNode;
  if (documents.isLoading) {
    body = (
      <div role="status" className="grid grid-cols-1 gap-3">
        <span className="sr-only">Loading documents…</span>
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  } else if (documents.error) {
    body = (
      <div role="alert" className="grid grid-cols-1 justify-items-start gap-2 text-sm">
        <p className="text-destructive">Documents could not be loaded: {errorMessage(documents.error)}</p>
        <Button variant="outline" size="sm" onClick={() => void documents.refetch()}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  } else if (!all.length) {
    body = (
      <p className="text-muted-foreground text-sm" data-testid="empty-documents">
        No documents yet. {KYC_DOCUMENT_LABELS.id_front} and {KYC_DOCUMENT_LABELS.selfie.toLowerCase()} are
        needed before a contract can start.
      </p>
    );
  } else {
    body = (
      <div className="grid grid-cols-1 gap-3">
        <ul className="divide-y" aria-label="Latest documents" data-testid="list-documents">
          {latest.map(row)}
        </ul>
        {older.length > 0 && (
          <div className="grid grid-cols-1 gap-3">
            <Button
              variant="ghost"
              size="sm"
              className="justify-self-start"
              aria-expanded={showOlder}
              onClick={() => setShowOlder((value) => !value)}
              data-testid="button-toggle-older-documents"
            >
              <History aria-hidden="true" />
              {showOlder ? 'Hide earlier uploads' : `Show earlier uploads (${older.length})`}
            </Button>
            {showOlder && (
              <ul
                className="divide-y opacity-80"
                aria-label="Earlier uploads"
                data-testid="list-older-documents"
              >
                {older.map(row)}
              </ul>
            )}
          </div>
        )}
      </div>
    );
  }

  return (
    <Card data-testid="card-documents">
      <CardHeader>
        <CardTitle>KYC documents</CardTitle>
        <CardDescription>
          Each upload is reviewed by a second person. The latest {KYC_DOCUMENT_LABELS.id_front} and selfie
          must be verified.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5">
        {canUpload(user) && (
          <UploadForm customerId={customer.id} suggestedType={suggestedType ?? 'id_front'} />
        )}
        {body}
      </CardContent>
      <PreviewDialog
        document={preview}
        customerName={customer.fullName}
        onOpenChange={(open) => !open && setPreviewId(null)}
        actions={preview ? reviewButtons(preview, true) : null}
      />
      <RejectDialog
        document={rejecting}
        pending={review.isPending}
        error={review.variables?.document.id === rejectingId ? review.error : null}
        onOpenChange={(open) => !open && setRejectingId(null)}
        onReject={(reason) => rejecting && reject(rejecting, reason)}
      />
    </Card>
  );
}
