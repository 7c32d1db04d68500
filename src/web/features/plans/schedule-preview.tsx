import { Calculator } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { buildSchedule, minimumDeposit, type Schedule } from '@/domain';
import { formatMoney } from '@/domain/money';
import { FormField } from '@/web/components/form-field';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { parseMajor } from '@/web/features/devices/money';
import { TableRegion } from '@/web/features/devices/table-region';
import { formatBusinessDate } from '@/web/lib/format';
import { moneyInputText } from '@/web/lib/money';
import { PERIOD_NAMES } from './format';
import type { PlanTermsBody } from './plan-rules';

type PreviewTerms = Pick<
  PlanTermsBody,
  | 'allowedTerms'
  | 'apr'
  | 'frequency'
  | 'interestMethod'
  | 'installmentMultiple'
  | 'serviceFee'
  | 'minDepositPercent'
  | 'minDepositAmount'
>;

const SHOWN_ROWS = 6;

function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function exampleSchedule(
  terms: PreviewTerms,
  price: number,
  term: number,
  startDate = today(),
): { deposit: number; schedule: Schedule } | { error: string } {
  const deposit = minimumDeposit(terms, price);
  if (deposit >= price) return { error: 'The minimum deposit covers the whole price: try a higher price.' };
  try {
    const schedule = buildSchedule({
      principal: price - deposit,
      apr: terms.apr,
      frequency: terms.frequency,
      term,
      method: terms.interestMethod,
      startDate,
      installmentMultiple: terms.installmentMultiple,
      serviceFeePerPeriod: terms.serviceFee,
    });
    return { deposit, schedule };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * What the plan costs a customer for an example price, computed by the same engine as contracts:
 * minimum deposit, instalment, totals and the first instalments.
 */
export function SchedulePreview({
  terms,
  currency,
  examplePrice,
}: {
  /** null while the form has errors. */
  terms: PreviewTerms | null;
  currency: string;
  /** Minor units. */
  examplePrice: number;
}) {
  const ids = useId();
  const [priceText, setPriceText] = useState(() => moneyInputText(examplePrice, currency));
  const [termChoice, setTermChoice] = useState<number | null>(null);
  const price = parseMajor(priceText, currency, 'Price');
  const term =
    terms && termChoice !== null && terms.allowedTerms.includes(termChoice)
      ? termChoice
      : (terms?.allowedTerms[Math.floor((terms.allowedTerms.length - 1) / 2)] ?? null);
  const termsKey = JSON.stringify(terms);
  // biome-ignore lint/correctness/useExhaustiveDependencies: terms is a new object on every render; its text is the key
  const result = useMemo(
    () => (terms && term !== null && price.value ? exampleSchedule(terms, price.value, term) : null),
    [termsKey, term, price.value],
  );
  const money = (minor: number) => formatMoney(minor, currency);
  const periods = terms ? PERIOD_NAMES[terms.frequency] : ['period', 'periods'];

  return (
    <Card data-testid="card-schedule-preview">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Calculator className="size-4 text-primary" aria-hidden="true" /> Example schedule
        </CardTitle>
        <CardDescription>What a customer would pay, from the same engine as contracts.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <div className="grid grid-cols-2 gap-3">
          <FormField
            id={`${ids}-price`}
            label={`Cash price (${currency})`}
            error={price.error ?? (price.value === 0 ? 'Give a price above 0' : undefined)}
          >
            {(control) => (
              <Input
                {...control}
                inputMode="decimal"
                value={priceText}
                onChange={(event) => setPriceText(event.target.value)}
                data-testid="input-preview-price"
              />
            )}
          </FormField>
          <FormField id={`${ids}-term`} label="Term">
            {(control) => (
              <NativeSelect
                {...control}
                value={term ?? ''}
                disabled={!terms?.allowedTerms.length}
                onChange={(event) => setTermChoice(Number(event.target.value))}
                data-testid="select-preview-term"
              >
                {!terms?.allowedTerms.length && <option value="">—</option>}
                {(terms?.allowedTerms ?? []).map((option) => (
                  <option key={option} value={option}>
                    {option} {option === 1 ? periods[0] : periods[1]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
        </div>
        <div aria-live="polite">
          {!terms ? (
            <p className="text-muted-foreground text-sm">
              Correct the highlighted fields to see the example.
            </p>
          ) : !result ? null : 'error' in result ? (
            <p className="text-destructive text-sm" data-testid="text-preview-error">
              {result.error}
            </p>
          ) : (
            <div className="grid grid-cols-1 gap-3">
              <dl className="grid grid-cols-2 gap-3 text-sm" data-testid="list-preview-totals">
                <Figure label="Minimum deposit" value={money(result.deposit)} />
                <Figure
                  label={`Regular payment (per ${periods[0]})`}
                  value={money(result.schedule.totals.regularPayment)}
                  strong
                  testId="text-preview-payment"
                />
                <Figure label="Total interest" value={money(result.schedule.totals.totalInterest)} />
                <Figure label="Service fees" value={money(result.schedule.totals.totalServiceFees)} />
                <Figure
                  label="Total cost (deposit + payments)"
                  value={money(result.deposit + result.schedule.totals.totalPayable)}
                  testId="text-preview-total"
                />
                <Figure label="Last payment" value={money(lastTotal(result.schedule))} />
              </dl>
              <TableRegion label="First instalments of the example">
                <TableHeader>
                  <TableRow>
                    <TableHead className="text-right">#</TableHead>
                    <TableHead>Due</TableHead>
                    <TableHead className="text-right">Interest</TableHead>
                    <TableHead className="text-right">Payment</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {result.schedule.rows.slice(0, SHOWN_ROWS).map((row) => (
                    <TableRow key={row.n}>
                      <TableCell className="text-right tabular-nums">{row.n}</TableCell>
                      <TableCell className="tabular-nums">{formatBusinessDate(row.dueDate)}</TableCell>
                      <TableCell className="text-right tabular-nums">{money(row.interest)}</TableCell>
                      <TableCell className="text-right tabular-nums">{money(row.total)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </TableRegion>
              {result.schedule.rows.length > SHOWN_ROWS && (
                <p className="text-muted-foreground text-xs">
                  … and {result.schedule.rows.length - SHOWN_ROWS} more {periods[1]}.
                </p>
              )}
            </div>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

function lastTotal(schedule: Schedule): number {
  return schedule.rows.at(-1)?.total ?? 0;
}

function Figure({
  label,
  value,
  strong,
  testId,
}: {
  label: string;
  value: string;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <div>
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className={strong ? 'font-semibold text-lg tabular-nums' : 'tabular-nums'} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
