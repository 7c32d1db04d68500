import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { type DeviceDetail, type DeviceUpdateBody, deviceEndpoints, imeiIssue } from '@/contracts/devices';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { applyApiErrors, sameNames } from './server-errors';
import { timeDividerFieldIssue } from './unit-form';

interface Values {
  imei: string;
  notes: string;
  timeDivider: string;
}

/** Corrects a unit's IMEI or notes (the serial number and model are fixed once received). */
export function UnitEditForm({ device, onDone }: { device: DeviceDetail; onDone(): void }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<Values>({
    defaultValues: {
      imei: device.imei ?? '',
      notes: device.notes ?? '',
      timeDivider: String(device.control?.timeDivider ?? 1),
    },
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  const save = useMutation({
    mutationFn: (body: DeviceUpdateBody) => api(deviceEndpoints.update, { params: { id: device.id }, body }),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.devices.detail(updated.id), updated);
      void invalidate(queryClient, 'deviceChanged');
      onDone();
    },
    onError: (error) =>
      setAlert(applyApiErrors(form, error, sameNames<Values>(['imei', 'notes', 'timeDivider']))),
  });

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    const imei = values.imei.trim();
    const notes = values.notes.trim();
    const body: DeviceUpdateBody = {};
    if (imei !== (device.imei ?? '')) body.imei = imei || null;
    if (notes !== (device.notes ?? '')) body.notes = notes || null;
    const divider = Number(values.timeDivider.trim());
    if (device.control && divider !== device.control.timeDivider) body.timeDivider = divider;
    if (body.imei === undefined && body.notes === undefined && body.timeDivider === undefined)
      return onDone();
    save.mutate(body);
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid grid-cols-1 gap-4"
      aria-label="Edit unit"
      data-testid="form-unit-edit"
    >
      <FormAlert message={alert} />
      <FormField id="edit-imei" label="IMEI" error={errors.imei?.message} hint="15 digits; empty to remove.">
        {(control) => (
          <Input
            {...control}
            inputMode="numeric"
            maxLength={15}
            autoComplete="off"
            data-testid="input-edit-imei"
            {...form.register('imei', {
              validate: (value) => (value.trim() ? (imeiIssue(value.trim()) ?? true) : true),
            })}
          />
        )}
      </FormField>
      {device.control && (
        <FormField
          id="edit-time-divider"
          label="Time divider"
          error={errors.timeDivider?.message}
          hint="Match the device's firmware: 1 counts days, 24 hours. Tokens already issued keep theirs."
        >
          {(control) => (
            <Input
              {...control}
              inputMode="numeric"
              maxLength={3}
              autoComplete="off"
              data-testid="input-edit-time-divider"
              {...form.register('timeDivider', {
                validate: (value) => timeDividerFieldIssue(value) ?? true,
              })}
            />
          )}
        </FormField>
      )}
      <FormField id="edit-notes" label="Notes" error={errors.notes?.message}>
        {(control) => (
          <textarea
            {...control}
            rows={3}
            className="w-full rounded-md border border-input bg-card px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive md:text-sm"
            data-testid="input-edit-notes"
            {...form.register('notes', {
              maxLength: { value: 1000, message: 'Notes must be at most 1000 characters' },
            })}
          />
        )}
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending} data-testid="button-save-unit-edit">
          {save.isPending ? <Spinner className="size-4" /> : <Save aria-hidden="true" />}
          Save
        </Button>
      </div>
    </form>
  );
}
