import { useMutation } from '@tanstack/react-query';
import { Ban, CheckCheck, CircleDollarSign, Power, Send, Undo2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import type { User } from '@/contracts/auth';
import {
  type Activation,
  type Contract,
  contractEndpoints,
  DEPOSIT_CHANNELS,
  type DepositChannel,
} from '@/contracts/contracts';
import { can } from '@/contracts/roles';
import { toMajorString } from '@/domain';
import { AmountField } from '@/web/components/amount-field';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
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
import { money, parseMoneyInput } from '@/web/lib/money';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { type ContractAction, contractActions, DEPOSIT_CHANNEL_LABELS, isMaker } from './contract-rules';

interface ContractActionsProps {
  contract: Contract;
  user: User;
  /** The contract as the server answered after an action. */
  onChanged: (contract: Contract, token?: Activation['token']) => void;
  /** A refusal to show on the page (maker-checker, activation conditions, a state changed meanwhile). */
  onRefused: (message: string | null) => void;
}

const LABELS: Record<ContractAction, string> = {
  submit: 'Submit for approval',
  approve: 'Approve',
  return: 'Return with reason',
  deposit: 'Record deposit',
  activate: 'Activate',
  cancel: 'Cancel contract',
};

const ICONS: Record<ContractAction, ReactNode> = {
  submit: <Send aria-hidden="true" />,
  approve: <CheckCheck aria-hidden="true" />,
  return: <Undo2 aria-hidden="true" />,
  deposit: <CircleDollarSign aria-hidden="true" />,
  activate: <Power aria-hidden="true" />,
  cancel: <Ban aria-hidden="true" />,
};

const PRIMARY: ReadonlySet<ContractAction> = new Set(['submit', 'approve', 'activate']);

/** A fresh key per deposit dialog: a retry after a lost answer never posts the deposit twice. */
function newIdempotencyKey(): string {
  return globalThis.crypto?.randomUUID?.() ?? `deposit-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/**
 * The contract's actions for its status and the person's permissions, each behind a confirmation
 * (a reason for Return and Cancel; amount, channel and reference for the deposit).
 */
export function ContractActions({ contract, user, onChanged, onRefused }: ContractActionsProps) {
  const [open, setOpen] = useState<ContractAction | null>(null);
  const actions = contractActions(contract, user);
  const params = { id: contract.id };

  const simple = useMutation({
    mutationFn: async (action: 'submit' | 'approve' | 'activate'): Promise<Activation> => {
      if (action === 'activate') return api(contractEndpoints.activate, { params });
      return { contract: await api(contractEndpoints[action], { params }), token: null };
    },
    onSuccess: (result, action) => {
      setOpen(null);
      onRefused(null);
      onChanged(result.contract, result.token);
      toast({
        title:
          action === 'submit'
            ? `${result.contract.number} submitted for approval`
            : action === 'approve'
              ? `${result.contract.number} approved`
              : `${result.contract.number} is active`,
        description:
          action === 'activate'
            ? result.token
              ? 'Give the customer the first unlock token shown on the page.'
              : 'The device is assigned and the schedule has started.'
            : undefined,
      });
    },
    onError: (error) => {
      setOpen(null);
      onRefused(errorMessage(error));
    },
  });

  if (actions.length === 0) return null;
  const maker = isMaker(contract, user.id);
  const missing = contract.deposit - contract.depositReceived;

  return (
    <>
      <div className="flex flex-wrap gap-2" data-testid="group-contract-actions">
        {actions.map((action) => (
          <Button
            key={action}
            variant={PRIMARY.has(action) ? 'default' : action === 'cancel' ? 'ghost' : 'outline'}
            onClick={() => setOpen(action)}
            data-testid={`button-${action}`}
          >
            {ICONS[action]}
            {LABELS[action]}
          </Button>
        ))}
      </div>

      <ConfirmDialog
        open={open === 'submit'}
        onOpenChange={(next) => !next && setOpen(null)}
        title={`Submit ${contract.number} for approval?`}
        description="A second person with approval rights will be asked to approve it. Until then it cannot be activated."
        confirmLabel="Submit for approval"
        pending={simple.isPending}
        onConfirm={() => simple.mutate('submit')}
      />
      <ConfirmDialog
        open={open === 'approve'}
        onOpenChange={(next) => !next && setOpen(null)}
        title={`Approve ${contract.number}?`}
        description={
          maker
            ? 'You created or submitted this contract: the approval has to come from another person, so the server will refuse it.'
            : `You confirm the terms: ${money(contract.principal, contract.currency)} financed over ${contract.term} ${contract.frequency} instalments of ${money(contract.regularPayment, contract.currency)}.`
        }
        confirmLabel="Approve"
        pending={simple.isPending}
        onConfirm={() => simple.mutate('approve')}
      />
      <ConfirmDialog
        open={open === 'activate'}
        onOpenChange={(next) => !next && setOpen(null)}
        title={`Activate ${contract.number}?`}
        description={
          contract.activationBlockers.length ? (
            <>Activation will be refused until these are done: {contract.activationBlockers.join('; ')}.</>
          ) : (
            'The device is handed over, the schedule starts today, the sale is posted to the ledger and the customer is welcomed.'
          )
        }
        confirmLabel="Activate"
        pending={simple.isPending}
        onConfirm={() => simple.mutate('activate')}
      />
      <ReasonDialog
        open={open === 'return'}
        onClose={() => setOpen(null)}
        title={`Return ${contract.number} to draft?`}
        description="The maker sees your reason on the contract’s timeline and in a notification."
        confirmLabel="Return to draft"
        contractId={contract.id}
        action="return"
        testId="return"
        onDone={(updated) => {
          setOpen(null);
          onRefused(null);
          onChanged(updated);
          toast({ title: `${updated.number} returned to draft` });
        }}
      />
      <ReasonDialog
        open={open === 'cancel'}
        onClose={() => setOpen(null)}
        title={`Cancel ${contract.number}?`}
        description={
          contract.depositReceived > 0
            ? `The device returns to stock. The deposit received (${money(contract.depositReceived, contract.currency)}) is held as customer credit to refund or reuse. This cannot be undone.`
            : 'The device returns to stock. This cannot be undone.'
        }
        confirmLabel="Cancel contract"
        destructive
        contractId={contract.id}
        action="cancel"
        testId="cancel"
        onDone={(updated) => {
          setOpen(null);
          onRefused(null);
          onChanged(updated);
          toast({ title: `${updated.number} cancelled` });
        }}
      />
      {open === 'deposit' && (
        <DepositDialog
          contract={contract}
          missing={missing}
          channels={can(user, 'payments.manage') ? DEPOSIT_CHANNELS : ['cash']}
          onClose={() => setOpen(null)}
          onDone={(updated) => {
            setOpen(null);
            onRefused(null);
            onChanged(updated);
            toast({
              title: 'Deposit recorded',
              description:
                updated.depositReceived >= updated.deposit
                  ? 'The deposit is fully received.'
                  : `${money(updated.deposit - updated.depositReceived, updated.currency)} of the deposit is still to come.`,
            });
          }}
        />
      )}
    </>
  );
}

function ReasonDialog({
  open,
  onClose,
  title,
  description,
  confirmLabel,
  destructive = false,
  contractId,
  action,
  testId,
  onDone,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  confirmLabel: string;
  destructive?: boolean;
  contractId: string;
  /** The call made with the reason. */
  action: 'return' | 'cancel';
  testId: string;
  onDone: (contract: Contract) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  const mutation = useMutation({
    mutationFn: () =>
      api(contractEndpoints[action], { params: { id: contractId }, body: { reason: reason.trim() } }),
    onSuccess: (contract) => {
      setReason('');
      onDone(contract);
    },
    onError: (failure) => setError(fieldErrors(failure).reason ?? undefined),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().length < 3) {
      setError('Give a reason (at least 3 characters)');
      return;
    }
    setError(undefined);
    mutation.mutate();
  };
  const general = mutation.error && !fieldErrors(mutation.error).reason ? errorMessage(mutation.error) : null;
  const close = () => {
    if (mutation.isPending) return;
    mutation.reset();
    setError(undefined);
    onClose();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent data-testid={`dialog-${testId}`}>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <FormAlert message={general} />
          <FormField id={`${id}-reason`} label="Reason" error={error}>
            {(control) => (
              <textarea
                {...control}
                value={reason}
                maxLength={500}
                rows={3}
                onChange={(event) => setReason(event.target.value)}
                className="min-h-20 w-full rounded-md border border-input bg-card px-3 py-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive"
                data-testid={`input-${testId}-reason`}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close} disabled={mutation.isPending}>
              Keep it
            </Button>
            <Button
              type="submit"
              variant={destructive ? 'destructive' : 'default'}
              disabled={mutation.isPending}
              data-testid={`button-confirm-${testId}`}
            >
              {mutation.isPending && <Spinner className="size-4" />}
              {confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function DepositDialog({
  contract,
  missing,
  channels,
  onClose,
  onDone,
}: {
  contract: Contract;
  missing: number;
  /** What the user's role may take: cash for an agent, every channel for finance (PRODUCT.md §1). */
  channels: readonly DepositChannel[];
  onClose: () => void;
  onDone: (contract: Contract) => void;
}) {
  const { currency } = contract;
  const [amount, setAmount] = useState(() => (missing > 0 ? toMajorString(missing, currency) : ''));
  const [channel, setChannel] = useState<DepositChannel>('cash');
  const [reference, setReference] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [key] = useState(newIdempotencyKey);
  const id = useId();
  const mutation = useMutation({
    mutationFn: (minor: number) =>
      api(contractEndpoints.deposit, {
        params: { id: contract.id },
        headers: { 'idempotency-key': key },
        body: {
          amount: minor,
          channel,
          ...(reference.trim() ? { reference: reference.trim() } : {}),
        },
      }),
    onSuccess: onDone,
    onError: (failure) => setErrors(fieldErrors(failure)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseMoneyInput(amount, currency, 'Amount');
    if ('empty' in parsed) return setErrors({ amount: 'Enter the amount received' });
    if ('error' in parsed) return setErrors({ amount: parsed.error });
    if (parsed.value <= 0) return setErrors({ amount: 'The amount must be more than 0' });
    if (parsed.value > missing)
      return setErrors({ amount: `At most ${money(missing, currency)} of the deposit is still to come` });
    if (channel !== 'cash' && !reference.trim())
      return setErrors({
        reference: 'Enter the transaction reference, so it can be matched to the statement',
      });
    setErrors({});
    mutation.mutate(parsed.value);
  };
  const general =
    mutation.error && Object.keys(fieldErrors(mutation.error)).length === 0
      ? errorMessage(mutation.error)
      : null;
  return (
    <Dialog open onOpenChange={(next) => !next && !mutation.isPending && onClose()}>
      <DialogContent data-testid="dialog-deposit">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>Record the deposit for {contract.number}</DialogTitle>
            <DialogDescription>
              Deposit {money(contract.deposit, currency)}; received so far{' '}
              {money(contract.depositReceived, currency)}. A receipt is issued and the cash is posted to the
              ledger.
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={general} />
          <AmountField
            id={`${id}-amount`}
            currency={currency}
            value={amount}
            onChange={setAmount}
            error={errors.amount}
            testId="input-deposit-amount"
          />
          <FormField id={`${id}-channel`} label="Received by" error={errors.channel}>
            {(control) => (
              <select
                {...control}
                value={channel}
                onChange={(event) => setChannel(event.target.value as DepositChannel)}
                className="h-9 w-full rounded-md border border-input bg-card px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40"
                data-testid="select-deposit-channel"
              >
                {channels.map((value) => (
                  <option key={value} value={value}>
                    {DEPOSIT_CHANNEL_LABELS[value] ?? value}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField
            id={`${id}-reference`}
            label={channel === 'cash' ? 'Reference (optional)' : 'Transaction reference'}
            error={errors.reference}
            hint="The same reference twice records the deposit once."
          >
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                maxLength={100}
                value={reference}
                onChange={(event) => setReference(event.target.value)}
                data-testid="input-deposit-reference"
              />
            )}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending} data-testid="button-confirm-deposit">
              {mutation.isPending && <Spinner className="size-4" />}
              Record deposit
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
