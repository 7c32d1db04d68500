import type { ReactNode } from 'react';
import type { FieldValues, Path } from 'react-hook-form';
import { type BoundForm, FormInput } from '@/web/components/form-controls';
import { NameFields } from '@/web/components/name-fields';

interface AccountFieldsProps<T extends FieldValues> {
  form: BoundForm<T>;
  /** As NameFields: ids `${idPrefix}-email`, test ids `${testIdPrefix}-email`. */
  idPrefix: string;
  testIdPrefix: string;
  /** The address field's label and hint; read-only where an invitation fixes the address. */
  email: { label: string; hint?: ReactNode; readOnly?: boolean };
}

/**
 * A person's name and the address they sign in with, as registration and the profile ask for
 * them. The form must have `firstName`, `lastName` and `email` fields.
 */
export function AccountFields<T extends FieldValues>({
  form,
  idPrefix,
  testIdPrefix,
  email,
}: AccountFieldsProps<T>) {
  return (
    <>
      <NameFields form={form} idPrefix={idPrefix} testIdPrefix={testIdPrefix} />
      <FormInput
        form={form}
        name={'email' as Path<T>}
        id={`${idPrefix}-email`}
        label={email.label}
        hint={email.hint}
        type="email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        readOnly={email.readOnly}
        data-testid={`${testIdPrefix}-email`}
      />
    </>
  );
}
