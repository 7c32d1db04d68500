import { useEffect, useState } from 'react';
import { parseMoney, toMajorString } from '@/domain';
import { Input } from '@/web/components/ui/input';

type Thresholds = [number, number, number];

interface IncomeBandsFieldProps {
  value: Thresholds | null | undefined;
  currency: string;
  onChange: (value: Thresholds | null) => void;
  onBlur: () => void;
  error: string | undefined;
}

const LABELS = ['Low from', 'Middle from', 'High from'] as const;

/** Text in major units to minor units of the currency; NaN for what is not an amount. */
function toMinor(text: string, currency: string): number {
  try {
    return parseMoney(text, currency);
  } catch {
    return Number.NaN;
  }
}

/**
 * The risk scorecard's three monthly income thresholds, typed in the organisation's currency
 * (major units). All three empty: income is not scored.
 */
export function IncomeBandsField({ value, currency, onChange, onBlur, error }: IncomeBandsFieldProps) {
  const [drafts, setDrafts] = useState<string[]>(() =>
    value ? value.map((minor) => toMajorString(minor, currency)) : ['', '', ''],
  );
  const publish = (next: string[], inCurrency: string) => {
    if (next.every((draft) => draft.trim() === '')) onChange(null);
    else onChange(next.map((draft) => toMinor(draft, inCurrency)) as Thresholds);
  };
  // The same amounts in another currency are other minor units (e.g. 2 decimals or none).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of currency re-converts
  useEffect(() => {
    if (drafts.some((draft) => draft.trim() !== '')) publish(drafts, currency);
  }, [currency]);
  return (
    <fieldset
      className="grid grid-cols-1 gap-2"
      data-testid="group-org-income-bands"
      aria-describedby="org-income-hint"
    >
      <legend className="mb-1 font-medium text-sm">Risk scorecard: monthly income bands ({currency})</legend>
      <p id="org-income-hint" className="text-muted-foreground text-xs">
        Incomes below the first amount score 0 points, then 10, 20 and 30 from each amount up. Leave all three
        empty to leave income out of the score. Existing customers are rescored within a minute of saving.
      </p>
      <div className="grid grid-cols-1 gap-3 sm:max-w-xl sm:grid-cols-3">
        {LABELS.map((label, index) => {
          const id = `org-income-${index}`;
          return (
            <div key={label} className="grid grid-cols-1 gap-1">
              <label htmlFor={id} className="text-muted-foreground text-xs">
                {label}
              </label>
              <Input
                id={id}
                inputMode="decimal"
                value={drafts[index] ?? ''}
                aria-invalid={!!error}
                aria-describedby={error ? 'org-income-error' : 'org-income-hint'}
                onChange={(event) => {
                  const next = drafts.map((draft, i) => (i === index ? event.target.value : draft));
                  setDrafts(next);
                  publish(next, currency);
                }}
                onBlur={onBlur}
                data-testid={`input-org-income-${index}`}
              />
            </div>
          );
        })}
      </div>
      {error && (
        <p id="org-income-error" className="font-medium text-destructive text-xs" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
