import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { Correction, Payment } from '@/contracts/payments';
import { paymentEndpoints } from '@/contracts/payments';
import { DialogSubmitFooter } from '@/web/components/dialog-submit-footer';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { Textarea } from '@/web/components/ui/textarea';
import { api } from '@/web/lib/api';
import { money } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { ContractPicker } from './contract-picker';

/**
 * Asks for a reversal or a transfer of a posted payment. Nothing moves yet: the request waits in
 * the Reversals tab for a second finance user (maker-checker).
 */
export function CorrectionRequestDialog({
  kind,
  payment,
  onClose,
  onDone,
}: {
  kind: 'reverse' | 'transfer';
  payment: Payment;
  onClose: () => void;
  onDone: (correction: Correction) => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [reason, setReason] = useState('');
  const [target, setTarget] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: () =>
      kind === 'reverse'
        ? api(paymentEndpoints.reverse, { params: { id: payment.id }, body: { reason: reason.trim() } })
        : api(paymentEndpoints.transfer, {
            params: { id: payment.id },
            body: { contractId: target, reason: reason.trim() },
          }),
    onSuccess: (correction) => {
      void invalidate(queryClient, 'paymentsChanged');
      onDone(correction);
    },
    onError: (failure) => setErrors(fieldErrors(failure)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (kind === 'transfer' && !target) next.contractId = 'Choose the contract to transfer to';
    if (reason.trim().length < 3) next.reason = 'Give a reason (at least 3 characters)';
    setErrors(next);
    if (Object.keys(next).length === 0) mutation.mutate();
  };
  const general =
    mutation.error && Object.keys(fieldErrors(mutation.error)).length === 0
      ? errorMessage(mutation.error)
      : null;
  const amount = money(payment.amount, payment.currency);
  return (
    <Dialog open onOpenChange={(open) => !open && !mutation.isPending && onClose()}>
      <DialogContent data-testid={`dialog-${kind}`}>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>
              {kind === 'reverse'
                ? `Request the reversal of ${payment.receiptNumber}`
                : `Transfer ${payment.receiptNumber} to another contract`}
            </DialogTitle>
            <DialogDescription>
              {kind === 'reverse'
                ? `${amount} comes off ${payment.contractNumber ?? 'the contract'} and its later payments are allocated again.`
                : `${amount} is reversed on ${payment.contractNumber ?? 'this contract'} and posted to the contract you choose.`}{' '}
              Another finance user must approve it before anything changes.
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={general} />
          {kind === 'transfer' && (
            <FormField id={`${id}-target`} label="Transfer to contract" error={errors.contractId}>
              {(control) => (
                <ContractPicker
                  control={control}
                  value={target}
                  onChange={setTarget}
                  exclude={payment.contractId ?? undefined}
                  testId="select-transfer-contract"
                />
              )}
            </FormField>
          )}
          <FormField id={`${id}-reason`} label="Reason" error={errors.reason}>
            {(control) => (
              <Textarea
                {...control}
                value={reason}
                maxLength={500}
                rows={3}
                onChange={(event) => setReason(event.target.value)}
                data-testid={`input-${kind}-reason`}
              />
            )}
          </FormField>
          <DialogSubmitFooter
            onCancel={onClose}
            pending={mutation.isPending}
            label={kind === 'reverse' ? 'Request reversal' : 'Request transfer'}
            testId={`button-confirm-${kind}`}
            destructive={kind === 'reverse'}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Approves or rejects a requested correction, with an optional note. The server refuses the
 * person who asked for it (403 MAKER_CHECKER); its message is shown here.
 */
export function DecisionDialog({
  decision,
  correction,
  maker,
  onClose,
  onDone,
}: {
  decision: 'approve' | 'reject';
  correction: Correction;
  /** The person deciding asked for it: the server will refuse. */
  maker: boolean;
  onClose: () => void;
  onDone: (correction: Correction) => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [note, setNote] = useState('');
  const mutation = useMutation({
    mutationFn: () =>
      api(decision === 'approve' ? paymentEndpoints.approveCorrection : paymentEndpoints.rejectCorrection, {
        params: { id: correction.id },
        body: note.trim() ? { note: note.trim() } : {},
      }),
    onSuccess: (decided) => {
      void invalidate(queryClient, 'paymentsChanged');
      onDone(decided);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  const p = correction.payment;
  const what =
    correction.kind === 'reverse'
      ? `the reversal of ${p.receiptNumber} (${money(p.amount, p.currency)} on ${p.contractNumber ?? '—'})`
      : `the transfer of ${p.receiptNumber} (${money(p.amount, p.currency)}) from ${p.contractNumber ?? '—'} to ${correction.targetContractNumber ?? '—'}`;
  return (
    <Dialog open onOpenChange={(open) => !open && !mutation.isPending && onClose()}>
      <DialogContent role="alertdialog" data-testid={`dialog-${decision}`}>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>
              {decision === 'approve' ? 'Approve' : 'Reject'} {what}?
            </DialogTitle>
            <DialogDescription>
              {maker
                ? 'You asked for this correction: a second finance user has to decide it, so the server will refuse.'
                : decision === 'approve'
                  ? `Reason given by ${correction.requestedByName ?? 'the requester'}: “${correction.reason}”. The payment's allocation is undone and later payments are allocated again.`
                  : `Nothing changes on the payment; ${correction.requestedByName ?? 'the requester'} sees your note.`}
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={mutation.error ? errorMessage(mutation.error) : null} />
          <FormField id={`${id}-note`} label="Note (optional)">
            {(control) => (
              <Textarea
                {...control}
                value={note}
                maxLength={500}
                rows={2}
                onChange={(event) => setNote(event.target.value)}
                data-testid="input-decision-note"
              />
            )}
          </FormField>
          <DialogSubmitFooter
            onCancel={onClose}
            pending={mutation.isPending}
            label={decision === 'approve' ? 'Approve' : 'Reject'}
            testId={`button-confirm-${decision}`}
            destructive={decision !== 'approve'}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
