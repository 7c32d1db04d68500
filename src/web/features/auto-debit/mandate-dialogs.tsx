import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { autoDebitEndpoints, type Mandate } from '@/contracts/auto-debit';
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
import { Textarea } from '@/web/components/ui/textarea';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';

/** Pause (with a reason) or resume (confirmed) a mandate; `mandate` null closes the dialog. */
export function MandateToggleDialog({ mandate, onClose }: { mandate: Mandate | null; onClose: () => void }) {
  if (!mandate) return null;
  return mandate.active ? (
    <PauseDialog mandate={mandate} onClose={onClose} />
  ) : (
    <ResumeDialog mandate={mandate} onClose={onClose} />
  );
}

function useToggle(mandate: Mandate, onClose: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string | null) =>
      reason === null
        ? api(autoDebitEndpoints.resumeMandate, { params: { id: mandate.id } })
        : api(autoDebitEndpoints.pauseMandate, { params: { id: mandate.id }, body: { reason } }),
    onSuccess: (after) => {
      void invalidate(queryClient, 'mandateChanged', after.contractId);
      toast({
        title: after.active
          ? `Auto-debit resumed on ${after.contractNumber}`
          : `Auto-debit paused on ${after.contractNumber}`,
      });
      onClose();
    },
  });
}

function PauseDialog({ mandate, onClose }: { mandate: Mandate; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  const mutation = useToggle(mandate, onClose);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().length < 3) {
      setError('Give a reason (at least 3 characters)');
      return;
    }
    setError(undefined);
    mutation.mutate(reason.trim(), { onError: (failure) => setError(fieldErrors(failure).reason) });
  };
  const general = mutation.error && !fieldErrors(mutation.error).reason ? errorMessage(mutation.error) : null;
  return (
    <Dialog open onOpenChange={(next) => !next && !mutation.isPending && onClose()}>
      <DialogContent data-testid="dialog-pause-mandate">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>Pause auto-debit on {mandate.contractNumber}?</DialogTitle>
            <DialogDescription>
              No debit is attempted while it is paused; attempts already scheduled wait until it is resumed.
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={general} />
          <FormField id={`${id}-reason`} label="Reason" error={error}>
            {(control) => (
              <Textarea
                {...control}
                value={reason}
                maxLength={500}
                rows={3}
                onChange={(event) => setReason(event.target.value)}
                data-testid="input-pause-reason"
              />
            )}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={mutation.isPending}>
              Keep it active
            </Button>
            <Button type="submit" disabled={mutation.isPending} data-testid="button-confirm-pause">
              {mutation.isPending && <Spinner className="size-4" />}
              Pause auto-debit
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function ResumeDialog({ mandate, onClose }: { mandate: Mandate; onClose: () => void }) {
  const mutation = useToggle(mandate, onClose);
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => !next && onClose()}
      title={`Resume auto-debit on ${mandate.contractNumber}?`}
      description={
        <>
          Due instalments are debited again from the next run
          {mandate.pausedReason ? ` (it was paused: ${mandate.pausedReason})` : ''}.
          {mutation.error ? (
            <span role="alert" className="mt-2 block text-destructive">
              {errorMessage(mutation.error)}
            </span>
          ) : null}
        </>
      }
      confirmLabel="Resume auto-debit"
      pending={mutation.isPending}
      onConfirm={() => mutation.mutate(null)}
    />
  );
}
