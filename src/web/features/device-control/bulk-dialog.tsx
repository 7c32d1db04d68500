import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  type BulkCommandResult,
  deviceControlEndpoints,
  MIN_REASON_LENGTH,
} from '@/contracts/device-control';
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
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';

export interface BulkTarget {
  kind: 'lock' | 'unlock';
  units: ReadonlyArray<{ id: string; serialNumber: string }>;
}

/** The answer in words: how many were queued and why the others were left out. */
export function bulkSummary(kind: 'lock' | 'unlock', result: BulkCommandResult): string {
  const queued = `${result.queued} ${result.queued === 1 ? 'unit' : 'units'} queued to ${kind}`;
  if (!result.skipped.length) return `${queued}.`;
  const skipped = result.skipped.map((s) => `${s.serialNumber ?? s.deviceId}: ${s.reason}`).join('; ');
  return `${queued}; ${result.skipped.length} left out (${skipped}).`;
}

/**
 * Bulk lock or unlock: names the units, asks for the reason (recorded in the audit trail and on
 * each command) and a confirmation before anything is queued.
 */
export function BulkDialog({
  target,
  onClose,
  onDone,
}: {
  target: BulkTarget | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (body: { kind: 'lock' | 'unlock'; deviceIds: string[]; reason: string }) =>
      api(deviceControlEndpoints.bulk, { body }),
    onSuccess: (result, body) => {
      void invalidate(client, 'deviceCommandsQueued');
      toast({
        title: body.kind === 'lock' ? 'Locks queued' : 'Unlocks queued',
        description: bulkSummary(body.kind, result),
      });
      setReason('');
      onDone();
    },
    onError: (failure) => {
      const fields = fieldErrors(failure);
      setError(fields.reason ?? null);
      setAlert(fields.reason ? null : errorMessage(failure));
    },
  });
  if (!target) return null;
  const count = target.units.length;
  const noun = `${count} ${count === 1 ? 'unit' : 'units'}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (reason.trim().length < MIN_REASON_LENGTH) {
      setError('Give the reason');
      return;
    }
    mutation.mutate({
      kind: target.kind,
      deviceIds: target.units.map((unit) => unit.id),
      reason: reason.trim(),
    });
  };
  return (
    <Dialog open onOpenChange={(open) => !open && !mutation.isPending && onClose()}>
      <DialogContent role="alertdialog" data-testid="dialog-bulk">
        <DialogHeader>
          <DialogTitle>
            {target.kind === 'lock' ? 'Lock' : 'Unlock'} {noun}?
          </DialogTitle>
          <DialogDescription>
            {target.kind === 'lock'
              ? 'Each phone is locked by its provider until an unlock follows. Units that cannot take a lock are left out and listed.'
              : 'Each phone is unlocked by its provider. Units already unlocked are left out and listed.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4" aria-label="Bulk action">
          <FormAlert message={alert} />
          <p className="max-h-24 overflow-auto font-mono text-xs" data-testid="text-bulk-units">
            {target.units.map((unit) => unit.serialNumber).join(', ')}
          </p>
          <FormField
            id="bulk-reason"
            label="Reason"
            error={error ?? undefined}
            hint="Recorded on each command and in the audit trail."
          >
            {(control) => (
              <Textarea
                {...control}
                value={reason}
                maxLength={500}
                onChange={(event) => {
                  setReason(event.target.value);
                  setError(null);
                }}
                data-testid="input-bulk-reason"
              />
            )}
          </FormField>
          <DialogSubmitFooter
            onCancel={onClose}
            pending={mutation.isPending}
            label={`${target.kind === 'lock' ? 'Lock' : 'Unlock'} ${noun}`}
            destructive={target.kind === 'lock'}
            testId="button-confirm-bulk"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
