import type { ChangeEvent, ComponentProps, ReactNode } from 'react';
import { type FieldControlProps, FormField } from '@/web/components/form-field';
import { Input } from '@/web/components/ui/input';
import { amountPlaceholder, formatBusinessDate } from '@/web/lib/format';
import {
  type CalculatorField,
  type CalculatorInputs,
  depositShare,
  FREQUENCY_OPTIONS,
  METHOD_OPTIONS,
  PERIOD_NOUN,
  termDuration,
} from './inputs';
import type { Evaluation } from './model';
import { SegmentedControl } from './segmented-control';

interface CalculatorFormProps {
  inputs: CalculatorInputs;
  currency: string;
  /** Null until the finance engine has loaded. */
  evaluation: Evaluation | null;
  /** Formats minor units (from the engine), null until it has loaded. */
  format: ((minor: number) => string) | null;
  /** Messages to show now (the page hides "required" until a field is left empty). */
  errors: Partial<Record<CalculatorField, string>>;
  onChange: <K extends CalculatorField>(field: K, value: CalculatorInputs[K]) => void;
  onBlur: (field: CalculatorField) => void;
}

const METHOD_HINT = {
  declining: 'Interest on the balance still owed, period by period.',
  flat: 'Interest on the whole amount financed for the whole term.',
} as const;

/** The calculator's inputs: money in major units of the organisation's currency. */
export function CalculatorForm({
  inputs,
  currency,
  evaluation,
  format,
  errors,
  onChange,
  onBlur,
}: CalculatorFormProps) {
  const noun = PERIOD_NOUN[inputs.frequency];
  const { price, deposit, schedule } = evaluation ?? {};
  const lastDue = schedule?.rows[schedule.rows.length - 1]?.dueDate;
  const term = Number(inputs.term);

  const depositHint =
    format &&
    price !== undefined &&
    deposit !== undefined &&
    deposit < price &&
    inputs.deposit.trim() !== '' ? (
      <span data-testid="text-deposit-percent">
        {depositShare(deposit, price)} of the cash price · {format(price - deposit)} to finance
      </span>
    ) : (
      'Paid up front. Leave empty for no deposit.'
    );

  const termHint =
    Number.isInteger(term) && term > 0 && !errors.term ? (
      <span data-testid="text-term-duration">
        {term.toLocaleString('en-US')} {noun.adjective} instalment{term === 1 ? '' : 's'} ·{' '}
        {termDuration(inputs.frequency, term)}
        {lastDue ? ` · last due ${formatBusinessDate(lastDue)}` : ''}
      </span>
    ) : (
      `Number of ${noun.adjective} instalments, 1 to 3,660.`
    );

  const text = (field: CalculatorField) => ({
    value: inputs[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange(field, event.target.value),
    onBlur: () => onBlur(field),
    'data-testid': `input-${field}`,
  });

  return (
    <form
      className="grid grid-cols-1 gap-5 sm:grid-cols-2"
      aria-label="Financing terms"
      noValidate
      onSubmit={(event) => event.preventDefault()}
    >
      <FormField
        id="price"
        label="Cash price"
        error={errors.price}
        hint="What the device costs paid in cash."
      >
        {(control) => <MoneyInput control={control} currency={currency} {...text('price')} />}
      </FormField>
      <FormField id="deposit" label="Deposit" error={errors.deposit} hint={depositHint}>
        {(control) => <MoneyInput control={control} currency={currency} {...text('deposit')} />}
      </FormField>

      <SegmentedControl
        name="frequency"
        legend="Payment frequency"
        value={inputs.frequency}
        options={FREQUENCY_OPTIONS}
        onChange={(value) => onChange('frequency', value)}
        className="sm:col-span-2"
      />

      <FormField id="term" label="Term (instalments)" error={errors.term} hint={termHint}>
        {(control) => (
          <Input
            {...control}
            {...text('term')}
            inputMode="numeric"
            autoComplete="off"
            enterKeyHint="next"
            placeholder="12"
          />
        )}
      </FormField>
      <FormField
        id="apr"
        label="APR (% a year)"
        error={errors.apr}
        hint="Nominal annual rate, e.g. 15 or 19.99."
      >
        {(control) => (
          <Adorned suffix="%">
            <Input
              {...control}
              {...text('apr')}
              inputMode="decimal"
              autoComplete="off"
              enterKeyHint="next"
              placeholder="15"
              className="pr-9"
            />
          </Adorned>
        )}
      </FormField>

      <SegmentedControl
        name="method"
        legend="Interest method"
        value={inputs.method}
        options={METHOD_OPTIONS}
        onChange={(value) => onChange('method', value)}
        hint={METHOD_HINT[inputs.method]}
        className="sm:col-span-2"
      />

      <FormField
        id="multiple"
        label="Instalment multiple (optional)"
        error={errors.multiple}
        hint="Rounds each instalment down to a multiple of this amount; the last one takes the rest."
      >
        {(control) => (
          <MoneyInput
            control={control}
            currency={currency}
            placeholder={amountPlaceholder(currency, 1)}
            {...text('multiple')}
          />
        )}
      </FormField>
      <FormField
        id="fee"
        label={`Service fee per ${noun.one} (optional)`}
        error={errors.fee}
        hint="Added to every instalment (insurance, connectivity); never interest."
      >
        {(control) => <MoneyInput control={control} currency={currency} {...text('fee')} />}
      </FormField>

      <FormField
        id="start"
        label="Start date"
        error={errors.start}
        hint={`The first instalment is due one ${noun.one} later.`}
      >
        {(control) => (
          <Input {...control} {...text('start')} type="date" required className="dark:[color-scheme:dark]" />
        )}
      </FormField>
    </form>
  );
}

function Adorned({ suffix, children }: { suffix: string; children: ReactNode }) {
  return (
    <div className="relative">
      {children}
      <span
        className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-muted-foreground text-xs"
        aria-hidden="true"
      >
        {suffix}
      </span>
    </div>
  );
}

type MoneyInputProps = Omit<ComponentProps<'input'>, 'id'> & {
  control: FieldControlProps;
  currency: string;
};

function MoneyInput({ control, currency, placeholder, ...props }: MoneyInputProps) {
  return (
    <Adorned suffix={currency}>
      <Input
        {...control}
        {...props}
        inputMode="decimal"
        autoComplete="off"
        enterKeyHint="next"
        placeholder={placeholder ?? amountPlaceholder(currency, 0)}
        className="pr-12"
      />
    </Adorned>
  );
}
