import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { Button } from '@/web/components/ui/button';

/** Move up, move down and remove, for one item of a list the editor reorders. */
export function ItemControls({
  label,
  index,
  count,
  minimum,
  onMove,
  onRemove,
  testId,
}: {
  /** The item as people call it ("Smartphone A15"), for the buttons' accessible names. */
  label: string;
  index: number;
  count: number;
  minimum: number;
  onMove: (to: number) => void;
  onRemove: () => void;
  testId: string;
}) {
  return (
    <div className="flex items-center gap-1">
      <Button
        type="button"
        variant="ghost"
        size="icon"
        disabled={index === 0}
        onClick={() => onMove(index - 1)}
        aria-label={`Move ${label} up`}
        data-testid={`button-up-${testId}`}
      >
        <ArrowUp aria-hidden="true" />
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
        aria-label={`Move ${label} down`}
        data-testid={`button-down-${testId}`}
      >
        <ArrowDown aria-hidden="true" />
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        disabled={count <= minimum}
        onClick={onRemove}
        aria-label={`Remove ${label}`}
        data-testid={`button-remove-${testId}`}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </div>
  );
}
