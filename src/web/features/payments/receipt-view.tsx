import { useQuery } from '@tanstack/react-query';
import {
  ArrowLeft,
  ArrowRightLeft,
  Copy,
  FileDown,
  FileQuestion,
  KeyRound,
  Printer,
  Undo2,
  Unlock,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { deviceControlEndpoints } from '@/contracts/device-control';
import { type Correction, type Payment, paymentEndpoints } from '@/contracts/payments';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { groupToken } from '@/web/features/contracts/contract-rules';
import { CommandStateBadge } from '@/web/features/device-control/state-badge';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api, endpointUrl } from '@/web/lib/api';
import { formatBusinessDate, formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';
import { apiError, errorMessage } from '@/web/lib/queryClient';
import { AllocationTable } from './allocation-table';
import { CorrectionRequestDialog } from './correction-dialogs';
import { CORRECTION_LABELS, METHOD_LABELS, providerName, STATUS_LABELS, STATUS_VARIANTS } from './format';
import { CorrectionHistoryCard, TransferNote, usePaymentHistory } from './receipt-history';

const AREA = AREAS['/payment-processing'];

function Back() {
  return (
    <Button asChild variant="ghost" size="sm" className="print:hidden">
      <Link href="/payment-processing?tab=payments" data-testid="link-back-payments">
        <ArrowLeft aria-hidden="true" />
        All payments
      </Link>
    </Button>
  );
}

/** /payment-processing/receipts/:id: the receipt on screen, its PDF, print, and corrections. */
export function ReceiptView({ id }: { id: string }) {
  const { user } = useAuth();
  const receipt = useQuery({
    queryKey: queryKeys.payments.detail(id),
    queryFn: () => api(paymentEndpoints.get, { params: { id } }),
    staleTime: 5_000,
  });
  const history = usePaymentHistory(id);
  const [dialog, setDialog] = useState<'reverse' | 'transfer' | null>(null);
  const [requested, setRequested] = useState<Pick<Correction, 'kind'> | null>(null);

  if (receipt.isLoading)
    return (
      <div role="status" className="grid grid-cols-1 gap-4" data-testid="skeleton-receipt">
        <span className="sr-only">Loading the receipt…</span>
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  if (!receipt.data) {
    const status = apiError(receipt.error)?.status;
    const missing = status === 404 || status === 400;
    return (
      <div className="grid grid-cols-1 gap-4">
        <PageHeader
          title={missing ? 'Receipt not found' : 'Receipt'}
          icon={missing ? FileQuestion : AREA.icon}
          actions={<Back />}
        />
        <Card
          role="alert"
          className="p-6 text-sm"
          data-testid={missing ? 'card-receipt-not-found' : 'error-receipt'}
        >
          {missing
            ? 'There is no payment at this address. It may have been mistyped, or the link is out of date.'
            : `The receipt could not be loaded: ${errorMessage(receipt.error)}`}
          {!missing && (
            <div className="mt-3">
              <Button variant="outline" size="sm" onClick={() => void receipt.refetch()}>
                Try again
              </Button>
            </div>
          )}
        </Card>
      </div>
    );
  }
  const { payment: p, allocations } = receipt.data;
  const m = (minor: number) => money(minor, p.currency);
  // One open correction per payment: someone else's request shows as this person's would.
  const waiting = requested ?? history.data?.corrections.find((c) => c.status === 'pending') ?? null;
  const correctable = p.status === 'posted' && can(user, 'payments.manage');

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={`Receipt ${p.receiptNumber}`}
        icon={AREA.icon}
        className="mb-0"
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge
              variant={STATUS_VARIANTS[p.status]}
              data-testid="badge-payment-status"
              data-status={p.status}
            >
              {STATUS_LABELS[p.status]}
            </Badge>
            <span>
              {m(p.amount)} · {p.customerName ?? 'unmatched payer'}
            </span>
          </span>
        }
        actions={<Back />}
      />

      <div className="flex flex-wrap gap-2 print:hidden" data-testid="group-receipt-actions">
        <Button asChild variant="outline">
          <a
            href={endpointUrl(paymentEndpoints.receiptPdf, { params: { id: p.id } })}
            target="_blank"
            rel="noopener"
            data-testid="link-receipt-pdf"
          >
            <FileDown aria-hidden="true" />
            Download PDF
          </a>
        </Button>
        <Button variant="outline" onClick={() => window.print()} data-testid="button-print-receipt">
          <Printer aria-hidden="true" />
          Print
        </Button>
        {correctable && !waiting && (
          <>
            <Button
              variant="outline"
              onClick={() => setDialog('transfer')}
              data-testid="button-transfer-payment"
            >
              <ArrowRightLeft aria-hidden="true" />
              Transfer to another contract
            </Button>
            <Button
              variant="destructive"
              onClick={() => setDialog('reverse')}
              data-testid="button-reverse-payment"
            >
              <Undo2 aria-hidden="true" />
              Request reversal
            </Button>
          </>
        )}
      </div>

      {waiting && (
        <Card
          className="border-warning/60 bg-warning/10 p-4 text-sm print:hidden"
          role="status"
          data-testid="card-correction-requested"
        >
          {CORRECTION_LABELS[waiting.kind]} requested: it waits for a second finance user to approve it in{' '}
          <Link href="/payment-processing?tab=reversals" className="font-medium underline">
            Reversals
          </Link>
          .
        </Card>
      )}
      {p.status === 'reversed' && (
        <Card
          className="border-destructive/50 bg-destructive/10 p-4 text-sm"
          role="note"
          data-testid="card-reversed"
        >
          <strong>REVERSED</strong>
          {p.reversedAt ? ` on ${formatDateTime(p.reversedAt)}` : ''}
          {p.reversalReason ? `: ${p.reversalReason}` : ''}. It no longer counts towards the contract.
        </Card>
      )}

      <TransferNote history={history.data} />

      {p.token && p.status === 'posted' && <TokenCard token={p.token} />}
      {p.deviceCommand && <DeviceCommandCard command={p.deviceCommand} />}

      <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card data-testid="card-receipt">
          <CardHeader className="pb-3">
            <CardTitle className="text-base">Payment</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
              <Item label="Receipt number" testId="text-receipt-number">
                {p.receiptNumber}
              </Item>
              <Item label="Amount" testId="text-receipt-amount">
                <span className="font-semibold text-lg tabular-nums">{m(p.amount)}</span>
              </Item>
              <Item label="Received">{formatDateTime(p.receivedAt)}</Item>
              <Item label="Value date">{p.valueDate ? formatBusinessDate(p.valueDate) : '—'}</Item>
              <Item label="Method">
                {METHOD_LABELS[p.method]}
                {p.provider && p.provider !== p.method ? ` (${providerName(p.provider)})` : ''}
              </Item>
              <Item label="Reference">{p.reference ?? '—'}</Item>
              <Item label="Customer">
                {p.customerId ? (
                  <Link href={`/customers/${p.customerId}`} className="font-medium hover:underline">
                    {p.customerName}
                  </Link>
                ) : (
                  '—'
                )}
              </Item>
              <Item label="Contract">
                {p.contractId ? (
                  <Link
                    href={`/contracts/${p.contractId}`}
                    className="font-medium hover:underline"
                    data-testid="link-receipt-contract"
                  >
                    {p.contractNumber}
                  </Link>
                ) : (
                  'Not matched (suspense)'
                )}
              </Item>
              <Item label="Posted by">
                {p.postedByName ?? 'the system'}
                {p.postedAt ? ` · ${formatDateTime(p.postedAt)}` : ''}
              </Item>
              {p.credit > 0 && <Item label="Kept as customer credit">{m(p.credit)}</Item>}
            </dl>
          </CardContent>
        </Card>
        <Card data-testid="card-receipt-allocation">
          <CardHeader className="pb-3">
            <CardTitle className="text-base">How it was applied</CardTitle>
            <CardDescription>By instalment and component, in {p.currency}.</CardDescription>
          </CardHeader>
          <CardContent>
            <AllocationTable lines={allocations} currency={p.currency} testId="table-receipt-allocation" />
          </CardContent>
        </Card>
      </div>

      <CorrectionHistoryCard
        history={history.data}
        loading={history.isLoading}
        error={history.error}
        onRetry={() => void history.refetch()}
      />

      {dialog && (
        <CorrectionRequestDialog
          kind={dialog}
          payment={p}
          onClose={() => setDialog(null)}
          onDone={(correction) => {
            setDialog(null);
            setRequested(correction);
            toast({
              title: `${CORRECTION_LABELS[correction.kind]} requested`,
              description: 'A second finance user approves it in the Reversals tab.',
            });
          }}
        />
      )}
    </div>
  );
}

function Item({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="font-medium" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/**
 * The unlock (or release) the payment sent to a lock-API unit, with its delivery state for those
 * who may read the command log (refreshed while it is on its way) and a link to the unit's page.
 */
function DeviceCommandCard({ command }: { command: NonNullable<Payment['deviceCommand']> }) {
  const { user } = useAuth();
  const canRead = can(user, 'devices.requestLock');
  const detail = useQuery({
    queryKey: queryKeys.deviceControl.command(command.id),
    queryFn: () => api(deviceControlEndpoints.command, { params: { id: command.id } }),
    enabled: canRead,
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === 'queued' || state === 'sent' ? 2_000 : false;
    },
  });
  const what = command.kind === 'unlock' ? 'An unlock' : 'A release (the device is the customer’s for good)';
  return (
    <Card data-testid="card-payment-command">
      <CardContent className="flex flex-col gap-3 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <Unlock className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
          <div>
            <h2 className="font-semibold">
              {command.kind === 'unlock' ? 'Device unlock' : 'Device release'}
            </h2>
            <p className="text-muted-foreground text-sm">
              {what} was sent to the device with this payment.{' '}
              <Link
                href={`/devices/${command.deviceId}`}
                className="underline"
                data-testid="link-command-device"
              >
                See the device
              </Link>
            </p>
          </div>
        </div>
        {detail.data && <CommandStateBadge state={detail.data.state} testId="badge-payment-command" />}
      </CardContent>
    </Card>
  );
}

function TokenCard({ token }: { token: NonNullable<Payment['token']> }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      toast({ title: 'Token copied' });
    } catch {
      toast({
        title: 'Could not copy',
        description: 'Select the token and copy it by hand.',
        variant: 'destructive',
      });
    }
  };
  return (
    <Card className="border-primary/50 bg-primary/5" data-testid="card-payment-token">
      <CardContent className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <KeyRound className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
          <div>
            <h2 className="font-semibold">Unlock token</h2>
            <p className="text-muted-foreground text-sm">
              Enter it on the device
              {token.days ? `: it unlocks ${token.days} day${token.days === 1 ? '' : 's'}` : ''}. It was also
              sent to the customer.
            </p>
          </div>
        </div>
        <div className="flex items-center gap-3">
          <output
            className="select-all rounded-lg border bg-card px-4 py-2 font-mono font-semibold text-3xl tracking-wider tabular-nums"
            aria-label="Unlock token"
            data-testid="text-payment-token"
          >
            {groupToken(token.token)}
          </output>
          <Button
            variant="outline"
            size="icon"
            aria-label="Copy the token"
            onClick={() => void copy()}
            className="print:hidden"
          >
            <Copy aria-hidden="true" />
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
