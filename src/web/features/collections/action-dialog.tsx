import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import {
  type ActionBody,
  COLLECTION_ACTION_KINDS,
  COLLECTION_ACTION_LABELS,
  CONTACT_OUTCOME_LABELS,
  CONTACT_OUTCOMES,
  type CollectionActionKind,
  type ContactOutcome,
  collectionEndpoints,
  PROMISE_MAX_DAYS,
} from '@/contracts/collections';
import { addDays } from '@/domain';
import { AmountField } from '@/web/components/amount-field';
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
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { Textarea } from '@/web/components/ui/textarea';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { parseMoneyInput } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';

export interface ActionTarget {
  contractId: string;
  contractNumber: string;
  customerName: string;
  currency: string;
  /** What is overdue: the promise amount's suggestion. */
  amountOverdue: number;
}

/** Kinds that ask for the outcome of the contact. */
const WITH_OUTCOME: readonly CollectionActionKind[] = ['call', 'visit', 'message'];

/**
 * Logs an action on a case: a call or visit with its outcome, a message, a promise to pay (date
 * and amount), a dispute or an escalation (with its reason). Each field says what is wrong with
 * it, here and as the server answers.
 */
export function LogActionDialog({
  target,
  businessDate,
  onClose,
}: {
  target: ActionTarget;
  businessDate: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [kind, setKind] = useState<CollectionActionKind>('call');
  const [outcome, setOutcome] = useState<ContactOutcome | ''>('');
  const [note, setNote] = useState('');
  const [promiseDate, setPromiseDate] = useState(addDays(businessDate, 1));
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const latest = addDays(businessDate, PROMISE_MAX_DAYS);

  const mutation = useMutation({
    mutationFn: (body: ActionBody) =>
      api(collectionEndpoints.logAction, { params: { id: target.contractId }, body }),
    onSuccess: (action) => {
      void invalidate(queryClient, 'collectionsChanged');
      toast({ title: `${COLLECTION_ACTION_LABELS[action.kind]} logged on ${target.contractNumber}` });
      onClose();
    },
    onError: (failure) => setErrors(fieldErrors(failure)),
  });

  const clear = (field: string) =>
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => key !== field)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    let promiseAmount: number | undefined;
    if ((kind === 'call' || kind === 'visit') && !outcome) next.outcome = 'Choose the outcome';
    if (kind === 'promise') {
      if (!promiseDate) next.promiseDate = 'Give the date promised';
      else if (promiseDate < businessDate)
        next.promiseDate = `The date must be today (${formatBusinessDate(businessDate)}) or later`;
      else if (promiseDate > latest) next.promiseDate = `The date must be by ${formatBusinessDate(latest)}`;
      const parsed = parseMoneyInput(amount, target.currency, 'The amount');
      if ('empty' in parsed) next.promiseAmount = 'Give the amount promised';
      else if ('error' in parsed) next.promiseAmount = parsed.error;
      else if (parsed.value <= 0) next.promiseAmount = 'The amount must be more than 0';
      else promiseAmount = parsed.value;
    }
    if (kind.startsWith('escalate_') && note.trim().length < 3)
      next.note = 'Give a reason (at least 3 characters)';
    setErrors(next);
    if (Object.keys(next).length) return;
    mutation.mutate({
      kind,
      ...(WITH_OUTCOME.includes(kind) && outcome ? { outcome } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
      ...(kind === 'promise' ? { promiseDate, promiseAmount } : {}),
    });
  };

  const general = mutation.error && Object.keys(fieldErrors(mutation.error)).length === 0;
  return (
    <Dialog open onOpenChange={(open) => !open && !mutation.isPending && onClose()}>
      <DialogContent data-testid="dialog-log-action" className="sm:max-w-lg">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>Log an action on {target.contractNumber}</DialogTitle>
            <DialogDescription>
              {target.customerName}. The action goes on the contract’s and the customer’s timelines.
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={general ? errorMessage(mutation.error) : null} />
          <FormField id={`${id}-kind`} label="Action" error={errors.kind}>
            {(control) => (
              <NativeSelect
                {...control}
                value={kind}
                onChange={(event) => {
                  setKind(event.target.value as CollectionActionKind);
                  setErrors({});
                }}
                data-testid="select-action-kind"
              >
                {COLLECTION_ACTION_KINDS.map((value) => (
                  <option key={value} value={value}>
                    {COLLECTION_ACTION_LABELS[value]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          {WITH_OUTCOME.includes(kind) && (
            <FormField id={`${id}-outcome`} label="Outcome" error={errors.outcome}>
              {(control) => (
                <NativeSelect
                  {...control}
                  value={outcome}
                  onChange={(event) => {
                    setOutcome(event.target.value as ContactOutcome);
                    clear('outcome');
                  }}
                  data-testid="select-action-outcome"
                >
                  <option value="">Choose…</option>
                  {CONTACT_OUTCOMES.map((value) => (
                    <option key={value} value={value}>
                      {CONTACT_OUTCOME_LABELS[value]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
          )}
          {kind === 'promise' && (
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <FormField
                id={`${id}-date`}
                label="Date promised"
                error={errors.promiseDate}
                hint={`From today to ${latest}`}
              >
                {(control) => (
                  <Input
                    {...control}
                    type="date"
                    min={businessDate}
                    max={latest}
                    value={promiseDate}
                    onChange={(event) => {
                      setPromiseDate(event.target.value);
                      clear('promiseDate');
                    }}
                    data-testid="input-promise-date"
                  />
                )}
              </FormField>
              <AmountField
                id={`${id}-amount`}
                currency={target.currency}
                value={amount}
                onChange={(text) => {
                  setAmount(text);
                  clear('promiseAmount');
                }}
                error={errors.promiseAmount}
                testId="input-promise-amount"
              />
            </div>
          )}
          <FormField
            id={`${id}-note`}
            label={kind.startsWith('escalate_') ? 'Reason' : 'Note'}
            error={errors.note}
            hint={kind === 'escalate_lock' ? 'A lock command is queued for the device at once.' : undefined}
          >
            {(control) => (
              <Textarea
                {...control}
                value={note}
                rows={3}
                maxLength={1000}
                onChange={(event) => {
                  setNote(event.target.value);
                  clear('note');
                }}
                data-testid="input-action-note"
              />
            )}
          </FormField>
          <DialogSubmitFooter
            onCancel={onClose}
            pending={mutation.isPending}
            label="Log action"
            testId="button-submit-action"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
