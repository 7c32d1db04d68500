import type { ReactNode } from 'react';
import { FormField } from '@/web/components/form-field';
import { Input } from '@/web/components/ui/input';
import { amountPlaceholder } from '@/web/lib/format';

/**
 * An amount typed in major units under "Amount (USD)", for forms that keep the text in state and
 * read it with `parseMoneyInput` (lib/money.ts) when they check it.
 */
export function AmountField({
  id,
  currency,
  value,
  onChange,
  error,
  hint,
  testId,
  label = 'Amount',
}: {
  /** What the amount is ("Recovery value"); the currency follows it. */
  label?: string;
  id: string;
  currency: string;
  value: string;
  onChange: (text: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  testId: string;
}) {
  return (
    <FormField id={id} label={`${label} (${currency})`} error={error} hint={hint}>
      {(control) => (
        <Input
          {...control}
          inputMode="decimal"
          autoComplete="off"
          placeholder={amountPlaceholder(currency, 0)}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
        />
      )}
    </FormField>
  );
}
