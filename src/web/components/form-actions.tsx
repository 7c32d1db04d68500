import { Save } from 'lucide-react';
import type { ReactNode } from 'react';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';

interface FormActionsProps {
  /** Names the test ids: `button-cancel-${testName}` and `button-save-${testName}`. */
  testName: string;
  onCancel: () => void;
  /** The save is under way: the submit button is disabled and shows a spinner. */
  pending: boolean;
  submitLabel: ReactNode;
  /** The submit button's icon when not pending. */
  icon?: ReactNode;
}

/** Cancel and submit at the foot of a create/edit form, submit last (first on phones, above Cancel). */
export function FormActions({
  testName,
  onCancel,
  pending,
  submitLabel,
  icon = <Save aria-hidden="true" />,
}: FormActionsProps) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button type="button" variant="outline" onClick={onCancel} data-testid={`button-cancel-${testName}`}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending} data-testid={`button-save-${testName}`}>
        {pending ? <Spinner className="size-4" /> : icon}
        {submitLabel}
      </Button>
    </div>
  );
}
