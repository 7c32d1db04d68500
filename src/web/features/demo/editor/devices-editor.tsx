import { Plus } from 'lucide-react';
import {
  DEMO_CATEGORY_LABELS,
  DEMO_DEVICE_CATEGORIES,
  DEMO_LIMITS,
  type DemoDeviceCategory,
} from '@/contracts/demo';
import { AmountField } from '@/web/components/amount-field';
import { FormField } from '@/web/components/form-field';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { Textarea } from '@/web/components/ui/textarea';
import { blankDevice, type DeviceForm, type FieldErrors, moved } from './form-model';
import { ImageField } from './image-field';
import { ItemControls } from './item-controls';

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
  const update = (index: number, change: Partial<DeviceForm>) =>
    onChange(devices.map((device, at) => (at === index ? { ...device, ...change } : device)));
  return (
    <div className="grid grid-cols-1 gap-4">
      {errors.devices && <p className="font-medium text-destructive text-sm">{errors.devices}</p>}
      <ol className="grid grid-cols-1 gap-4">
        {devices.map((device, index) => {
          const id = `device-${index}`;
          const error = (field: string) => errors[`devices.${index}.${field}`];
          return (
            <li
              key={device.id}
              className="grid grid-cols-1 gap-3 rounded-xl border p-4"
              data-testid={`editor-device-${index}`}
            >
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-medium text-sm">
                  Device {index + 1}
                  {device.name && <span className="text-muted-foreground">: {device.name}</span>}
                </h3>
                <ItemControls
                  label={device.name || `device ${index + 1}`}
                  index={index}
                  count={devices.length}
                  minimum={1}
                  onMove={(to) => onChange(moved(devices, index, to))}
                  onRemove={() => onChange(devices.filter((_, at) => at !== index))}
                  testId={id}
                />
              </div>
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                <FormField id={`${id}-name`} label="Name" error={error('name') ?? error('id')}>
                  {(control) => (
                    <Input
                      {...control}
                      value={device.name}
                      onChange={(event) => update(index, { name: event.target.value })}
                      data-testid={`input-${id}-name`}
                    />
                  )}
                </FormField>
                <FormField id={`${id}-category`} label="Category" error={error('category')}>
                  {(control) => (
                    <NativeSelect
                      {...control}
                      value={device.category}
                      onChange={(event) =>
                        update(index, { category: event.target.value as DemoDeviceCategory })
                      }
                      data-testid={`select-${id}-category`}
                    >
                      {DEMO_DEVICE_CATEGORIES.map((category) => (
                        <option key={category} value={category}>
                          {DEMO_CATEGORY_LABELS[category]}
                        </option>
                      ))}
                    </NativeSelect>
                  )}
                </FormField>
                <AmountField
                  id={`${id}-price`}
                  label="Cash price"
                  currency={currency}
                  value={device.price}
                  onChange={(price) => update(index, { price })}
                  error={error('price')}
                  testId={`input-${id}-price`}
                />
                <ImageField
                  label="Picture"
                  imageId={device.imageId}
                  onChange={(imageId) => update(index, { imageId })}
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
                    onChange={(event) => update(index, { description: event.target.value })}
                    data-testid={`input-${id}-description`}
                  />
                )}
              </FormField>
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          type="button"
          variant="outline"
          disabled={devices.length >= DEMO_LIMITS.devices}
          onClick={() => onChange([...devices, blankDevice()])}
          data-testid="button-add-device"
        >
          <Plus aria-hidden="true" />
          Add a device
        </Button>
      </div>
    </div>
  );
}
