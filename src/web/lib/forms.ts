import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';

/**
 * Puts a server refusal onto a form: field errors the form knows go under their fields; anything
 * else (or a refusal without field errors) is returned as the text for the form's alert region.
 */
export function applyServerError<T extends FieldValues>(
  form: UseFormReturn<T>,
  error: unknown,
  knownFields: ReadonlyArray<Path<T>>,
): string | null {
  const fields = fieldErrors(error);
  const unknownMessages: string[] = [];
  let mapped = 0;
  for (const [field, message] of Object.entries(fields)) {
    const known = knownFields.find((name) => name === field);
    if (known) {
      form.setError(known, { type: 'server', message }, { shouldFocus: mapped === 0 });
      mapped += 1;
    } else {
      unknownMessages.push(message);
    }
  }
  if (unknownMessages.length > 0) return unknownMessages.join(' ');
  return mapped > 0 ? null : errorMessage(error);
}

/** The hint under every field that sets a new password (registration, change of password). */
export const NEW_PASSWORD_HINT = 'At least 10 characters. A short phrase is easier to remember than symbols.';
