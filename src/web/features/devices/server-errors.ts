import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';

/**
 * Puts a server refusal onto a form whose field names differ from the API's (money entered in
 * major units, nested `control.secretKey`...): `aliases` maps API field names to form fields.
 * Messages for fields the form does not show are returned for the alert region, as is a refusal
 * with no field messages at all (a 409 or 422).
 */
export function applyApiErrors<T extends FieldValues>(
  form: UseFormReturn<T>,
  error: unknown,
  aliases: Readonly<Record<string, Path<T>>>,
): string | null {
  const others: string[] = [];
  let mapped = 0;
  for (const [field, message] of Object.entries(fieldErrors(error))) {
    const target = aliases[field];
    if (target) {
      form.setError(target, { type: 'server', message }, { shouldFocus: mapped === 0 });
      mapped += 1;
    } else {
      others.push(field && field !== '(root)' && !message.includes(field) ? `${field}: ${message}` : message);
    }
  }
  if (others.length) return others.join(' ');
  return mapped ? null : errorMessage(error);
}

/** Identity aliases for forms whose names match the API's. */
export function sameNames<T extends FieldValues>(names: ReadonlyArray<Path<T>>): Record<string, Path<T>> {
  return Object.fromEntries(names.map((name) => [name, name]));
}
