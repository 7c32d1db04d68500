import { cn } from '@/web/lib/utils';

interface SegmentedControlProps<T extends string> {
  name: string;
  legend: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
  hint?: string;
  className?: string;
}

/**
 * A row of native radio buttons styled as a segmented control: arrow keys move between options,
 * no JavaScript library needed (this page has a tight first-load budget).
 */
export function SegmentedControl<T extends string>({
  name,
  legend,
  value,
  options,
  onChange,
  hint,
  className,
}: SegmentedControlProps<T>) {
  const hintId = hint ? `${name}-hint` : undefined;
  return (
    <fieldset className={cn('grid grid-cols-1 gap-1.5', className)} aria-describedby={hintId}>
      <legend className="mb-1.5 font-medium text-sm leading-none">{legend}</legend>
      <div
        className="grid grid-cols-1 gap-1 rounded-lg border border-input bg-muted p-1"
        style={{ gridTemplateColumns: `repeat(${options.length}, minmax(0, 1fr))` }}
      >
        {options.map((option) => (
          <label key={option.value} className="relative">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="peer sr-only"
              data-testid={`radio-${name}-${option.value}`}
            />
            <span
              className={cn(
                'flex h-8 cursor-pointer select-none items-center justify-center rounded-md px-2 text-center font-medium text-muted-foreground text-sm transition-colors',
                'hover:text-foreground peer-checked:bg-card peer-checked:text-foreground peer-checked:shadow-sm',
                'peer-focus-visible:ring-2 peer-focus-visible:ring-ring',
              )}
            >
              {option.label}
            </span>
          </label>
        ))}
      </div>
      {hint && (
        <p id={hintId} className="text-muted-foreground text-xs">
          {hint}
        </p>
      )}
    </fieldset>
  );
}
