import type { FieldValues, Path } from 'react-hook-form';
import { type BoundForm, FormInput } from '@/web/components/form-controls';

/**
 * A person's first and last name side by side, as registration and the profile ask for them.
 * The form must have `firstName` and `lastName` fields (register's variance keeps the type from saying so).
 * `idPrefix` names the ids (`${idPrefix}-first-name`) and `testIdPrefix` the test ids.
 */
export function NameFields<T extends FieldValues>({
  form,
  idPrefix,
  testIdPrefix,
}: {
  form: BoundForm<T>;
  idPrefix: string;
  testIdPrefix: string;
}) {
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <FormInput
        form={form}
        name={'firstName' as Path<T>}
        id={`${idPrefix}-first-name`}
        label="First name"
        autoComplete="given-name"
        data-testid={`${testIdPrefix}-first-name`}
      />
      <FormInput
        form={form}
        name={'lastName' as Path<T>}
        id={`${idPrefix}-last-name`}
        label="Last name"
        autoComplete="family-name"
        data-testid={`${testIdPrefix}-last-name`}
      />
    </div>
  );
}
