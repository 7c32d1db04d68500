import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  type DeviceModel,
  type DeviceModelCreateBody,
  type DeviceModelUpdateBody,
  deviceModelEndpoints,
} from '@/contracts/devices';
import { FormActions } from '@/web/components/form-actions';
import { FormAlert } from '@/web/components/form-alert';
import { FormInput, FormSelect } from '@/web/components/form-controls';
import { api } from '@/web/lib/api';
import { moneyInputText } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { CATEGORY_LABELS, CONTROL_LABELS } from './format';
import { parseMajor } from './money';
import { applyApiErrors } from './server-errors';

export interface ModelFormValues {
  make: string;
  model: string;
  category: string;
  sku: string;
  retailPrice: string;
  costPrice: string;
  controlKind: string;
}

const ALIASES = {
  make: 'make',
  model: 'model',
  category: 'category',
  sku: 'sku',
  retailPrice: 'retailPrice',
  costPrice: 'costPrice',
  controlKind: 'controlKind',
} as const;

const CONTROL_HINTS: Record<string, string> = {
  openpaygo: 'Each unit gets a secret key; the lender issues time tokens (solar kits).',
  lock_api: 'Locked and unlocked through the lock service (smartphones).',
  none: 'Not controlled remotely.',
};

function valuesOf(model: DeviceModel | null): ModelFormValues {
  return {
    make: model?.make ?? '',
    model: model?.model ?? '',
    category: model?.category ?? '',
    sku: model?.sku ?? '',
    retailPrice: model ? moneyInputText(model.retailPrice, model.currency) : '',
    costPrice: model ? moneyInputText(model.costPrice, model.currency) : '',
    controlKind: model?.controlKind ?? '',
  };
}

type ModelBody = DeviceModelCreateBody;

/** Checks the fields and builds the API body, or sets the messages and returns null. */
export function modelBody(
  values: ModelFormValues,
  currency: string,
  setError: (field: keyof ModelFormValues, message: string) => void,
): ModelBody | null {
  let ok = true;
  const fail = (field: keyof ModelFormValues, message: string) => {
    setError(field, message);
    ok = false;
  };
  const make = values.make.trim();
  const model = values.model.trim();
  if (!make) fail('make', 'Make is required');
  else if (make.length > 100) fail('make', 'Make must be at most 100 characters');
  if (!model) fail('model', 'Model is required');
  else if (model.length > 100) fail('model', 'Model must be at most 100 characters');
  if (!values.category) fail('category', 'Choose a category');
  if (!values.controlKind) fail('controlKind', 'Choose how the device is controlled');
  if (values.sku.trim().length > 64) fail('sku', 'SKU must be at most 64 characters');
  const retail = parseMajor(values.retailPrice, currency, 'Retail price');
  if (retail.error) fail('retailPrice', retail.error);
  else if (retail.value === null) fail('retailPrice', 'Retail price is required');
  const cost = parseMajor(values.costPrice, currency, 'Cost price');
  if (cost.error) fail('costPrice', cost.error);
  if (!ok) return null;
  return {
    make,
    model,
    category: values.category as ModelBody['category'],
    controlKind: values.controlKind as ModelBody['controlKind'],
    retailPrice: retail.value ?? 0,
    costPrice: cost.value ?? null,
    sku: values.sku.trim() || null,
  };
}

interface ModelFormProps {
  /** The model to edit; null creates one. */
  model: DeviceModel | null;
  currency: string;
  onSaved(model: DeviceModel): void;
  onCancel(): void;
}

/** Creates or edits a device model: every field, messages per field from the form and the server. */
export function ModelForm({ model, currency, onSaved, onCancel }: ModelFormProps) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<ModelFormValues>({ defaultValues: valuesOf(model) });
  const units = model?.units ?? 0;

  const save = useMutation({
    mutationFn: (body: ModelBody) =>
      model
        ? api(deviceModelEndpoints.update, { params: { id: model.id }, body: changedFields(model, body) })
        : api(deviceModelEndpoints.create, { body }),
    onSuccess: (saved) => {
      void invalidate(queryClient, 'deviceModelSaved');
      onSaved(saved);
    },
    onError: (error) => setAlert(applyApiErrors(form, error, ALIASES)),
  });

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    // A disabled select (a model with units) may leave its value out.
    const complete = { ...values, controlKind: values.controlKind || (model?.controlKind ?? '') };
    const body = modelBody(complete, model?.currency ?? currency, (field, message) =>
      form.setError(field, { type: 'validate', message }),
    );
    if (!body) return;
    if (model && Object.keys(changedFields(model, body)).length === 0) {
      setAlert('Nothing changed.');
      return;
    }
    save.mutate(body);
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid grid-cols-1 gap-4"
      aria-label={model ? 'Edit device model' : 'New device model'}
      data-testid="form-model"
    >
      <FormAlert message={alert} />
      <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
        <FormInput
          form={form}
          name="make"
          clearErrorOnChange
          id="model-make"
          label="Make"
          autoComplete="off"
          data-testid="input-model-make"
        />
        <FormInput
          form={form}
          name="model"
          clearErrorOnChange
          id="model-model"
          label="Model"
          autoComplete="off"
          data-testid="input-model-model"
        />
        <FormSelect
          form={form}
          name="category"
          clearErrorOnChange
          id="model-category"
          label="Category"
          emptyOption="Choose…"
          options={CATEGORY_LABELS}
          data-testid="select-model-category"
        />
        <FormInput
          form={form}
          name="sku"
          clearErrorOnChange
          id="model-sku"
          label="SKU (optional)"
          autoComplete="off"
          spellCheck={false}
          data-testid="input-model-sku"
        />
        <FormInput
          form={form}
          name="retailPrice"
          clearErrorOnChange
          id="model-retail-price"
          label={`Retail price (${model?.currency ?? currency})`}
          hint="The cash price; plans finance it."
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          data-testid="input-model-retail-price"
        />
        <FormInput
          form={form}
          name="costPrice"
          clearErrorOnChange
          id="model-cost-price"
          label={`Cost price (${model?.currency ?? currency}, optional)`}
          hint="What the lender pays for a unit."
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          data-testid="input-model-cost-price"
        />
        <FormSelect
          form={form}
          name="controlKind"
          clearErrorOnChange
          id="model-control"
          label="Control"
          className="sm:col-span-2"
          hint={
            units > 0
              ? `${units} ${units === 1 ? 'unit uses' : 'units use'} this model, so its control cannot change.`
              : (CONTROL_HINTS[form.watch('controlKind')] ??
                'How the lender keeps control of a financed unit.')
          }
          disabled={units > 0}
          emptyOption="Choose…"
          options={CONTROL_LABELS}
          data-testid="select-model-control"
        />
      </div>
      <FormActions
        testName="model"
        onCancel={onCancel}
        pending={save.isPending}
        submitLabel={model ? 'Save changes' : 'Create model'}
      />
    </form>
  );
}

/** Only what changed, so an edit never trips over a field it did not touch. */
function changedFields(model: DeviceModel, body: ModelBody): DeviceModelUpdateBody {
  const change: DeviceModelUpdateBody = {};
  if (body.make !== model.make) change.make = body.make;
  if (body.model !== model.model) change.model = body.model;
  if (body.category !== model.category) change.category = body.category;
  if ((body.sku ?? null) !== model.sku) change.sku = body.sku ?? null;
  if (body.retailPrice !== model.retailPrice) change.retailPrice = body.retailPrice;
  if ((body.costPrice ?? null) !== model.costPrice) change.costPrice = body.costPrice ?? null;
  if (body.controlKind !== model.controlKind) change.controlKind = body.controlKind;
  return change;
}
