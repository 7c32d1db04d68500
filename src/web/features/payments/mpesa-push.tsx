import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, CircleX, Smartphone } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { Contract } from '@/contracts/contracts';
import { mobileMoneyEndpoints, type Push } from '@/contracts/payments';
import { can, type RoleHolder } from '@/contracts/roles';
import { minorUnitDigits } from '@/domain';
import { AmountField } from '@/web/components/amount-field';
import { DialogSubmitFooter } from '@/web/components/dialog-submit-footer';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button, type ButtonProps } from '@/web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { money, moneyInputText, parseMoneyInput } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { takesPayments } from './contract-payments';
import { receiptHref } from './format';

/** How often a push's state is read while the customer has not answered. */
export const PUSH_POLL_MS = 1000;
/** After this long without an answer the push is read less often (the customer may never answer). */
const PUSH_PATIENCE_MS = 2 * 60_000;
/** Daraja's result code for a request the customer cancelled on their phone. */
const CANCELLED_BY_CUSTOMER = 1032;

/**
 * What to ask for by default: what is overdue or due today, else the next instalment, never more
 * than the balance; rounded up to a whole amount, as M-Pesa takes no fractions.
 */
export function suggestedPushAmount(contract: Contract): { amount: number; basis: 'due' | 'next' } | null {
  const owed = contract.schedule
    .filter((row) => row.status === 'overdue' || row.status === 'due')
    .reduce((sum, row) => sum + row.total - row.paid, 0);
  const basis = owed > 0 ? 'due' : 'next';
  const due = Math.min(owed || contract.nextDue?.amount || 0, contract.outstanding.total);
  if (due <= 0) return null;
  const unit = 10 ** minorUnitDigits(contract.currency);
  return { amount: Math.ceil(due / unit) * unit, basis };
}

/** A push as people read it: the customer's refusal is "cancelled", every other failure "failed". */
export type PushState = 'pending' | 'paid' | 'cancelled' | 'failed';
export function pushState(push: Pick<Push, 'status' | 'resultCode'>): PushState {
  if (push.status === 'succeeded') return 'paid';
  if (push.status === 'pending') return 'pending';
  return push.resultCode === CANCELLED_BY_CUSTOMER ? 'cancelled' : 'failed';
}

/**
 * "Request M-Pesa payment" (STK push): asks the customer's phone to approve a payment on the
 * contract. For everyone who takes payments: the money counts only once M-Pesa confirms it.
 */
export function RequestMpesaButton({
  contract,
  user,
  amount,
  variant = 'outline',
  size = 'sm',
}: {
  contract: Contract;
  user: RoleHolder | null;
  /** Minor units to propose instead of the amount due (the post form's typed amount). */
  amount?: number | null;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
}) {
  const [open, setOpen] = useState(false);
  if (!takesPayments(contract) || !can(user, 'payments.cash')) return null;
  return (
    <>
      <Button
        type="button"
        variant={variant}
        size={size}
        onClick={() => setOpen(true)}
        data-testid="button-request-mpesa"
      >
        <Smartphone aria-hidden="true" />
        Request M-Pesa payment
      </Button>
      {open && (
        <MpesaPushDialog
          contract={contract}
          initialAmount={amount ?? suggestedPushAmount(contract)?.amount ?? null}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

type Step =
  | { name: 'form' }
  | { name: 'confirm'; amount: number; phone: string }
  | { name: 'sent'; push: Push };

function MpesaPushDialog({
  contract,
  initialAmount,
  onClose,
}: {
  contract: Contract;
  initialAmount: number | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const currency = contract.currency;
  const [phone, setPhone] = useState(contract.customer.phone);
  const [amount, setAmount] = useState(moneyInputText(initialAmount, currency));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [step, setStep] = useState<Step>({ name: 'form' });
  const suggested = suggestedPushAmount(contract);
  // Each step replaces the last one's buttons: focus moves to the new step's main control.
  const sendRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const shown = useRef(step.name);
  useEffect(() => {
    if (shown.current === step.name) return; // the dialog's own focus on opening
    shown.current = step.name;
    if (step.name === 'confirm') sendRef.current?.focus();
    if (step.name === 'form') {
      const form = formRef.current;
      (
        form?.querySelector<HTMLInputElement>('input[aria-invalid="true"]') ?? form?.querySelector('input')
      )?.focus();
    }
  }, [step.name]);

  const send = useMutation({
    mutationFn: (body: { phone: string; amount: number }) =>
      api(mobileMoneyEndpoints.push, { body: { contractId: contract.id, ...body } }),
    onSuccess: (push) => setStep({ name: 'sent', push }),
    onError: (failure) => {
      const fields = fieldErrors(failure);
      if (Object.keys(fields).length) {
        setErrors(fields);
        setStep({ name: 'form' });
      }
    },
  });

  const review = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    const typed = phone.trim();
    if (!typed) next.phone = 'Enter the phone number to ask';
    else if (!/^\+?[\d\s().-]{6,}$/.test(typed))
      next.phone = 'Enter a valid phone number, such as +254 712 345 678';
    const parsed = parseMoneyInput(amount, currency, 'Amount');
    if ('empty' in parsed) next.amount = 'Enter the amount to ask for';
    else if ('error' in parsed) next.amount = parsed.error;
    else if (parsed.value <= 0) next.amount = 'The amount must be more than 0';
    else if (parsed.value % 10 ** minorUnitDigits(currency) !== 0)
      next.amount = 'M-Pesa takes whole amounts: leave out the cents';
    setErrors(next);
    if (Object.keys(next).length || !('value' in parsed)) return;
    send.reset();
    setStep({ name: 'confirm', amount: parsed.value, phone: typed });
  };

  const busy = send.isPending;
  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent data-testid="dialog-mpesa-push">
        <DialogHeader>
          <DialogTitle>Request M-Pesa payment</DialogTitle>
          <DialogDescription>
            {contract.number} · {contract.customer.name}. The customer approves it on their phone with their
            M-Pesa PIN; the payment is posted when M-Pesa confirms it.
          </DialogDescription>
        </DialogHeader>
        {step.name === 'form' && (
          <form
            ref={formRef}
            onSubmit={review}
            noValidate
            className="grid grid-cols-1 gap-4"
            data-testid="form-mpesa-push"
          >
            <FormField
              id={`${id}-phone`}
              label="Phone"
              error={errors.phone}
              hint="The customer’s number; change it to ask another M-Pesa phone."
            >
              {(control) => (
                <Input
                  {...control}
                  type="tel"
                  autoComplete="off"
                  maxLength={30}
                  value={phone}
                  onChange={(event) => setPhone(event.target.value)}
                  data-testid="input-push-phone"
                />
              )}
            </FormField>
            <AmountField
              id={`${id}-amount`}
              currency={currency}
              value={amount}
              onChange={setAmount}
              error={errors.amount}
              hint={
                suggested
                  ? `${suggested.basis === 'due' ? 'Due now' : 'Next instalment'}: ${money(suggested.amount, currency)}.`
                  : 'Nothing is due; a payment beyond the balance is kept as credit.'
              }
              testId="input-push-amount"
            />
            <DialogSubmitFooter
              onCancel={onClose}
              pending={false}
              label="Continue"
              testId="button-push-review"
            />
          </form>
        )}
        {step.name === 'confirm' && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              send.mutate({ phone: step.phone, amount: step.amount });
            }}
            className="grid grid-cols-1 gap-4"
            data-testid="form-mpesa-confirm"
          >
            <FormAlert
              message={
                send.error && !Object.keys(fieldErrors(send.error)).length ? errorMessage(send.error) : null
              }
            />
            <p className="text-sm" data-testid="text-push-confirm">
              Ask <strong>{step.phone}</strong> to pay <strong>{money(step.amount, currency)}</strong> on{' '}
              {contract.number}?
            </p>
            <DialogFooter>
              <Button
                type="button"
                variant="outline"
                onClick={() => setStep({ name: 'form' })}
                disabled={busy}
              >
                Back
              </Button>
              <Button ref={sendRef} type="submit" disabled={busy} data-testid="button-push-send">
                {busy ? <Spinner className="size-4" /> : <Smartphone aria-hidden="true" />}
                Send request
              </Button>
            </DialogFooter>
          </form>
        )}
        {step.name === 'sent' && (
          <PushProgress
            initial={step.push}
            onRetry={() => setStep({ name: 'form' })}
            onClose={onClose}
            onPaid={() => void invalidate(queryClient, 'paymentsChanged')}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The push's state as the server reports it, read every second until the customer answers. */
function PushProgress({
  initial,
  onRetry,
  onClose,
  onPaid,
}: {
  initial: Push;
  onRetry: () => void;
  onClose: () => void;
  onPaid: () => void;
}) {
  const started = useRef(Date.now());
  const push = useQuery({
    queryKey: queryKeys.payments.push(initial.id),
    queryFn: () => api(mobileMoneyEndpoints.pushStatus, { params: { id: initial.id } }),
    initialData: initial,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.status === 'pending'
        ? Date.now() - started.current < PUSH_PATIENCE_MS
          ? PUSH_POLL_MS
          : 10 * PUSH_POLL_MS
        : false,
  });
  const p = push.data;
  const state = pushState(p);
  const amount = money(p.amount, p.currency);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  const announced = useRef(false);
  useEffect(() => {
    if (state !== 'paid' || announced.current) return;
    announced.current = true;
    onPaid();
    toast({
      title: 'M-Pesa payment received',
      description: `${amount} on ${p.contractNumber ?? 'the contract'}.`,
    });
  }, [state, amount, p.contractNumber, onPaid]);

  return (
    <div className="grid grid-cols-1 gap-4">
      <div
        role="status"
        aria-live="polite"
        className="flex items-start gap-3 rounded-md border p-4 text-sm"
        data-testid="status-push"
        data-state={state}
      >
        {state === 'pending' ? (
          <Spinner className="mt-0.5 size-5 shrink-0 text-primary" />
        ) : state === 'paid' ? (
          <CircleCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
        ) : (
          <CircleX className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
        )}
        <div className="grid grid-cols-1 gap-1">
          <p className="font-semibold" data-testid="text-push-state">
            {state === 'pending'
              ? 'Waiting for the customer'
              : state === 'paid'
                ? 'Paid'
                : state === 'cancelled'
                  ? 'Cancelled'
                  : 'Failed'}
          </p>
          <p className="text-muted-foreground">
            {state === 'pending'
              ? `${p.phone} was asked to pay ${amount}. You may close this window: the payment is posted when M-Pesa confirms it.`
              : state === 'paid'
                ? `${amount} received from ${p.phone} and posted on ${p.contractNumber ?? 'the contract'}.`
                : state === 'cancelled'
                  ? `The customer cancelled the request on ${p.phone}. Nothing was paid.`
                  : `M-Pesa could not take the payment${p.resultDesc ? `: ${p.resultDesc}` : ''}. Nothing was paid.`}
          </p>
          {push.error && state === 'pending' && (
            <p className="text-destructive">
              The state could not be read: {errorMessage(push.error)}. Trying again.
            </p>
          )}
        </div>
      </div>
      <DialogFooter>
        {(state === 'cancelled' || state === 'failed') && (
          <Button type="button" variant="outline" onClick={onRetry} data-testid="button-push-retry">
            Ask again
          </Button>
        )}
        {state === 'paid' && p.paymentId && (
          <Button asChild variant="outline">
            <Link href={receiptHref({ id: p.paymentId })} data-testid="link-push-receipt">
              View receipt
            </Link>
          </Button>
        )}
        <Button ref={closeRef} type="button" onClick={onClose} data-testid="button-push-close">
          Close
        </Button>
      </DialogFooter>
    </div>
  );
}
