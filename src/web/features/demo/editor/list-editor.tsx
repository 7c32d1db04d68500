import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { FormField } from '@/web/components/form-field';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { type FieldErrors, moved } from './form-model';
import { ItemControls } from './item-controls';

interface Item {
  id: string;
  name: string;
}

/** What one item's fields need: its ids' prefix, its messages and a change to it. */
export interface ItemFields<T> {
  /** `device-0`: the prefix of the item's field ids and test ids. */
  id: string;
  error: (field: string) => string | undefined;
  update: (change: Partial<T>) => void;
}

/**
 * A list the editor changes (the devices, the plans): each item numbered under its name, moved up
 * or down, removed (never the last one), and a new blank one added up to `max`. The messages are
 * keyed `devices.0.name`, as `fromForm` and the server name them.
 */
export function ListEditor<T extends Item>({
  noun,
  items,
  max,
  blank,
  errors,
  onChange,
  children,
}: {
  noun: 'device' | 'plan';
  items: T[];
  max: number;
  blank: () => T;
  errors: FieldErrors;
  onChange: (items: T[]) => void;
  /** The item's fields, under its heading. */
  children: (item: T, fields: ItemFields<T>) => ReactNode;
}) {
  const key = `${noun}s`;
  const heading = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`;
  return (
    <div className="grid grid-cols-1 gap-4">
      {errors[key] && <p className="font-medium text-destructive text-sm">{errors[key]}</p>}
      <ol className="grid grid-cols-1 gap-4">
        {items.map((item, index) => {
          const id = `${noun}-${index}`;
          return (
            <li
              key={item.id}
              className="grid grid-cols-1 gap-3 rounded-xl border p-4"
              data-testid={`editor-${noun}-${index}`}
            >
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-medium text-sm">
                  {heading} {index + 1}
                  {item.name && <span className="text-muted-foreground">: {item.name}</span>}
                </h3>
                <ItemControls
                  label={item.name || `${noun} ${index + 1}`}
                  index={index}
                  count={items.length}
                  minimum={1}
                  onMove={(to) => onChange(moved(items, index, to))}
                  onRemove={() => onChange(items.filter((_, at) => at !== index))}
                  testId={id}
                />
              </div>
              {children(item, {
                id,
                error: (field) => errors[`${key}.${index}.${field}`],
                update: (change) =>
                  onChange(items.map((other, at) => (at === index ? { ...other, ...change } : other))),
              })}
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          type="button"
          variant="outline"
          disabled={items.length >= max}
          onClick={() => onChange([...items, blank()])}
          data-testid={`button-add-${noun}`}
        >
          <Plus aria-hidden="true" />
          Add a {noun}
        </Button>
      </div>
    </div>
  );
}

/** An item's name; a message about its id (one made from the name) shows here too. */
export function NameField<T extends Item>({ item, fields }: { item: T; fields: ItemFields<T> }) {
  const { id, error, update } = fields;
  return (
    <FormField id={`${id}-name`} label="Name" error={error('name') ?? error('id')}>
      {(control) => (
        <Input
          {...control}
          value={item.name}
          onChange={(event) => update({ name: event.target.value } as Partial<T>)}
          data-testid={`input-${id}-name`}
        />
      )}
    </FormField>
  );
}

/**
 * One of an item's fixed choices: `field` is what it changes and its message's key; `name` ends
 * its id and test id (the field's own name unless given).
 */
export function ChoiceField<T extends Item, K extends keyof T & string>({
  item,
  fields,
  field,
  name = field,
  label,
  options,
}: {
  item: T;
  fields: ItemFields<T>;
  field: K;
  name?: string;
  label: string;
  options: ReadonlyArray<readonly [value: string, label: string]>;
}) {
  const { id, error, update } = fields;
  return (
    <FormField id={`${id}-${name}`} label={label} error={error(field)}>
      {(control) => (
        <NativeSelect
          {...control}
          value={String(item[field])}
          onChange={(event) => update({ [field]: event.target.value } as Partial<T>)}
          data-testid={`select-${id}-${name}`}
        >
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </NativeSelect>
      )}
    </FormField>
  );
}
