import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import {
  BALANCE_TREATMENTS,
  type BalanceTreatment,
  type Components,
  DEVICE_CONDITION_LABELS,
  DEVICE_CONDITIONS,
  type DeviceCondition,
  type Repossession,
  recoveryEndpoints,
  type WriteOff,
} from '@/contracts/recoveries';
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
import { NativeSelect } from '@/web/components/ui/native-select';
import { Textarea } from '@/web/components/ui/textarea';
import { api } from '@/web/lib/api';
import { money, parseMoneyInput } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { BALANCE_LABELS, COMPONENT_PARTS } from './format';

const REASON_MESSAGE = 'Give a reason (at least 3 characters)';

/** The balance by component, as a small table (what a decision is taken on). */
export function ComponentsTable({
  components,
  currency,
  testId,
}: {
  components: Components;
  currency: string;
  testId: string;
}) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 text-sm" data-testid={testId}>
      {COMPONENT_PARTS.map(([part, label]) => (
        <div key={part} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="text-right tabular-nums">{money(components[part], currency)}</dd>
        </div>
      ))}
      <dt className="font-medium">Total</dt>
      <dd className="text-right font-medium tabular-nums" data-testid={`${testId}-total`}>
        {money(components.total, currency)}
      </dd>
    </dl>
  );
}

function ReasonField({
  id,
  label,
  value,
  onChange,
  error,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  testId: string;
}) {
  return (
    <FormField id={id} label={label} error={error}>
      {(control) => (
        <Textarea
          {...control}
          value={value}
          maxLength={500}
          rows={3}
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
        />
      )}
    </FormField>
  );
}

/** A dialog whose form sends one request; a field error from the server shows under its field. */
function useRecoveryMutation<T>(send: () => Promise<T>, onDone: (result: T) => void) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: send,
    onSuccess: (result) => {
      void invalidate(queryClient, 'recoveryChanged');
      onDone(result);
    },
    onError: (failure) => setErrors(fieldErrors(failure)),
  });
  const general =
    mutation.error && Object.keys(fieldErrors(mutation.error)).length === 0
      ? errorMessage(mutation.error)
      : null;
  return { mutation, errors, setErrors, general };
}

function RecoveryDialog({
  testId,
  title,
  description,
  general,
  onClose,
  pending,
  onSubmit,
  label,
  destructive,
  children,
}: {
  testId: string;
  title: ReactNode;
  description: ReactNode;
  general: string | null;
  onClose: () => void;
  pending: boolean;
  onSubmit: () => void;
  label: string;
  destructive?: boolean;
  children?: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent role="alertdialog" data-testid={testId}>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <FormAlert message={general} />
          {children}
          <DialogSubmitFooter
            onCancel={onClose}
            pending={pending}
            label={label}
            testId={`button-confirm-${testId.replace(/^dialog-/, '')}`}
            destructive={destructive ?? false}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Asks for a repossession or a write-off of a contract, with a reason; a second person decides. */
export function RecoveryRequestDialog({
  kind,
  contract,
  outstanding,
  onClose,
  onDone,
}: {
  kind: 'repossession' | 'write-off';
  contract: { id: string; number: string; currency: string };
  outstanding: Components;
  onClose: () => void;
  onDone: () => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const { mutation, errors, setErrors, general } = useRecoveryMutation<Repossession | WriteOff>(
    () =>
      kind === 'repossession'
        ? api(recoveryEndpoints.requestRepossession, {
            params: { id: contract.id },
            body: { reason: reason.trim() },
          })
        : api(recoveryEndpoints.requestWriteOff, {
            params: { id: contract.id },
            body: { reason: reason.trim() },
          }),
    onDone,
  );
  return (
    <RecoveryDialog
      testId={`dialog-request-${kind}`}
      title={
        kind === 'repossession'
          ? `Request repossession of ${contract.number}'s device`
          : `Request a write-off of ${contract.number}`
      }
      description={
        kind === 'repossession'
          ? 'Nothing moves yet: a manager other than you must approve it before the device is collected.'
          : 'Nothing moves yet: a manager other than you must approve it; the balance then comes off the books.'
      }
      general={general}
      onClose={onClose}
      pending={mutation.isPending}
      label={kind === 'repossession' ? 'Request repossession' : 'Request write-off'}
      destructive
      onSubmit={() => {
        const next: Record<string, string> = reason.trim().length < 3 ? { reason: REASON_MESSAGE } : {};
        setErrors(next);
        if (!Object.keys(next).length) mutation.mutate();
      }}
    >
      <div className="grid grid-cols-1 gap-1">
        <p className="font-medium text-sm">Outstanding now</p>
        <ComponentsTable
          components={outstanding}
          currency={contract.currency}
          testId="table-request-outstanding"
        />
      </div>
      <ReasonField
        id={`${id}-reason`}
        label="Reason"
        value={reason}
        onChange={setReason}
        error={errors.reason}
        testId={`input-${kind}-reason`}
      />
    </RecoveryDialog>
  );
}

/**
 * Approves (with an optional note) or rejects (with a reason) a repossession or write-off. The
 * server refuses whoever asked for it (403 MAKER_CHECKER); the dialog says so before they try.
 */
export function RecoveryDecisionDialog({
  decision,
  request,
  maker,
  onClose,
  onDone,
}: {
  decision: 'approve' | 'reject';
  request: { kind: 'repossession'; item: Repossession } | { kind: 'write-off'; item: WriteOff };
  maker: boolean;
  onClose: () => void;
  onDone: (result: Repossession | WriteOff) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const params = { id: request.item.id };
  const { mutation, errors, setErrors, general } = useRecoveryMutation<Repossession | WriteOff>(() => {
    const value = text.trim();
    if (request.kind === 'repossession') {
      return decision === 'approve'
        ? api(recoveryEndpoints.approveRepossession, { params, body: value ? { note: value } : {} })
        : api(recoveryEndpoints.rejectRepossession, { params, body: { reason: value } });
    }
    return decision === 'approve'
      ? api(recoveryEndpoints.approveWriteOff, { params, body: value ? { note: value } : {} })
      : api(recoveryEndpoints.rejectWriteOff, { params, body: { reason: value } });
  }, onDone);
  const item = request.item;
  const what =
    request.kind === 'repossession'
      ? `the repossession of ${item.contractNumber}'s device`
      : `the write-off of ${item.contractNumber}`;
  const outstanding =
    request.kind === 'repossession' ? request.item.outstandingAtRequest : request.item.outstanding;
  return (
    <RecoveryDialog
      testId={`dialog-${decision}-${request.kind}`}
      title={`${decision === 'approve' ? 'Approve' : 'Reject'} ${what}?`}
      description={
        maker
          ? 'You asked for this: a second person has to decide it, so the server will refuse.'
          : `Asked by ${item.requestedBy?.name ?? 'someone'}: “${item.reason}”. ${
              decision === 'approve'
                ? request.kind === 'repossession'
                  ? 'The device may then be collected and its recovery recorded.'
                  : 'The contract closes as written off and its balance on the books goes to credit losses.'
                : 'Nothing changes on the contract.'
            }`
      }
      general={general}
      onClose={onClose}
      pending={mutation.isPending}
      label={decision === 'approve' ? 'Approve' : 'Reject'}
      destructive={decision === 'approve' && request.kind === 'write-off'}
      onSubmit={() => {
        const next: Record<string, string> =
          decision === 'reject' && text.trim().length < 3 ? { reason: REASON_MESSAGE } : {};
        setErrors(next);
        if (!Object.keys(next).length) mutation.mutate();
      }}
    >
      <div className="grid grid-cols-1 gap-1">
        <p className="font-medium text-sm">
          {request.kind === 'write-off'
            ? 'Outstanding when asked (recomputed at approval)'
            : 'Outstanding when asked'}
        </p>
        <ComponentsTable
          components={outstanding}
          currency={item.currency}
          testId="table-decision-outstanding"
        />
      </div>
      {decision === 'approve' ? (
        <FormField id={`${id}-note`} label="Note (optional)" error={errors.note}>
          {(control) => (
            <Textarea
              {...control}
              value={text}
              maxLength={500}
              rows={2}
              onChange={(event) => setText(event.target.value)}
              data-testid="input-decision-note"
            />
          )}
        </FormField>
      ) : (
        <ReasonField
          id={`${id}-reason`}
          label="Reason"
          value={text}
          onChange={setText}
          error={errors.reason}
          testId="input-decision-reason"
        />
      )}
    </RecoveryDialog>
  );
}

/** Cancels a repossession not yet recovered, with a reason. */
export function CancelRepossessionDialog({
  repossession,
  onClose,
  onDone,
}: {
  repossession: Repossession;
  onClose: () => void;
  onDone: (result: Repossession) => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const { mutation, errors, setErrors, general } = useRecoveryMutation(
    () =>
      api(recoveryEndpoints.cancelRepossession, {
        params: { id: repossession.id },
        body: { reason: reason.trim() },
      }),
    onDone,
  );
  return (
    <RecoveryDialog
      testId="dialog-cancel-repossession"
      title={`Cancel the repossession of ${repossession.contractNumber}'s device?`}
      description="The contract and its device stay as they are."
      general={general}
      onClose={onClose}
      pending={mutation.isPending}
      label="Cancel repossession"
      destructive
      onSubmit={() => {
        const next: Record<string, string> = reason.trim().length < 3 ? { reason: REASON_MESSAGE } : {};
        setErrors(next);
        if (!Object.keys(next).length) mutation.mutate();
      }}
    >
      <ReasonField
        id={`${id}-reason`}
        label="Reason"
        value={reason}
        onChange={setReason}
        error={errors.reason}
        testId="input-cancel-reason"
      />
    </RecoveryDialog>
  );
}

/**
 * Records an approved repossession's recovery: the device's condition (and notes), what it is
 * worth back in stock, and what happens to the rest of the balance. Confirmed in the dialog: the
 * contract closes, the unit returns to inventory and the ledger is posted.
 */
export function RecoverDialog({
  repossession,
  onClose,
  onDone,
}: {
  repossession: Repossession;
  onClose: () => void;
  onDone: (result: Repossession) => void;
}) {
  const id = useId();
  const [condition, setCondition] = useState<DeviceCondition | ''>('');
  const [notes, setNotes] = useState('');
  const [value, setValue] = useState('');
  const [balance, setBalance] = useState<BalanceTreatment | ''>('');
  const [confirmed, setConfirmed] = useState(false);
  const currency = repossession.currency;
  const parsed = parseMoneyInput(value, currency, 'Recovery value');
  const { mutation, errors, setErrors, general } = useRecoveryMutation(
    () =>
      api(recoveryEndpoints.recoverRepossession, {
        params: { id: repossession.id },
        body: {
          condition: condition as DeviceCondition,
          ...(notes.trim() ? { conditionNotes: notes.trim() } : {}),
          recoveryValue: 'value' in parsed ? parsed.value : 0,
          balance: balance as BalanceTreatment,
        },
      }),
    onDone,
  );
  const check = () => {
    const next: Record<string, string> = {};
    if (!condition) next.condition = 'Choose the condition the device came back in';
    if ('empty' in parsed) next.recoveryValue = 'Enter what the device is worth back in stock (0 if nothing)';
    else if ('error' in parsed) next.recoveryValue = parsed.error;
    if (!balance) next.balance = 'Choose what happens to the rest of the balance';
    if (notes.length > 1000) next.conditionNotes = 'Keep the notes under 1,000 characters';
    setErrors(next);
    return Object.keys(next).length === 0;
  };
  return (
    <RecoveryDialog
      testId="dialog-recover"
      title={`Record the recovery of ${repossession.deviceSerial}`}
      description={
        confirmed
          ? `${repossession.contractNumber} closes as repossessed; the device returns to stock as returned, valued ${
              'value' in parsed ? money(parsed.value, currency) : '—'
            }; ${balance === 'write_off' ? 'the rest of the balance is written off' : 'the rest of the balance stays owed'}. This cannot be undone.`
          : 'The device is back: say how it came back and what it is worth. You confirm on the next step.'
      }
      general={general}
      onClose={onClose}
      pending={mutation.isPending}
      label={confirmed ? 'Confirm recovery' : 'Continue'}
      destructive={confirmed}
      onSubmit={() => {
        if (!check()) return setConfirmed(false);
        if (!confirmed) return setConfirmed(true);
        mutation.mutate();
      }}
    >
      <fieldset disabled={confirmed || mutation.isPending} className="grid grid-cols-1 gap-4">
        <FormField id={`${id}-condition`} label="Condition" error={errors.condition}>
          {(control) => (
            <NativeSelect
              {...control}
              value={condition}
              onChange={(event) => setCondition(event.target.value as DeviceCondition | '')}
              data-testid="select-recover-condition"
            >
              <option value="">Choose…</option>
              {DEVICE_CONDITIONS.map((c) => (
                <option key={c} value={c}>
                  {DEVICE_CONDITION_LABELS[c]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        <FormField id={`${id}-notes`} label="Condition notes (optional)" error={errors.conditionNotes}>
          {(control) => (
            <Textarea
              {...control}
              value={notes}
              maxLength={1000}
              rows={2}
              onChange={(event) => setNotes(event.target.value)}
              data-testid="input-recover-notes"
            />
          )}
        </FormField>
        <AmountField
          id={`${id}-value`}
          label="Recovery value"
          currency={currency}
          value={value}
          onChange={setValue}
          error={errors.recoveryValue}
          hint="What the device is worth back in stock; it comes off the balance."
          testId="input-recover-value"
        />
        <FormField id={`${id}-balance`} label="The rest of the balance" error={errors.balance}>
          {(control) => (
            <NativeSelect
              {...control}
              value={balance}
              onChange={(event) => setBalance(event.target.value as BalanceTreatment | '')}
              data-testid="select-recover-balance"
            >
              <option value="">Choose…</option>
              {BALANCE_TREATMENTS.map((b) => (
                <option key={b} value={b}>
                  {BALANCE_LABELS[b]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      </fieldset>
    </RecoveryDialog>
  );
}
