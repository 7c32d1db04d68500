import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowRightLeft } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import {
  type DeviceDetail,
  type DeviceStatus,
  type DeviceStatusBody,
  deviceEndpoints,
} from '@/contracts/devices';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { NativeSelect } from '@/web/components/ui/native-select';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { STATUS_HINTS, STATUS_LABELS } from './format';

/** Why no manual change is offered, by status. */
const LOCKED_REASONS: Partial<Record<DeviceStatus, string>> = {
  assigned: 'An assigned unit is released only through its contract (pay-off, return or repossession).',
  written_off: 'A written-off unit is final; its status cannot change.',
};

/** Moves a unit to one of the statuses staff may set by hand, with the reason for the history. */
export function StatusChangeForm({ device }: { device: DeviceDetail }) {
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<DeviceStatus | ''>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ status?: string; reason?: string }>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const change = useMutation({
    mutationFn: (body: DeviceStatusBody) =>
      api(deviceEndpoints.changeStatus, { params: { id: device.id }, body }),
    onSuccess: (updated) => {
      setConfirming(false);
      queryClient.setQueryData(queryKeys.devices.detail(updated.id), updated);
      void invalidate(queryClient, 'deviceChanged');
      setTarget('');
      setReason('');
      toast({
        title: 'Status changed',
        description: `${updated.serialNumber} is now ${STATUS_LABELS[updated.status].toLowerCase()}.`,
      });
    },
    onError: (error) => {
      setConfirming(false);
      const fields = fieldErrors(error);
      setErrors({ status: fields.status, reason: fields.reason });
      setAlert(fields.status || fields.reason ? null : errorMessage(error));
    },
  });

  if (device.allowedTransitions.length === 0) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="text-status-locked">
        {LOCKED_REASONS[device.status] ??
          'This unit is held by a contract; the contract’s own actions move it.'}
      </p>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    const next: typeof errors = {};
    if (!target) next.status = 'Choose the new status';
    if (reason.trim().length < 3) next.reason = 'Give the reason for the change';
    else if (reason.trim().length > 500) next.reason = 'Reason must be at most 500 characters';
    setErrors(next);
    if (!target || next.reason) return;
    if (target === 'written_off') setConfirming(true);
    else change.mutate({ status: target, reason: reason.trim() });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid grid-cols-1 gap-3"
      aria-label="Change status"
      data-testid="form-status"
    >
      <FormAlert message={alert} />
      <FormField
        id="status-target"
        label="New status"
        error={errors.status}
        hint={target ? STATUS_HINTS[target] : undefined}
      >
        {(control) => (
          <NativeSelect
            {...control}
            value={target}
            onChange={(event) => {
              setTarget(event.target.value as DeviceStatus | '');
              setErrors((current) => ({ ...current, status: undefined }));
            }}
            data-testid="select-status-target"
          >
            <option value="">Choose…</option>
            {device.allowedTransitions.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <FormField id="status-reason" label="Reason" error={errors.reason} hint="Kept in the status history.">
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={reason}
            maxLength={500}
            onChange={(event) => {
              setReason(event.target.value);
              setErrors((current) => ({ ...current, reason: undefined }));
            }}
            className="w-full rounded-md border border-input bg-card px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive md:text-sm"
            data-testid="input-status-reason"
          />
        )}
      </FormField>
      <div>
        <Button type="submit" disabled={change.isPending} data-testid="button-change-status">
          {change.isPending ? <Spinner className="size-4" /> : <ArrowRightLeft aria-hidden="true" />}
          Change status
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Write off ${device.serialNumber}?`}
        description="A written-off unit leaves the inventory for good: its status can never change again."
        confirmLabel="Write off"
        destructive
        pending={change.isPending}
        onConfirm={() => target && change.mutate({ status: target, reason: reason.trim() })}
      />
    </form>
  );
}
