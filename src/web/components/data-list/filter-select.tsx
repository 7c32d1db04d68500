import { useId } from 'react';

interface FilterSelectProps {
  label: string;
  value: string;
  onChange(value: string): void;
  /** value -> label; the empty value means "all". */
  options: ReadonlyArray<readonly [string, string]>;
  allLabel?: string;
  testId: string;
}

/** A native select for list filters: keyboard and screen-reader friendly, and light. */
export function FilterSelect({ label, value, onChange, options, allLabel, testId }: FilterSelectProps) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="h-9 rounded-md border border-input bg-background px-2 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        data-testid={`select-filter-${testId}`}
      >
        <option value="">{allLabel ?? `All ${label.toLowerCase()}`}</option>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  );
}
