import type { ComponentProps, ReactNode } from 'react';
import {
  type Control,
  Controller,
  type FieldValues,
  type FormState,
  type Path,
  type RegisterOptions,
  type UseFormClearErrors,
  type UseFormGetFieldState,
  type UseFormRegister,
} from 'react-hook-form';
import { FormField } from '@/web/components/form-field';
import { SearchableSelect } from '@/web/components/searchable-select';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { Textarea } from '@/web/components/ui/textarea';

/**
 * The parts of a react-hook-form form a bound field uses. Only input-side types appear here, so a
 * form whose resolver transforms its values (useForm<Input, unknown, Output>) fits as well.
 */
export interface BoundForm<T extends FieldValues> {
  register: UseFormRegister<T>;
  // NoInfer: T is read from register alone; formState's partial types would infer a partial T.
  getFieldState: NoInfer<UseFormGetFieldState<T>>;
  formState: NoInfer<FormState<T>>;
  clearErrors: NoInfer<UseFormClearErrors<T>>;
}

interface BoundFieldProps<T extends FieldValues> {
  form: BoundForm<T>;
  // NoInfer: the form alone decides T, and the name is checked against it.
  name: NoInfer<Path<T>>;
  /** The control's id; the label, hint and error ids derive from it (see FormField). */
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Classes for the field's wrapper (label, control and message), e.g. a grid span. */
  className?: string;
  labelAside?: ReactNode;
  registerOptions?: RegisterOptions<T, Path<T>>;
  /** Forms that show server refusals under fields drop a field's error as soon as it is edited. */
  clearErrorOnChange?: boolean;
}

/** What the control element itself takes: everything but what the binding sets. */
type ControlProps<E extends 'input' | 'select' | 'textarea'> = Omit<
  ComponentProps<E>,
  'id' | 'name' | 'form' | 'className' | 'onChange' | 'onBlur' | 'ref'
> & { controlClassName?: string; 'data-testid'?: string };

/** Registers the field and renders it under its label; `render` draws the control itself. */
function BoundField<T extends FieldValues>({
  form,
  name,
  registerOptions,
  clearErrorOnChange,
  render,
  ...field
}: BoundFieldProps<T> & { render: (wiring: object) => ReactNode }) {
  const options: RegisterOptions<T, Path<T>> | undefined = clearErrorOnChange
    ? { ...registerOptions, onChange: () => form.clearErrors(name) }
    : registerOptions;
  const registration = form.register(name, options);
  const error = form.getFieldState(name, form.formState).error?.message;
  return (
    <FormField {...field} error={error}>
      {(control) => render({ ...control, ...registration })}
    </FormField>
  );
}

const FIELD_KEYS = [
  'form',
  'name',
  'id',
  'label',
  'hint',
  'className',
  'labelAside',
  'registerOptions',
  'clearErrorOnChange',
] as const;

/** Splits a bound control's props into what the field takes and what goes on the element. */
function splitBound<T extends FieldValues, P extends BoundFieldProps<T>>(
  props: P,
): [BoundFieldProps<T>, Omit<P, keyof BoundFieldProps<T>>] {
  const field: Record<string, unknown> = {};
  const control = { ...props } as Record<string, unknown>;
  for (const key of FIELD_KEYS) {
    field[key] = props[key];
    delete control[key];
  }
  return [field as unknown as BoundFieldProps<T>, control as Omit<P, keyof BoundFieldProps<T>>];
}

/** FormInput's props: the binding plus what goes on the input. */
export type FormInputProps<T extends FieldValues> = BoundFieldProps<T> & ControlProps<'input'>;

/** A text input registered with the form, under its label, with its hint or error wired by aria. */
export function FormInput<T extends FieldValues>(props: FormInputProps<T>) {
  const [field, { controlClassName, ...input }] = splitBound<T, typeof props>(props);
  return (
    <BoundField
      {...field}
      render={(wiring) => <Input {...input} className={controlClassName} {...wiring} />}
    />
  );
}

/** A multi-line text box registered with the form, like FormInput. */
export function FormTextarea<T extends FieldValues>(props: BoundFieldProps<T> & ControlProps<'textarea'>) {
  const [field, { controlClassName, ...textarea }] = splitBound<T, typeof props>(props);
  return (
    <BoundField
      {...field}
      render={(wiring) => <Textarea {...textarea} className={controlClassName} {...wiring} />}
    />
  );
}

interface SelectChoices {
  /**
   * The choices, as a label map in its key order (FREQUENCY_LABELS) or as [value, label] pairs;
   * forms list the same maps their pages show, so the option code is written once here.
   */
  options?: Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]>;
  /** A first option with the empty value: "Choose…", "Not given". */
  emptyOption?: string;
}

/** FormSelect's props: the binding, the choices and what goes on the select. */
export type FormSelectProps<T extends FieldValues> = BoundFieldProps<T> &
  ControlProps<'select'> &
  SelectChoices;

/** A native select registered with the form; its options come from `options`, then the children. */
export function FormSelect<T extends FieldValues>(props: FormSelectProps<T>) {
  const [field, { controlClassName, options = [], emptyOption, children, ...select }] = splitBound<
    T,
    typeof props
  >(props);
  const pairs = Array.isArray(options) ? options : Object.entries(options);
  return (
    <BoundField
      {...field}
      render={(wiring) => (
        <NativeSelect {...select} className={controlClassName} {...wiring}>
          {emptyOption !== undefined && <option value="">{emptyOption}</option>}
          {pairs.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
          {children}
        </NativeSelect>
      )}
    />
  );
}

type SearchableProps = Omit<
  ComponentProps<typeof SearchableSelect>,
  'id' | 'value' | 'onChange' | 'onBlur' | 'aria-invalid' | 'aria-describedby'
>;

/**
 * A SearchableSelect (long lists) bound to the form. It is no native control that register could
 * wire, so a Controller hands it the value and takes its changes.
 */
export function FormSearchableSelect<T extends FieldValues>({
  form,
  name,
  id,
  label,
  hint,
  className,
  labelAside,
  ...select
}: Omit<BoundFieldProps<T>, 'form' | 'registerOptions' | 'clearErrorOnChange'> & {
  form: { control: Control<T> };
} & SearchableProps) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <FormField {...{ id, label, hint, className, labelAside }} error={fieldState.error?.message}>
          {(control) => (
            <SearchableSelect
              {...select}
              {...control}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        </FormField>
      )}
    />
  );
}
