import { DEMO_CATEGORY_LABELS, DEMO_DEVICE_CATEGORIES, DEMO_LIMITS } from '@/contracts/demo';
import { AmountField } from '@/web/components/amount-field';
import { FormField } from '@/web/components/form-field';
import { Textarea } from '@/web/components/ui/textarea';
import { blankDevice, type DeviceForm, type FieldErrors } from './form-model';
import { ImageField } from './image-field';
import { ChoiceField, ListEditor, NameField } from './list-editor';

/** The demo's devices: add, remove, reorder, and each one's name, category, price, picture and text. */
export function DevicesEditor({
  devices,
  currency,
  errors,
  onChange,
}: {
  devices: DeviceForm[];
  currency: string;
  errors: FieldErrors;
  onChange: (devices: DeviceForm[]) => void;
}) {
  return (
    <ListEditor
      noun="device"
      items={devices}
      max={DEMO_LIMITS.devices}
      blank={blankDevice}
      errors={errors}
      onChange={onChange}
    >
      {(device, fields) => {
        const { id, error, update } = fields;
        return (
          <>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              <NameField item={device} fields={fields} />
              <ChoiceField
                item={device}
                fields={fields}
                field="category"
                label="Category"
                options={DEMO_DEVICE_CATEGORIES.map(
                  (category) => [category, DEMO_CATEGORY_LABELS[category]] as const,
                )}
              />
              <AmountField
                id={`${id}-price`}
                label="Cash price"
                currency={currency}
                value={device.price}
                onChange={(price) => update({ price })}
                error={error('price')}
                testId={`input-${id}-price`}
              />
              <ImageField
                label="Picture"
                imageId={device.imageId}
                onChange={(imageId) => update({ imageId })}
                error={error('imageId')}
                testId={`${id}-image`}
              />
            </div>
            <FormField id={`${id}-description`} label="Short description" error={error('description')}>
              {(control) => (
                <Textarea
                  {...control}
                  rows={2}
                  value={device.description}
                  onChange={(event) => update({ description: event.target.value })}
                  data-testid={`input-${id}-description`}
                />
              )}
            </FormField>
          </>
        );
      }}
    </ListEditor>
  );
}
