import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { DialogFooter } from '@/web/components/ui/dialog';

/** A dialog form's Cancel and submit buttons; both wait while the request is on its way. */
export function DialogSubmitFooter({
  onCancel,
  pending,
  label,
  testId,
  destructive = false,
}: {
  onCancel: () => void;
  pending: boolean;
  label: string;
  testId: string;
  destructive?: boolean;
}) {
  return (
    <DialogFooter>
      <Button type="button" variant="outline" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button
        type="submit"
        variant={destructive ? 'destructive' : 'default'}
        disabled={pending}
        data-testid={testId}
      >
        {pending && <Spinner className="size-4" />}
        {label}
      </Button>
    </DialogFooter>
  );
}
