import { Calculator as CalculatorIcon, CircleAlert, Link2, Printer, RotateCw } from 'lucide-react';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import type { PublicOrganisation } from '@/contracts/profile';
import { Spinner } from '@/web/components/loaders';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { toast } from '@/web/hooks/use-toast';
import { CalculatorForm } from './calculator-form';
import {
  type CalculatorField,
  type CalculatorInputs,
  currencyName,
  defaultInputs,
  PERIOD_NOUN,
  searchFromInputs,
  todayBusinessDate,
} from './inputs';
import type { FieldErrors } from './model';
import { useQuoteInputs } from './use-quote-inputs';
import './print.css';

type Live = typeof import('./live');
/** The engine and everything that shows its results (see live.ts). */
const loadLive = () => import('./live');

const FIELD_NAMES: Partial<Record<CalculatorField, string>> = {
  price: 'the cash price',
  term: 'the term',
  apr: 'the APR',
};

/**
 * The public device-financing calculator: inputs in major units of the organisation's currency,
 * results computed as you type by the finance engine in the browser, a paginated schedule, a
 * lazily loaded balance chart, a shareable link and a printable quote. The form shows at once;
 * the engine is fetched for a quote link straight away, otherwise as soon as the visitor starts
 * on the form.
 */
export function Calculator({ organisation }: { organisation: PublicOrganisation }) {
  const { currency } = organisation;
  const [today] = useState(todayBusinessDate);
  const { inputs, setField } = useQuoteInputs(today);
  const [touched, setTouched] = useState<ReadonlySet<CalculatorField>>(() => new Set());
  const [printing, setPrinting] = useState(false);
  const [live, setLive] = useState<Live | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [engaged, setEngaged] = useState(false);

  const changed = useMemo(() => differs(inputs, defaultInputs(today)), [inputs, today]);
  const wanted = engaged || changed;
  useEffect(() => {
    if (!wanted || live || loadFailed) return;
    let cancelled = false;
    loadLive()
      .then((module) => {
        if (!cancelled) setLive(module);
      })
      .catch(() => {
        if (!cancelled) setLoadFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [wanted, live, loadFailed]);

  // Typing stays responsive even for 3,660 daily instalments: the schedule follows a frame later.
  const deferred = useDeferredValue(inputs);
  const supported = live ? live.isKnownCurrency(currency) : true;
  const evaluation = useMemo(
    () => (live && supported ? live.evaluate(deferred, currency) : null),
    [live, supported, deferred, currency],
  );
  const figures = useMemo(
    () => (live && evaluation ? live.quoteFigures(evaluation) : null),
    [live, evaluation],
  );
  const schedule = figures ? evaluation?.schedule : undefined;
  const format = useMemo(
    () => (live ? (minor: number) => live.money(minor, currency) : null),
    [live, currency],
  );

  // "Required" waits until the field has been visited; any other message shows at once.
  const errors: FieldErrors = {};
  for (const [field, message] of Object.entries(evaluation?.errors ?? {}) as Array<
    [CalculatorField, string]
  >) {
    if (!evaluation?.missing.includes(field) || touched.has(field)) errors[field] = message;
  }

  useEffect(() => {
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(false);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    const media = typeof window.matchMedia === 'function' ? window.matchMedia('print') : null;
    const onMedia = (event: MediaQueryListEvent) => {
      if (event.matches) setPrinting(true);
    };
    media?.addEventListener('change', onMedia);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
      media?.removeEventListener('change', onMedia);
    };
  }, []);

  const search = searchFromInputs(inputs);
  const link = `${window.location.origin}/calculator${search ? `?${search}` : ''}`;

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast({ title: 'Link copied', description: 'Anyone who opens it sees this quote.' });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Could not copy',
        description: 'Copy the address from the address bar.',
      });
    }
  };

  const print = () => {
    flushSync(() => setPrinting(true));
    window.print();
  };

  const noun = PERIOD_NOUN[inputs.frequency];
  const engage = () => {
    if (!engaged) setEngaged(true);
  };

  let placeholder: { message: string; kind: 'empty' | 'busy' | 'problem' } | null = null;
  if (!figures) {
    if (loadFailed) placeholder = { message: 'The calculator could not load.', kind: 'problem' };
    else if (!supported)
      placeholder = {
        message: `The organisation's currency (${currency}) is not supported by the calculator.`,
        kind: 'problem',
      };
    else if (evaluation?.problem) placeholder = { message: evaluation.problem, kind: 'problem' };
    else if (!evaluation && changed) placeholder = { message: 'Calculating…', kind: 'busy' };
    else {
      const missing = (evaluation ? evaluation.missing : missingByDefault(inputs))
        .map((field) => FIELD_NAMES[field])
        .filter((name): name is string => !!name);
      const onlyMissing = !evaluation || Object.keys(evaluation.errors).length === missing.length;
      placeholder = {
        message:
          missing.length && onlyMissing
            ? `Enter ${joinWords(missing)} to see the instalment.`
            : 'Correct the highlighted fields to see the instalment.',
        kind: 'empty',
      };
    }
  }

  return (
    <div>
      <div className="print:hidden">
        <PageHeader
          title="Device calculator"
          icon={CalculatorIcon}
          description={`What financing a device costs, in ${currencyName(currency)}.`}
          actions={
            <>
              <Button variant="outline" onClick={() => void copyLink()} data-testid="button-copy-link">
                <Link2 aria-hidden="true" />
                Copy link
              </Button>
              <Button onClick={print} disabled={!figures} data-testid="button-print-quote">
                <Printer aria-hidden="true" />
                Print quote
              </Button>
            </>
          }
        />

        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,25rem)]">
          <Card onFocusCapture={engage} onPointerDownCapture={engage} onPointerEnter={engage}>
            <CardHeader>
              <CardTitle>Financing terms</CardTitle>
              <CardDescription>
                Amounts in {currency}. Results update as you type, on the same engine as our contracts.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <CalculatorForm
                inputs={inputs}
                currency={currency}
                evaluation={evaluation}
                format={format}
                errors={errors}
                onChange={setField}
                onBlur={(field) =>
                  setTouched((current) => (current.has(field) ? current : new Set(current).add(field)))
                }
              />
            </CardContent>
          </Card>

          <Card
            className="lg:sticky lg:top-6"
            aria-labelledby="quote-title"
            role="region"
            data-testid="card-quote"
          >
            <CardHeader>
              <CardTitle id="quote-title">Your quote</CardTitle>
            </CardHeader>
            <CardContent>
              {live && figures && schedule && evaluation?.input ? (
                <live.CalculatorResults
                  figures={figures}
                  currency={currency}
                  term={schedule.rows.length}
                  apr={String(evaluation.input.apr)}
                  method={evaluation.input.method}
                  frequency={evaluation.input.frequency}
                />
              ) : (
                placeholder && (
                  <ResultsPlaceholder
                    {...placeholder}
                    onRetry={loadFailed ? () => setLoadFailed(false) : undefined}
                  />
                )
              )}
            </CardContent>
          </Card>
        </div>

        <Announcement
          text={
            live && figures
              ? `${capitalise(noun.adjective)} payment ${live.money(figures.regularPayment, currency)}`
              : ''
          }
        />

        {live && figures && schedule && evaluation?.input && (
          <>
            <Card className="mt-6" role="region" aria-labelledby="chart-title">
              <CardHeader className="pb-2">
                <CardTitle id="chart-title">Balance over time</CardTitle>
              </CardHeader>
              <CardContent>
                <live.LazyBalanceChart
                  rows={schedule.rows}
                  principal={figures.principal}
                  currency={currency}
                  startDate={evaluation.input.startDate}
                />
              </CardContent>
            </Card>
            <Card className="mt-6" role="region" aria-labelledby="schedule-title" id="schedule">
              <CardHeader>
                <CardTitle id="schedule-title">Repayment schedule</CardTitle>
                <CardDescription>
                  Each instalment split into principal, interest and service fee; the last one clears the
                  balance.
                </CardDescription>
              </CardHeader>
              <CardContent className="px-0 pb-4">
                <live.ScheduleTable rows={schedule.rows} totals={schedule.totals} currency={currency} />
              </CardContent>
            </Card>

            {/* Sticky, not fixed: it rides at the bottom of the screen over the calculator, then stops
                above the page footer so the footer's links stay reachable. */}
            <div
              className="sticky bottom-0 z-30 -mx-4 mt-6 border-t bg-card/95 px-4 py-2.5 pb-[calc(0.625rem+env(safe-area-inset-bottom))] shadow-[0_-4px_12px_rgb(0_0_0/0.06)] backdrop-blur sm:-mx-6 md:hidden"
              data-testid="bar-mobile-summary"
            >
              <div className="mx-auto flex max-w-lg items-center justify-between gap-3">
                <div className="min-w-0">
                  <p className="text-muted-foreground text-xs">{capitalise(noun.adjective)} payment</p>
                  <p className="font-semibold text-xl tabular-nums" data-testid="text-mobile-instalment">
                    {live.money(figures.regularPayment, currency)}
                  </p>
                </div>
                <div className="min-w-0 text-right">
                  <p className="text-muted-foreground text-xs">
                    {schedule.rows.length.toLocaleString('en-US')} instalments · total
                  </p>
                  <p className="font-medium text-sm tabular-nums">
                    {live.money(figures.totalOfPayments, currency)}
                  </p>
                </div>
              </div>
            </div>
          </>
        )}
      </div>

      {printing && live && figures && schedule && evaluation?.input && (
        <live.QuoteSheet
          organisation={organisation.name}
          currency={currency}
          inputs={deferred}
          figures={figures}
          schedule={schedule}
          multiple={evaluation.input.installmentMultiple ?? 0}
          fee={evaluation.input.serviceFeePerPeriod ?? 0}
          link={link}
        />
      )}
    </div>
  );
}

/** What the results panel shows until the inputs give a schedule. */
function ResultsPlaceholder({
  message,
  kind,
  onRetry,
}: {
  message: string;
  kind: 'empty' | 'busy' | 'problem';
  onRetry?: (() => void) | undefined;
}) {
  return (
    <div
      className="flex flex-col items-center gap-3 px-4 py-10 text-center text-muted-foreground text-sm"
      data-testid="text-results-empty"
    >
      {kind === 'busy' ? (
        <Spinner className="size-8 text-primary/60" />
      ) : kind === 'problem' ? (
        <CircleAlert className="size-8 text-destructive" aria-hidden="true" />
      ) : (
        <CalculatorIcon className="size-8 text-primary/60" aria-hidden="true" />
      )}
      <p className="max-w-xs" role={kind === 'problem' ? 'alert' : undefined}>
        {message}
      </p>
      {onRetry && (
        <Button variant="outline" size="sm" onClick={onRetry} data-testid="button-retry-engine">
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      )}
    </div>
  );
}

/** A polite announcement of the new instalment once typing pauses (not on every keystroke). */
function Announcement({ text }: { text: string }) {
  const [spoken, setSpoken] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSpoken(text), 900);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <p className="sr-only" aria-live="polite" data-testid="text-announcement">
      {spoken}
    </p>
  );
}

/** Whether any input differs from the defaults (a quote link, or the visitor has typed). */
function differs(a: CalculatorInputs, b: CalculatorInputs): boolean {
  return (Object.keys(a) as CalculatorField[]).some((key) => a[key] !== b[key]);
}

/** Required fields still empty, known without the engine. */
function missingByDefault(inputs: CalculatorInputs): CalculatorField[] {
  return (['price', 'term', 'apr'] as const).filter((field) => !inputs[field].trim());
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
