import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ArrowLeft,
  CheckCircle2,
  Circle,
  CircleAlert,
  Copy,
  FileDown,
  FileQuestion,
  KeyRound,
  X,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import type { User } from '@/contracts/auth';
import { type Activation, type Contract, contractEndpoints } from '@/contracts/contracts';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { ContractAutoDebitCard } from '@/web/features/auto-debit/contract-auto-debit-card';
import { ContractCaseCard } from '@/web/features/collections/contract-case-card';
import { SendMessageButton } from '@/web/features/communications/send-message-dialog';
import { ContractMessagesCard } from '@/web/features/messages/contract-messages-card';
import {
  ContractPaymentsCard,
  RecordPaymentButton,
  StatementLink,
  takesPayments,
} from '@/web/features/payments/contract-payments';
import { RequestMpesaButton } from '@/web/features/payments/mpesa-push';
import { ContractRecoveriesCard } from '@/web/features/recoveries/contract-recoveries-card';
import { toast } from '@/web/hooks/use-toast';
import { api, endpointUrl } from '@/web/lib/api';
import { formatBusinessDate, formatDateTime, formatPercent } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { apiError, errorMessage } from '@/web/lib/queryClient';
import { ContractActions } from './contract-actions';
import { groupToken, PER_PERIOD } from './contract-rules';
import { ContractSchedule } from './contract-schedule';
import { ContractStatusBadge } from './status-badge';

const AREA = AREAS['/contracts'];
const CONTROL_LABELS: Record<string, string> = {
  openpaygo: 'OpenPAYGO tokens',
  lock_api: 'remote lock',
  none: 'no remote control',
};

/** /contracts/:id: the contract's state, what can be done next, its figures, schedule and history. */
export function ContractDetailView({ id, user }: { id: string; user: User }) {
  const queryClient = useQueryClient();
  const contract = useQuery({
    queryKey: queryKeys.contracts.detail(id),
    queryFn: () => api(contractEndpoints.get, { params: { id } }),
    staleTime: 5_000,
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const [token, setToken] = useState<Activation['token']>(null);

  if (contract.isLoading) return <DetailSkeleton />;
  if (contract.error || !contract.data) {
    const status = apiError(contract.error)?.status;
    if (status === 404 || status === 400) return <NotFound />;
    return (
      <div className="grid grid-cols-1 gap-4">
        <PageHeader title="Contract" icon={AREA.icon} />
        <Card role="alert" className="p-6 text-destructive text-sm" data-testid="error-contract">
          The contract could not be loaded: {errorMessage(contract.error)}
          <div className="mt-3">
            <Button variant="outline" size="sm" onClick={() => void contract.refetch()}>
              Try again
            </Button>
          </div>
        </Card>
      </div>
    );
  }
  const c = contract.data;
  const m = (minor: number) => money(minor, c.currency);
  const open = c.status === 'draft' || c.status === 'pending_approval';

  const changed = (updated: Contract, issued?: Activation['token']) => {
    queryClient.setQueryData(queryKeys.contracts.detail(id), updated);
    void invalidate(queryClient, 'contractMoved');
    if (issued) setToken(issued);
  };

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={c.number}
        documentTitle={`Contract ${c.number}`}
        icon={AREA.icon}
        className="mb-0"
        description={
          <span className="flex flex-wrap items-center gap-2">
            <ContractStatusBadge status={c.status} approved={!!c.approvedAt} testId="badge-contract-status" />
            <span>
              {c.customer.name} · {c.device.model}
            </span>
          </span>
        }
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <RecordPaymentButton contract={c} user={user} />
            <RequestMpesaButton contract={c} user={user} />
            <SendMessageButton customerId={c.customer.id} contractId={c.id} customerName={c.customer.name} />
            <Button asChild variant="ghost" size="sm">
              <Link href="/contracts" data-testid="link-back-contracts">
                <ArrowLeft aria-hidden="true" />
                All contracts
              </Link>
            </Button>
          </div>
        }
      />

      <div aria-live="assertive" role="alert" className={refusal ? '' : 'hidden'}>
        {refusal && (
          <div
            className="flex items-start gap-3 rounded-lg border border-destructive/50 bg-destructive/10 px-4 py-3 text-sm"
            data-testid="alert-contract-refusal"
          >
            <CircleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
            <p className="flex-1 font-medium" data-testid="text-contract-refusal">
              {refusal}
            </p>
            <Button
              variant="ghost"
              size="icon"
              className="-my-1 size-7"
              aria-label="Dismiss"
              onClick={() => setRefusal(null)}
            >
              <X aria-hidden="true" />
            </Button>
          </div>
        )}
      </div>

      {token && <TokenCard token={token} serial={c.device.serialNumber} />}

      {open && <NextSteps contract={c} user={user} onChanged={changed} onRefused={setRefusal} />}
      {c.status === 'cancelled' && c.cancelReason && (
        <Card className="border-muted-foreground/30 p-4 text-sm" data-testid="card-cancelled">
          Cancelled {c.cancelledAt ? formatDateTime(c.cancelledAt) : ''}: {c.cancelReason}
        </Card>
      )}

      <div className="grid grid-cols-1 min-w-0 gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="grid min-w-0 grid-cols-1 content-start gap-4">
          <Card>
            <CardHeader>
              <CardTitle>Summary</CardTitle>
              <CardDescription>
                As of {formatBusinessDate(c.asOf)}. {c.term} {c.frequency} instalments from{' '}
                {formatBusinessDate(c.firstDueDate)} to {formatBusinessDate(c.lastDueDate)}.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-2 gap-x-4 gap-y-4 text-sm sm:grid-cols-3 xl:grid-cols-4">
                <Figure label="Cash price" value={m(c.cashPrice)} />
                <Figure
                  label="Deposit"
                  value={m(c.deposit)}
                  note={c.depositReceived < c.deposit ? `${m(c.depositReceived)} received` : 'Received'}
                  testId="text-deposit"
                />
                <Figure label="Amount financed" value={m(c.principal)} testId="text-principal" />
                <Figure
                  label="Instalment"
                  value={m(c.regularPayment)}
                  note={`${PER_PERIOD[c.frequency] ?? ''}${c.serviceFee ? `, incl. ${m(c.serviceFee)} fee` : ''}`}
                  testId="text-instalment"
                />
                <Figure label="APR" value={formatPercent(c.apr)} note={c.interestMethod} testId="text-apr" />
                <Figure label="Total interest" value={m(c.totalInterest)} />
                <Figure label="Total payable" value={m(c.totalPayable)} testId="text-total-payable" />
                <Figure
                  label="Balance outstanding"
                  value={m(c.outstanding.total)}
                  note={`principal ${m(c.outstanding.principal)}`}
                  strong
                  testId="text-balance"
                />
                <Figure label="Total paid" value={m(c.totalPaid)} testId="text-total-paid" />
                <Figure
                  label="Days past due"
                  value={String(c.dpd)}
                  note={c.bucket === 'current' ? 'current' : `bucket ${c.bucket}`}
                  testId="text-dpd"
                />
                <Figure
                  label="Next due"
                  value={c.nextDue ? m(c.nextDue.amount) : '—'}
                  note={c.nextDue ? formatBusinessDate(c.nextDue.dueDate) : undefined}
                />
                <Figure
                  label="Paid through"
                  value={
                    c.status === 'active' || c.status === 'defaulted'
                      ? formatBusinessDate(c.paidThroughDate)
                      : '—'
                  }
                />
                {c.creditBalance > 0 && <Figure label="Customer credit" value={m(c.creditBalance)} />}
              </dl>
            </CardContent>
          </Card>

          <Card className="pb-4">
            <CardHeader className="pb-3">
              <CardTitle>Schedule</CardTitle>
              <CardDescription>
                {c.status === 'draft' || c.status === 'pending_approval'
                  ? `Dated from ${formatBusinessDate(c.startDate)}, as drafted; activation dates it again from the day the device is handed over.`
                  : 'Each instalment with what is paid.'}{' '}
                Amounts in {c.currency}.
              </CardDescription>
            </CardHeader>
            <ContractSchedule rows={c.schedule} currency={c.currency} />
          </Card>
        </div>

        <div className="grid min-w-0 grid-cols-1 content-start gap-4">
          <SideCard title="Customer" testId="card-contract-customer">
            <Link
              href={`/customers/${c.customer.id}`}
              className="font-medium hover:underline"
              data-testid="link-contract-customer"
            >
              {c.customer.name}
            </Link>
            <p className="text-muted-foreground">
              {c.customer.accountNumber} · {c.customer.phone}
            </p>
            <Badge
              variant={c.customer.kycStatus === 'verified' ? 'success' : 'warning'}
              className="mt-1"
              data-testid="badge-kyc"
            >
              KYC {c.customer.kycStatus.replaceAll('_', ' ')}
            </Badge>
          </SideCard>

          <SideCard title="Device" testId="card-contract-device">
            <Link
              href={`/devices/${c.device.id}`}
              className="font-medium hover:underline"
              data-testid="link-contract-device"
            >
              {c.device.model}
            </Link>
            <p className="font-mono text-muted-foreground text-xs">
              {c.device.serialNumber}
              {c.device.imei ? ` · IMEI ${c.device.imei}` : ''}
            </p>
            <p className="text-muted-foreground">
              <span className="capitalize">{c.device.status.replaceAll('_', ' ')}</span> ·{' '}
              <span data-testid="text-contract-lock-state">
                {c.device.lockState === 'unknown' ? 'lock state unknown' : c.device.lockState}
              </span>{' '}
              · {CONTROL_LABELS[c.device.controlKind] ?? c.device.controlKind}
            </p>
            {c.tokens.length > 0 && (
              <div className="mt-2">
                <p className="font-medium text-xs">Tokens issued</p>
                <ul className="mt-1 grid grid-cols-1 gap-1" data-testid="list-contract-tokens">
                  {c.tokens.map((t) => (
                    <li key={`${t.token}-${t.issuedAt}`} className="flex justify-between gap-2 text-xs">
                      <span className="font-mono">{groupToken(t.token)}</span>
                      <span className="text-muted-foreground">
                        {t.type.replaceAll('_', ' ').toLowerCase()}
                        {t.value ? ` ${t.value} d` : ''} · {formatDateTime(t.issuedAt)}
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </SideCard>

          <SideCard title="Plan" testId="card-contract-plan">
            <Link
              href={`/service-plans/${c.plan.id}`}
              className="font-medium hover:underline"
              data-testid="link-contract-plan"
            >
              {c.plan.code} · {c.plan.name}
            </Link>
            <p className="text-muted-foreground">
              Version {c.plan.version}: {formatPercent(c.apr)} {c.interestMethod}, {c.frequency}
            </p>
          </SideCard>

          <SideCard title="Documents" testId="card-contract-documents">
            <a
              href={endpointUrl(contractEndpoints.keyFacts, { params: { id: c.id } })}
              target="_blank"
              rel="noopener"
              className="inline-flex items-center gap-2 font-medium text-primary hover:underline"
              data-testid="link-key-facts"
            >
              <FileDown className="size-4" aria-hidden="true" />
              Key facts statement (PDF)
            </a>
            <p className="text-muted-foreground text-xs">
              The price, the cost of credit, the APR and every instalment, for the customer to keep.
            </p>
            {(takesPayments(c) || c.payments.length > 0) && (
              <>
                <StatementLink contract={c} />
                <p className="text-muted-foreground text-xs">
                  The schedule with what is paid, every payment and its allocation, the balance and credit.
                </p>
              </>
            )}
          </SideCard>

          {(takesPayments(c) || c.payments.length > 0) && <ContractPaymentsCard contract={c} />}

          <SideCard title="Timeline" testId="card-contract-timeline">
            <ol className="grid grid-cols-1 gap-3 border-l pl-4" data-testid="list-contract-events">
              {[...c.events].reverse().map((event) => (
                <li key={event.id} className="relative" data-testid={`event-${event.type}`}>
                  <span
                    className="-left-[21px] absolute top-1.5 size-2.5 rounded-full border-2 border-card bg-primary"
                    aria-hidden="true"
                  />
                  <p>{event.message}</p>
                  <p className="text-muted-foreground text-xs">
                    {formatDateTime(event.at)}
                    {event.actor ? ` · ${event.actor.name}` : ''}
                  </p>
                </li>
              ))}
            </ol>
          </SideCard>
          <ContractMessagesCard contract={c} />
          <ContractAutoDebitCard contract={c} />
          <ContractCaseCard contract={c} />
          <ContractRecoveriesCard contract={c} user={user} />
        </div>
      </div>
    </div>
  );
}

/** Before activation: the conditions, each ticked or not, and the actions the person may take. */
function NextSteps({
  contract: c,
  user,
  onChanged,
  onRefused,
}: {
  contract: Contract;
  user: User;
  onChanged: (contract: Contract, token?: Activation['token']) => void;
  onRefused: (message: string | null) => void;
}) {
  const m = (minor: number) => money(minor, c.currency);
  const checks: Array<{ done: boolean; label: string; detail?: string; key: string }> = [
    {
      key: 'submitted',
      done: c.status === 'pending_approval',
      label: 'Submitted for approval',
      detail: c.submittedBy ? `by ${c.submittedBy.name}` : undefined,
    },
    {
      key: 'approved',
      done: !!c.approvedAt,
      label: 'Approved by a second person',
      detail: c.approvedBy ? `by ${c.approvedBy.name}` : undefined,
    },
    {
      key: 'kyc',
      done: c.customer.kycStatus === 'verified',
      label: 'Customer’s KYC verified',
      detail: c.customer.kycStatus === 'verified' ? undefined : c.customer.kycStatus.replaceAll('_', ' '),
    },
    {
      key: 'device',
      done: c.device.status === 'reserved',
      label: 'Device held for this contract',
      detail: c.device.status === 'reserved' ? undefined : c.device.status.replaceAll('_', ' '),
    },
    {
      key: 'deposit',
      done: c.depositReceived >= c.deposit,
      label: `Deposit of ${m(c.deposit)} received`,
      detail: c.depositReceived >= c.deposit ? undefined : `${m(c.depositReceived)} so far`,
    },
  ];
  const ready = c.activationBlockers.length === 0;
  return (
    <Card data-testid="card-next-steps">
      <CardHeader>
        <CardTitle>{ready ? 'Ready to activate' : 'Before activation'}</CardTitle>
        <CardDescription>
          Activation hands the device over, starts the schedule and posts the sale to the ledger.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <ul
          className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2 lg:grid-cols-3"
          data-testid="list-activation-checks"
        >
          {checks.map((check) => (
            <li
              key={check.key}
              className="flex items-start gap-2"
              data-testid={`check-${check.key}`}
              data-done={check.done}
            >
              {check.done ? (
                <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
              ) : (
                <Circle className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              )}
              <span>
                <span className="sr-only">{check.done ? 'Done: ' : 'To do: '}</span>
                {check.label}
                {check.detail && <span className="text-muted-foreground"> ({check.detail})</span>}
              </span>
            </li>
          ))}
        </ul>
        <ContractActions contract={c} user={user} onChanged={onChanged} onRefused={onRefused} />
      </CardContent>
    </Card>
  );
}

function TokenCard({ token, serial }: { token: NonNullable<Activation['token']>; serial: string }) {
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
    <Card className="border-primary/50 bg-primary/5" data-testid="card-unlock-token">
      <CardContent className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <KeyRound className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
          <div>
            <h2 className="font-semibold">First unlock token</h2>
            <p className="text-muted-foreground text-sm">
              Enter it on device {serial}: it unlocks {token.days} day{token.days === 1 ? '' : 's'}. It was
              also sent to the customer.
            </p>
          </div>
        </div>
        <div className="flex items-center gap-3">
          <output
            className="select-all rounded-lg border bg-card px-4 py-2 font-mono font-semibold text-3xl tracking-wider tabular-nums"
            aria-label="Unlock token"
            data-testid="text-unlock-token"
          >
            {groupToken(token.token)}
          </output>
          <Button variant="outline" size="icon" aria-label="Copy the token" onClick={() => void copy()}>
            <Copy aria-hidden="true" />
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function Figure({
  label,
  value,
  note,
  strong = false,
  testId,
}: {
  label: string;
  value: string;
  note?: string | undefined;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd
        className={strong ? 'font-semibold text-lg tabular-nums' : 'font-medium tabular-nums'}
        data-testid={testId}
      >
        {value}
      </dd>
      {note && <dd className="text-muted-foreground text-xs">{note}</dd>}
    </div>
  );
}

function SideCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Card data-testid={testId}>
      <CardHeader className="pb-3">
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-1 text-sm">{children}</CardContent>
    </Card>
  );
}

function DetailSkeleton() {
  return (
    <div role="status" className="grid grid-cols-1 gap-4" data-testid="skeleton-contract">
      <span className="sr-only">Loading the contract…</span>
      <Skeleton className="h-10 w-64" />
      <Skeleton className="h-32 w-full" />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[2fr_1fr]">
        <Skeleton className="h-72 w-full" />
        <Skeleton className="h-72 w-full" />
      </div>
    </div>
  );
}

function NotFound() {
  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader title="Contract not found" icon={FileQuestion} />
      <Card data-testid="card-contract-not-found">
        <CardContent className="grid grid-cols-1 gap-3 p-6 text-sm">
          <p>There is no contract at this address. It may have been mistyped, or the link is out of date.</p>
          <div>
            <Button asChild variant="outline">
              <Link href="/contracts" data-testid="link-back-contracts">
                <ArrowLeft aria-hidden="true" />
                All contracts
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
