import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { mobileMoneyEndpoints, type Payment } from '@/contracts/payments';
import { DialogSubmitFooter } from '@/web/components/dialog-submit-footer';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Button } from '@/web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { Label } from '@/web/components/ui/label';
import { Textarea } from '@/web/components/ui/textarea';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { money } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { AllocationTable } from './allocation-table';
import { ContractPicker } from './contract-picker';
import { receiptHref } from './format';

const MIN_REASON = 3;

/** What the server refused, as one message when no field names it (409 PAYMENT_STATE, 422). */
function generalError(error: unknown): string | null {
  if (!error) return null;
  return Object.keys(fieldErrors(error)).length === 0 ? errorMessage(error) : null;
}

function describe(payment: Payment): string {
  return `${money(payment.amount, payment.currency)} (${payment.reference ?? payment.receiptNumber}${
    payment.accountReference ? `, account reference “${payment.accountReference}”` : ', no account reference'
  })`;
}

/**
 * Matches a suspense payment to a contract: the payment is posted there as received (its value date
 * the day it came in), then the dialog shows how it was allocated and links to its receipt.
 */
export function MatchDialog({ payment, onClose }: { payment: Payment; onClose: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [contractId, setContractId] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: () =>
      api(mobileMoneyEndpoints.match, {
        params: { id: payment.id },
        body: { contractId, reason: reason.trim() },
      }),
    onSuccess: () => void invalidate(queryClient, 'paymentsChanged'),
    onError: (failure) => setErrors(fieldErrors(failure)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (!contractId) next.contractId = 'Choose the contract this payment is for';
    if (reason.trim().length < MIN_REASON) next.reason = 'Give a reason (at least 3 characters)';
    setErrors(next);
    if (Object.keys(next).length === 0) mutation.mutate();
  };
  const result = mutation.data;
  return (
    <Dialog open onOpenChange={(open) => !open && !mutation.isPending && onClose()}>
      <DialogContent data-testid="dialog-match" className="sm:max-w-xl">
        {result ? (
          <div className="grid grid-cols-1 gap-4" data-testid="panel-match-result">
            <DialogHeader>
              <DialogTitle>Matched to {result.payment.contractNumber}</DialogTitle>
              <DialogDescription>
                {money(result.payment.amount, result.payment.currency)} is posted to{' '}
                {result.payment.contractNumber}
                {result.payment.customerName ? ` (${result.payment.customerName})` : ''} as receipt{' '}
                {result.payment.receiptNumber}.
              </DialogDescription>
            </DialogHeader>
            <div
              role="status"
              className="flex items-start gap-2 rounded-lg border border-success/50 bg-success/10 px-3 py-2.5 text-sm"
            >
              <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <p>
                Allocated as below
                {result.payment.credit > 0
                  ? `; ${money(result.payment.credit, result.payment.currency)} is kept as customer credit`
                  : ''}
                .
              </p>
            </div>
            <AllocationTable
              lines={result.allocations}
              currency={result.payment.currency}
              testId="table-match-allocation"
            />
            <DialogFooter>
              <Button variant="outline" onClick={onClose} data-testid="button-match-close">
                Close
              </Button>
              <Button asChild>
                <Link href={receiptHref(result.payment)} data-testid="link-match-receipt">
                  Open receipt {result.payment.receiptNumber}
                </Link>
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
            <DialogHeader>
              <DialogTitle>Match {payment.receiptNumber} to a contract</DialogTitle>
              <DialogDescription>
                {describe(payment)}. It is posted to the contract you choose as received on that day, and
                allocated like any payment.
              </DialogDescription>
            </DialogHeader>
            <FormAlert message={generalError(mutation.error)} />
            <FormField id={`${id}-contract`} label="Contract" error={errors.contractId}>
              {(control) => (
                <ContractPicker
                  control={control}
                  value={contractId}
                  onChange={(next) => {
                    setContractId(next);
                    setErrors(({ contractId: _contractId, ...rest }) => rest);
                  }}
                  testId="select-match-contract"
                />
              )}
            </FormField>
            <FormField id={`${id}-reason`} label="Reason" error={errors.reason}>
              {(control) => (
                <Textarea
                  {...control}
                  value={reason}
                  maxLength={500}
                  rows={2}
                  placeholder="e.g. Customer called: typed the phone number instead of the contract number"
                  onChange={(event) => {
                    setReason(event.target.value);
                    setErrors(({ reason: _reason, ...rest }) => rest);
                  }}
                  data-testid="input-match-reason"
                />
              )}
            </FormField>
            <DialogSubmitFooter
              onCancel={onClose}
              pending={mutation.isPending}
              label="Match and post"
              testId="button-confirm-match"
            />
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * Gives a suspense payment back to the payer: it leaves the queue as reversed and refunded. The
 * money itself goes back through the provider's own channel; this records it. Asks twice.
 */
export function RefundDialog({ payment, onClose }: { payment: Payment; onClose: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [reason, setReason] = useState('');
  const [sure, setSure] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: () =>
      api(mobileMoneyEndpoints.refund, { params: { id: payment.id }, body: { reason: reason.trim() } }),
    onSuccess: (result) => {
      void invalidate(queryClient, 'paymentsChanged');
      toast({ title: `${result.payment.receiptNumber} refunded to the payer` });
      onClose();
    },
    onError: (failure) => setErrors(fieldErrors(failure)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (reason.trim().length < MIN_REASON) next.reason = 'Give a reason (at least 3 characters)';
    if (!sure) next.sure = 'Tick the box to confirm the refund';
    setErrors(next);
    if (Object.keys(next).length === 0) mutation.mutate();
  };
  return (
    <Dialog open onOpenChange={(open) => !open && !mutation.isPending && onClose()}>
      <DialogContent role="alertdialog" data-testid="dialog-refund">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>Refund {payment.receiptNumber} to the payer?</DialogTitle>
            <DialogDescription>
              {describe(payment)} leaves the suspense queue for good and is recorded as refunded. Send the
              money back through {payment.provider ?? 'the provider'} yourself.
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={generalError(mutation.error)} />
          <FormField id={`${id}-reason`} label="Reason" error={errors.reason}>
            {(control) => (
              <Textarea
                {...control}
                value={reason}
                maxLength={500}
                rows={2}
                placeholder="e.g. Paid to the wrong business number"
                onChange={(event) => {
                  setReason(event.target.value);
                  setErrors(({ reason: _reason, ...rest }) => rest);
                }}
                data-testid="input-refund-reason"
              />
            )}
          </FormField>
          <div className="grid grid-cols-1 gap-1">
            <div className="flex items-start gap-2">
              <input
                id={`${id}-sure`}
                type="checkbox"
                checked={sure}
                onChange={(event) => {
                  setSure(event.target.checked);
                  setErrors(({ sure: _sure, ...rest }) => rest);
                }}
                aria-invalid={!!errors.sure}
                aria-describedby={errors.sure ? `${id}-sure-error` : undefined}
                className="mt-0.5 size-4 accent-destructive"
                data-testid="checkbox-refund-sure"
              />
              <Label htmlFor={`${id}-sure`} className="font-normal leading-snug">
                I have checked that this payment belongs to no contract of ours and{' '}
                {money(payment.amount, payment.currency)} goes back to the payer.
              </Label>
            </div>
            {errors.sure && (
              <p id={`${id}-sure-error`} className="font-medium text-destructive text-xs">
                {errors.sure}
              </p>
            )}
          </div>
          <DialogSubmitFooter
            onCancel={onClose}
            pending={mutation.isPending}
            label="Refund"
            testId="button-confirm-refund"
            destructive
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
