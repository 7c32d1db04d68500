import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowRight, CircleDollarSign, Receipt } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { type Contract, contractEndpoints } from '@/contracts/contracts';
import { type PaymentResult, paymentEndpoints } from '@/contracts/payments';
import { can } from '@/contracts/roles';
import { AmountField } from '@/web/components/amount-field';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { Skeleton } from '@/web/components/ui/skeleton';
import { useOrganisation } from '@/web/features/devices/queries';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { money, parseMoneyInput } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { AllocationTable } from './allocation-table';
import { takesPayments } from './contract-payments';
import { ContractPicker, contractOption, useDebounced } from './contract-picker';
import { MANUAL_METHODS, type ManualMethod, METHOD_LABELS, newIdempotencyKey, receiptHref } from './format';
import { RequestMpesaButton } from './mpesa-push';

/** `datetime-local` text (the browser's zone) as an ISO instant, or null when empty or invalid. */
function instantOf(local: string): string | null {
  if (!local) return null;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/**
 * Post a payment (issue 13): find the contract, see what it owes, type the amount, and see the
 * allocation it would get before confirming. The post carries an Idempotency-Key made for this
 * submission and reused if it is retried, so a lost answer never posts twice.
 */
export function PostPaymentForm({ initialContractId = '' }: { initialContractId?: string }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const id = useId();
  const [contractId, setContractId] = useState(initialContractId);
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<ManualMethod>('cash');
  const [reference, setReference] = useState('');
  const [receivedAt, setReceivedAt] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const keyRef = useRef<string | null>(null);
  const finance = can(user, 'payments.manage');
  const methods = finance ? MANUAL_METHODS : (['cash'] as const);

  const contract = useQuery({
    queryKey: queryKeys.contracts.detail(contractId),
    queryFn: () => api(contractEndpoints.get, { params: { id: contractId } }),
    enabled: !!contractId,
    staleTime: 5_000,
  });
  const c = contract.data;
  // Before a contract is chosen, the organisation's currency (every contract is in it).
  const organisation = useOrganisation();
  const currency = c?.currency ?? organisation.data?.currency ?? 'USD';
  const parsed = parseMoneyInput(amount, currency, 'Amount');
  const minor = 'value' in parsed && parsed.value > 0 ? parsed.value : null;
  const at = instantOf(receivedAt);
  const previewInput = useDebounced(
    useMemo(
      () => (contractId && minor ? { contractId, amount: minor, ...(at ? { receivedAt: at } : {}) } : null),
      [contractId, minor, at],
    ),
    350,
  );
  const preview = useQuery({
    queryKey: queryKeys.payments.preview(previewInput ?? {}),
    queryFn: () => api(paymentEndpoints.preview, { body: previewInput ?? { contractId: '', amount: 0 } }),
    enabled: !!previewInput && !!c,
    retry: false,
    staleTime: 5_000,
  });

  // A changed input is a new submission: it gets a new key when it is sent.
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      keyRef.current = null;
      set(value);
    };

  const post = useMutation({
    mutationFn: (body: { amount: number }) => {
      keyRef.current ??= newIdempotencyKey();
      return api(paymentEndpoints.create, {
        headers: { 'idempotency-key': keyRef.current },
        body: {
          contractId,
          amount: body.amount,
          method,
          ...(reference.trim() ? { reference: reference.trim() } : {}),
          ...(at ? { receivedAt: at } : {}),
        },
      });
    },
    onSuccess: (result: PaymentResult) => {
      keyRef.current = null;
      queryClient.setQueryData(queryKeys.payments.detail(result.payment.id), result);
      void invalidate(queryClient, 'paymentsChanged');
      toast({
        title: `Payment ${result.payment.receiptNumber} posted`,
        description: `${money(result.payment.amount, result.payment.currency)} on ${result.payment.contractNumber ?? 'the contract'}.`,
      });
      navigate(receiptHref(result.payment));
    },
    onError: (failure) => setErrors(fieldErrors(failure)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (!contractId) next.contractId = 'Choose the contract the payment is for';
    if ('empty' in parsed) next.amount = 'Enter the amount received';
    else if ('error' in parsed) next.amount = parsed.error;
    else if (parsed.value <= 0) next.amount = 'The amount must be more than 0';
    if (method !== 'cash' && method !== 'adjustment' && !reference.trim())
      next.reference = 'Enter the transaction reference, so it can be matched to the statement';
    if (receivedAt && !at) next.receivedAt = 'Enter a valid date and time';
    else if (at && new Date(at).getTime() > Date.now() + 60_000)
      next.receivedAt = 'A payment cannot be received in the future';
    setErrors(next);
    if (Object.keys(next).length || !minor) return;
    post.mutate({ amount: minor });
  };

  const general =
    post.error && Object.keys(fieldErrors(post.error)).length === 0 ? errorMessage(post.error) : null;
  const selected = c
    ? contractOption({
        ...c,
        customerName: c.customer.name,
        customerPhone: c.customer.phone,
        deviceSerial: c.device.serialNumber,
      })
    : null;

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Card>
        <CardHeader>
          <CardTitle>Post a payment</CardTitle>
          <CardDescription>
            {finance
              ? 'Cash, mobile money, bank transfer, card or an adjustment, with the allocation shown before you confirm.'
              : 'Cash received from a customer; the allocation is shown before you confirm. Other methods are posted by finance.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            onSubmit={submit}
            noValidate
            className="grid grid-cols-1 gap-4"
            data-testid="form-post-payment"
          >
            <FormAlert message={general} />
            <FormField
              id={`${id}-contract`}
              label="Contract"
              error={errors.contractId}
              hint="Search by contract number, customer name, phone or device serial."
            >
              {(control) => (
                <ContractPicker
                  control={control}
                  value={contractId}
                  onChange={changed(setContractId)}
                  selected={selected}
                  testId="select-payment-contract"
                />
              )}
            </FormField>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <AmountField
                id={`${id}-amount`}
                currency={currency}
                value={amount}
                onChange={changed(setAmount)}
                error={errors.amount}
                testId="input-payment-amount"
              />
              <FormField id={`${id}-method`} label="Method" error={errors.method}>
                {(control) => (
                  <NativeSelect
                    {...control}
                    value={method}
                    onChange={(event) => changed(setMethod)(event.target.value as ManualMethod)}
                    data-testid="select-payment-method"
                  >
                    {methods.map((m) => (
                      <option key={m} value={m}>
                        {METHOD_LABELS[m]}
                      </option>
                    ))}
                  </NativeSelect>
                )}
              </FormField>
              <FormField
                id={`${id}-reference`}
                label={method === 'cash' ? 'Reference (optional)' : 'Reference'}
                error={errors.reference}
                hint={method === 'cash' ? 'A receipt book number, if any.' : 'The provider’s transaction id.'}
              >
                {(control) => (
                  <Input
                    {...control}
                    autoComplete="off"
                    maxLength={100}
                    value={reference}
                    onChange={(event) => changed(setReference)(event.target.value)}
                    data-testid="input-payment-reference"
                  />
                )}
              </FormField>
              <FormField
                id={`${id}-received`}
                label="Received at (optional)"
                error={errors.receivedAt}
                hint="Leave empty for now; set it for a payment received earlier."
              >
                {(control) => (
                  <Input
                    {...control}
                    type="datetime-local"
                    value={receivedAt}
                    onChange={(event) => changed(setReceivedAt)(event.target.value)}
                    className="dark:[color-scheme:dark]"
                    data-testid="input-payment-received-at"
                  />
                )}
              </FormField>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" disabled={post.isPending} data-testid="button-post-payment">
                {post.isPending ? <Spinner className="size-4" /> : <CircleDollarSign aria-hidden="true" />}
                {minor ? `Confirm and post ${money(minor, currency)}` : 'Confirm and post'}
              </Button>
              {post.isError && !general && (
                <span className="text-destructive text-sm">Correct the fields marked above.</span>
              )}
            </div>
          </form>
        </CardContent>
      </Card>
      <div className="grid min-w-0 grid-cols-1 content-start gap-4">
        <ContractSummary
          contract={c}
          loading={contract.isLoading}
          error={contract.error}
          action={
            c && takesPayments(c) ? <RequestMpesaButton contract={c} user={user} amount={minor} /> : null
          }
        />
        <PreviewCard
          waiting={!contractId || !minor}
          loading={preview.isFetching && !preview.data}
          stale={preview.isFetching}
          error={preview.error}
          data={previewInput ? preview.data : undefined}
        />
      </div>
    </div>
  );
}

function ContractSummary({
  contract: c,
  loading,
  error,
  action,
}: {
  contract: Contract | undefined;
  loading: boolean;
  error: unknown;
  /** What else can be done for the contract here (ask for an M-Pesa payment). */
  action: ReactNode;
}) {
  if (loading)
    return (
      <Card className="p-4" role="status">
        <span className="sr-only">Loading the contract…</span>
        <Skeleton className="h-20 w-full" />
      </Card>
    );
  if (error)
    return (
      <Card role="alert" className="p-4 text-destructive text-sm">
        The contract could not be loaded: {errorMessage(error)}
      </Card>
    );
  if (!c)
    return (
      <Card className="p-4 text-muted-foreground text-sm" data-testid="text-choose-contract">
        Choose a contract to see what it owes.
      </Card>
    );
  const m = (minor: number) => money(minor, c.currency);
  return (
    <Card data-testid="card-payment-contract">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">
          {c.number} · {c.customer.name}
        </CardTitle>
        <CardDescription>
          {c.device.model} · {c.device.serialNumber} · {c.status.replaceAll('_', ' ')}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-muted-foreground text-xs">Outstanding</dt>
            <dd className="font-semibold tabular-nums" data-testid="text-payment-outstanding">
              {m(c.outstanding.total)}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground text-xs">Next due</dt>
            <dd className="font-medium tabular-nums">
              {c.nextDue ? `${m(c.nextDue.amount)} on ${formatBusinessDate(c.nextDue.dueDate)}` : '—'}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground text-xs">Paid through</dt>
            <dd className="font-medium">{formatBusinessDate(c.paidThroughDate)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground text-xs">Days past due</dt>
            <dd className={c.dpd > 0 ? 'font-medium text-destructive' : 'font-medium'}>{c.dpd}</dd>
          </div>
          {c.creditBalance > 0 && (
            <div>
              <dt className="text-muted-foreground text-xs">Customer credit</dt>
              <dd className="font-medium tabular-nums">{m(c.creditBalance)}</dd>
            </div>
          )}
        </dl>
        {action && <div className="mt-4 flex flex-wrap items-center gap-3 border-t pt-4">{action}</div>}
      </CardContent>
    </Card>
  );
}

function PreviewCard({
  waiting,
  loading,
  stale,
  error,
  data,
}: {
  waiting: boolean;
  loading: boolean;
  stale: boolean;
  error: unknown;
  data: Awaited<ReturnType<typeof api<typeof paymentEndpoints.preview>>> | undefined;
}) {
  return (
    <Card data-testid="card-payment-preview" aria-busy={stale}>
      <CardHeader className="pb-3">
        <CardTitle className="flex items-center gap-2 text-base">
          <Receipt className="size-4" aria-hidden="true" />
          Allocation preview
        </CardTitle>
        <CardDescription>
          Where the payment goes: overdue amounts first, as the plan allocates.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3 text-sm" aria-live="polite">
        {waiting ? (
          <p className="text-muted-foreground">
            Choose a contract and enter the amount to see the allocation.
          </p>
        ) : loading ? (
          <div role="status">
            <span className="sr-only">Working out the allocation…</span>
            <Skeleton className="h-24 w-full" />
          </div>
        ) : error ? (
          <p role="alert" className="text-destructive" data-testid="text-preview-error">
            {errorMessage(error)}
          </p>
        ) : data ? (
          <>
            <AllocationTable lines={data.allocations} currency={data.currency} testId="table-preview" />
            <dl className="grid grid-cols-1 gap-1" data-testid="list-preview-figures">
              <BeforeAfter
                label="Outstanding"
                before={money(data.outstandingBefore, data.currency)}
                after={money(data.outstandingAfter, data.currency)}
                testId="outstanding"
              />
              <BeforeAfter
                label="Paid through"
                before={formatBusinessDate(data.paidThroughBefore)}
                after={formatBusinessDate(data.paidThroughAfter)}
                testId="paid-through"
              />
            </dl>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}

function BeforeAfter({
  label,
  before,
  after,
  testId,
}: {
  label: string;
  before: string;
  after: string;
  testId: string;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="flex items-center gap-2 tabular-nums" data-testid={`text-preview-${testId}`}>
        <span>{before}</span>
        <ArrowRight className="size-3.5 text-muted-foreground" aria-label="becomes" />
        <span className="font-semibold">{after}</span>
      </dd>
    </div>
  );
}
