import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Eye, EyeOff, KeyRound, PackagePlus } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  type DeviceCreateBody,
  type DeviceDetail,
  type DeviceModel,
  deviceEndpoints,
  imeiIssue,
  SERIAL_MESSAGE,
  SERIAL_PATTERN,
  STARTING_CODE_ZERO,
} from '@/contracts/devices';
import { timeDividerIssue } from '@/domain';
import { FormAlert } from '@/web/components/form-alert';
import { FormInput } from '@/web/components/form-controls';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { CATEGORY_LABELS, CONTROL_LABELS, labelOf } from './format';
import { applyApiErrors } from './server-errors';

export interface UnitFormValues {
  modelId: string;
  serialNumber: string;
  imei: string;
  secretKey: string;
  startingCode: string;
  /** Token values are days × this, as the device's firmware counts time (1: days, 24: hours). */
  timeDivider: string;
  notes: string;
}

const EMPTY: UnitFormValues = {
  modelId: '',
  serialNumber: '',
  imei: '',
  secretKey: '',
  startingCode: '',
  timeDivider: '1',
  notes: '',
};

/** Why a time divider typed in a form cannot be used, or null (the API's rule). */
export function timeDividerFieldIssue(text: string): string | null {
  const value = text.trim();
  return timeDividerIssue(/^\d{1,4}$/.test(value) ? Number(value) : Number.NaN);
}

/** The form's rules: the API's own (serial pattern, IMEI Luhn check, key and code formats). */
export function unitFormSchema(isOpenPaygo: (modelId: string) => boolean) {
  return z
    .object({
      modelId: z.string().min(1, 'Choose a device model'),
      serialNumber: z
        .string()
        .trim()
        .min(1, 'Serial number is required')
        .regex(SERIAL_PATTERN, SERIAL_MESSAGE),
      imei: z
        .string()
        .trim()
        .superRefine((value, context) => {
          const issue = value ? imeiIssue(value) : null;
          if (issue) context.addIssue({ code: 'custom', message: issue });
        }),
      secretKey: z.string().trim(),
      startingCode: z.string().trim(),
      timeDivider: z.string().trim(),
      notes: z.string().trim().max(1000, 'Notes must be at most 1000 characters'),
    })
    .superRefine((values, context) => {
      if (!isOpenPaygo(values.modelId)) return;
      if (!values.secretKey) {
        context.addIssue({
          code: 'custom',
          path: ['secretKey'],
          message: 'OpenPAYGO units need their secret key',
        });
      } else if (!/^[0-9a-fA-F]{32}$/.test(values.secretKey)) {
        context.addIssue({
          code: 'custom',
          path: ['secretKey'],
          message: 'Secret key must be 32 hexadecimal characters (16 bytes)',
        });
      }
      if (values.startingCode && !/^\d{1,9}$/.test(values.startingCode)) {
        context.addIssue({
          code: 'custom',
          path: ['startingCode'],
          message: 'Starting code must be a whole number of at most 9 digits',
        });
      } else if (values.startingCode && Number(values.startingCode) === 0) {
        context.addIssue({ code: 'custom', path: ['startingCode'], message: STARTING_CODE_ZERO });
      }
      const dividerIssue = timeDividerFieldIssue(values.timeDivider);
      if (dividerIssue) context.addIssue({ code: 'custom', path: ['timeDivider'], message: dividerIssue });
    });
}

export function unitBody(values: UnitFormValues, openPaygo: boolean): DeviceCreateBody {
  return {
    modelId: values.modelId,
    serialNumber: values.serialNumber.trim(),
    ...(values.imei.trim() ? { imei: values.imei.trim() } : {}),
    ...(openPaygo
      ? {
          control: {
            kind: 'openpaygo' as const,
            secretKey: values.secretKey.trim(),
            ...(values.startingCode.trim() ? { startingCode: values.startingCode.trim() } : {}),
            timeDivider: Number(values.timeDivider.trim()),
          },
        }
      : {}),
    ...(values.notes.trim() ? { notes: values.notes.trim() } : {}),
  };
}

const ALIASES = {
  modelId: 'modelId',
  serialNumber: 'serialNumber',
  imei: 'imei',
  notes: 'notes',
  control: 'secretKey',
  'control.secretKey': 'secretKey',
  'control.startingCode': 'startingCode',
  'control.timeDivider': 'timeDivider',
} as const;

interface UnitFormProps {
  /** Active models to choose from. */
  models: readonly DeviceModel[];
  onCreated(device: DeviceDetail): void;
  onCancel(): void;
}

/** Receives one unit into stock: model, serial, IMEI and, for OpenPAYGO models, its control settings. */
export function UnitForm({ models, onCreated, onCancel }: UnitFormProps) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const [showKey, setShowKey] = useState(false);
  const modelsRef = useRef(models);
  modelsRef.current = models;
  const resolver = useMemo(
    () =>
      zodResolver(
        unitFormSchema(
          (id) => modelsRef.current.find((model) => model.id === id)?.controlKind === 'openpaygo',
        ),
      ),
    [],
  );
  const form = useForm<UnitFormValues>({ resolver, defaultValues: EMPTY, mode: 'onTouched' });
  const { errors } = form.formState;
  const model = models.find((candidate) => candidate.id === form.watch('modelId'));
  const openPaygo = model?.controlKind === 'openpaygo';

  const create = useMutation({
    mutationFn: (body: DeviceCreateBody) => api(deviceEndpoints.create, { body }),
    onSuccess: (device) => {
      void invalidate(queryClient, 'devicesAdded');
      onCreated(device);
    },
    onError: (error) => setAlert(applyApiErrors(form, error, ALIASES)),
  });

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    create.mutate(unitBody(values, openPaygo));
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid grid-cols-1 gap-4"
      aria-label="Add unit"
      data-testid="form-unit"
    >
      <FormAlert message={alert} />
      <FormField id="unit-model" label="Device model" error={errors.modelId?.message}>
        {(control) => (
          <NativeSelect {...control} data-testid="select-unit-model" {...form.register('modelId')}>
            <option value="">Choose a model…</option>
            {models.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name} · {labelOf(CATEGORY_LABELS, candidate.category)}
                {candidate.sku ? ` · ${candidate.sku}` : ''}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      {model && (
        <p className="-mt-2 text-muted-foreground text-xs" data-testid="text-unit-model-control">
          Control: {labelOf(CONTROL_LABELS, model.controlKind)}
          {openPaygo ? ' — the unit needs its OpenPAYGO secret key.' : ''}
        </p>
      )}
      <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
        <FormInput
          form={form}
          name="serialNumber"
          id="unit-serial"
          label="Serial number"
          autoComplete="off"
          spellCheck={false}
          data-testid="input-unit-serial"
        />
        <FormInput
          form={form}
          name="imei"
          id="unit-imei"
          label="IMEI (phones)"
          hint="15 digits; the last is a check digit."
          inputMode="numeric"
          autoComplete="off"
          maxLength={15}
          spellCheck={false}
          data-testid="input-unit-imei"
        />
      </div>
      {openPaygo && (
        <fieldset
          className="grid grid-cols-1 items-start gap-4 rounded-lg border p-4 sm:grid-cols-[1fr_11rem]"
          data-testid="fieldset-openpaygo"
        >
          <legend className="flex items-center gap-1.5 px-1 font-medium text-sm">
            <KeyRound className="size-4" aria-hidden="true" /> OpenPAYGO settings
          </legend>
          <FormField
            id="unit-secret-key"
            label="Secret key"
            error={errors.secretKey?.message}
            hint="32 hexadecimal characters from the manufacturer. Stored encrypted; it is never shown again."
          >
            {(control) => (
              <div className="flex gap-2">
                <Input
                  {...control}
                  type={showKey ? 'text' : 'password'}
                  autoComplete="off"
                  spellCheck={false}
                  className="font-mono"
                  data-testid="input-unit-secret-key"
                  {...form.register('secretKey')}
                />
                <Button
                  type="button"
                  variant="outline"
                  size="icon"
                  onClick={() => setShowKey((shown) => !shown)}
                  aria-label={showKey ? 'Hide the key' : 'Show the key'}
                  aria-pressed={showKey}
                  data-testid="button-toggle-secret-key"
                >
                  {showKey ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
                </Button>
              </div>
            )}
          </FormField>
          <FormInput
            form={form}
            name="startingCode"
            id="unit-starting-code"
            label="Starting code (optional)"
            hint="Up to 9 digits, not 0; derived from the key when empty."
            inputMode="numeric"
            autoComplete="off"
            maxLength={9}
            data-testid="input-unit-starting-code"
          />
          <FormInput
            form={form}
            name="timeDivider"
            id="unit-time-divider"
            label="Time divider"
            hint="As set in the device: 1 counts days, 24 hours. A token carries days × divider, at most 995."
            inputMode="numeric"
            autoComplete="off"
            maxLength={3}
            data-testid="input-unit-time-divider"
          />
        </fieldset>
      )}
      <FormField id="unit-notes" label="Notes (optional)" error={errors.notes?.message}>
        {(control) => (
          <textarea
            {...control}
            rows={2}
            className="w-full rounded-md border border-input bg-card px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive md:text-sm"
            data-testid="input-unit-notes"
            {...form.register('notes')}
          />
        )}
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onCancel} data-testid="button-cancel-unit">
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending} data-testid="button-save-unit">
          {create.isPending ? <Spinner className="size-4" /> : <PackagePlus aria-hidden="true" />}
          {create.isPending ? 'Adding…' : 'Add to stock'}
        </Button>
      </div>
    </form>
  );
}
