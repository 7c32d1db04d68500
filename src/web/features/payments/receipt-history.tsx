import { useQuery } from '@tanstack/react-query';
import { ArrowRightLeft, History } from 'lucide-react';
import { Link } from 'wouter';
import { type PaymentHistory, type PaymentLink, paymentEndpoints } from '@/contracts/payments';
import { EmptyMessage } from '@/web/components/empty-message';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import {
  CORRECTION_LABELS,
  CORRECTION_STATUS_LABELS,
  CORRECTION_STATUS_VARIANTS,
  receiptHref,
  STATUS_LABELS,
} from './format';

type HistoryEntry = PaymentHistory['corrections'][number];

/** A receipt's corrections and transfer links (GET /api/payments/:id/history). */
export function usePaymentHistory(id: string) {
  return useQuery({
    queryKey: queryKeys.payments.history(id),
    queryFn: () => api(paymentEndpoints.history, { params: { id } }),
    staleTime: 5_000,
  });
}

const linkClass = 'font-medium text-primary hover:underline';

function ContractLink({ id, number }: { id: string | null; number: string | null }) {
  if (!id) return <>{number ?? 'another contract'}</>;
  return (
    <Link href={`/contracts/${id}`} className={linkClass}>
      {number ?? 'the contract'}
    </Link>
  );
}

function ReceiptLink({ link, testId }: { link: PaymentLink; testId: string }) {
  return (
    <Link href={receiptHref(link)} className={linkClass} data-testid={testId}>
      {link.receiptNumber}
    </Link>
  );
}

/**
 * Where a transfer moved this money: this payment came from another contract's payment, or went
 * to another contract as a new payment. Nothing when it was never transferred.
 */
export function TransferNote({ history }: { history: PaymentHistory | undefined }) {
  const from = history?.transferredFrom;
  const to = history?.transferredTo;
  if (!from && !to) return null;
  return (
    <Card className="flex items-start gap-3 p-4 text-sm" role="note" data-testid="card-transfer-note">
      <ArrowRightLeft className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="grid grid-cols-1 gap-1">
        {from && (
          <p data-testid="text-transferred-from">
            Transferred here from <ContractLink id={from.contractId} number={from.contractNumber} />, where
            receipt <ReceiptLink link={from} testId="link-transferred-from" /> is{' '}
            {STATUS_LABELS[from.status].toLowerCase()}.
          </p>
        )}
        {to && (
          <p data-testid="text-transferred-to">
            Transferred to <ContractLink id={to.contractId} number={to.contractNumber} /> as receipt{' '}
            <ReceiptLink link={to} testId="link-transferred-to" />.
          </p>
        )}
      </div>
    </Card>
  );
}

/** Every reversal or transfer asked for the payment, oldest first: who asked and why, who decided. */
export function CorrectionHistoryCard({
  history,
  loading,
  error,
  onRetry,
}: {
  history: PaymentHistory | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  const entries = history?.corrections ?? [];
  return (
    <Card className="print:hidden" data-testid="card-receipt-corrections">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Corrections</CardTitle>
        <CardDescription>
          Reversals and transfers asked for this payment; each takes effect only once a second finance user
          approves it.
        </CardDescription>
      </CardHeader>
      <CardContent className="text-sm">
        {loading ? (
          <div role="status">
            <span className="sr-only">Loading corrections…</span>
            <Skeleton className="h-16 w-full" />
          </div>
        ) : error ? (
          <div role="alert" className="grid grid-cols-1 justify-items-start gap-2 text-destructive">
            Corrections could not be loaded: {errorMessage(error)}
            <Button variant="outline" size="sm" onClick={onRetry}>
              Try again
            </Button>
          </div>
        ) : entries.length === 0 ? (
          <EmptyMessage icon={History} testId="empty-receipt-corrections">
            No reversal or transfer has been asked for this payment.
          </EmptyMessage>
        ) : (
          <ol className="grid grid-cols-1 gap-3" data-testid="list-receipt-corrections">
            {entries.map((entry) => (
              <CorrectionEntry key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function CorrectionEntry({ entry: c }: { entry: HistoryEntry }) {
  return (
    <li
      className="grid grid-cols-1 gap-1 border-l-2 pl-3"
      data-testid={`entry-correction-${c.id}`}
      data-kind={c.kind}
      data-status={c.status}
    >
      <p className="flex flex-wrap items-center gap-2">
        <span>
          <span className="font-semibold">{CORRECTION_LABELS[c.kind]}</span>
          {c.kind === 'transfer' && (
            <>
              {' to '}
              <ContractLink id={c.targetContractId} number={c.targetContractNumber} />
            </>
          )}
        </span>{' '}
        <Badge variant={CORRECTION_STATUS_VARIANTS[c.status]}>{CORRECTION_STATUS_LABELS[c.status]}</Badge>
      </p>
      <p>“{c.reason}”</p>
      <p className="text-muted-foreground text-xs">
        Asked by {c.requestedByName ?? 'someone'} · {formatDateTime(c.requestedAt)}
      </p>
      {c.decidedAt ? (
        <p className="text-muted-foreground text-xs">
          {CORRECTION_STATUS_LABELS[c.status]} by {c.decidedByName ?? 'someone'} ·{' '}
          {formatDateTime(c.decidedAt)}
          {c.decisionNote ? ` · “${c.decisionNote}”` : ''}
        </p>
      ) : (
        <p className="text-muted-foreground text-xs">
          Waiting for a second finance user in{' '}
          <Link href="/payment-processing?tab=reversals" className={linkClass}>
            Reversals
          </Link>
          .
        </p>
      )}
    </li>
  );
}
