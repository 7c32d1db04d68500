import { RotateCw } from 'lucide-react';
import { useState } from 'react';
import type { Quote } from '@/contracts/calculator';
import { type DemoDevice, type DemoPlan, demoDeposit } from '@/contracts/demo';
import { Button } from '@/web/components/ui/button';
import { Skeleton } from '@/web/components/ui/skeleton';
import { ScheduleTable } from '@/web/features/calculator/schedule-table';
import { FREQUENCY_LABELS } from '@/web/features/plans/format';
import { formatPercent } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { errorMessage } from '@/web/lib/queryClient';
import { useDemoQuote } from './use-demo';

/** The quote's totals in the shape the calculator's schedule table reads. */
function totalsOf(quote: Quote) {
  const last = quote.schedule.at(-1);
  return {
    installment: quote.installment,
    regularPayment: quote.schedule[0]?.total ?? quote.installment,
    lastInstallment: last ? last.principal + last.interest : quote.installment,
    totalPrincipal: quote.principal,
    totalInterest: quote.totalInterest,
    totalServiceFees: quote.totalServiceFees,
    totalPayable: quote.totalPayable,
  };
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg bg-muted/50 p-3">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="font-semibold text-lg tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The instalment, totals, APR disclosure and schedule of the chosen device on the chosen plan. */
export function ScheduleStep({
  device,
  plan,
  currency,
}: {
  device: DemoDevice;
  plan: DemoPlan;
  currency: string;
}) {
  const quote = useDemoQuote(device, plan);
  // Open on wider screens; on a phone the long list waits behind its summary, so Next stays close.
  const [scheduleOpen, setScheduleOpen] = useState(
    () => window.matchMedia?.('(min-width: 640px)').matches ?? true,
  );
  if (quote.isPending) {
    return (
      <div role="status" className="grid gap-3">
        <span className="sr-only">Working out the payments…</span>
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-48 w-full" />
      </div>
    );
  }
  if (quote.isError) {
    return (
      <div className="flex flex-col items-start gap-3">
        <p role="alert" className="text-sm">
          The payments could not be worked out: {errorMessage(quote.error)}
        </p>
        <Button variant="outline" onClick={() => void quote.refetch()}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  const figures = quote.data;
  const deposit = demoDeposit(device, plan);
  const totals = totalsOf(figures);
  const m = (minor: number) => money(minor, currency);
  const method =
    plan.interestMethod === 'declining' ? 'on the reducing balance' : 'flat on the amount financed';
  return (
    <div className="grid grid-cols-1 gap-5">
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Figure label="Deposit today" value={m(deposit)} testId="text-demo-deposit" />
        <Figure
          label={`${FREQUENCY_LABELS[plan.frequency]} payment`}
          value={m(totals.regularPayment)}
          testId="text-demo-instalment"
        />
        <Figure
          label="Number of payments"
          value={figures.schedule.length.toLocaleString('en-US')}
          testId="text-demo-term"
        />
        <Figure label="Total cost" value={m(deposit + figures.totalPayable)} testId="text-demo-total-cost" />
      </dl>
      <p className="text-muted-foreground text-sm" data-testid="text-apr-disclosure">
        APR {formatPercent(plan.apr, 2)} a year, charged {method}. Cash price {m(device.price)}, deposit{' '}
        {m(deposit)}, amount financed {m(figures.principal)}; interest {m(figures.totalInterest)}; total of
        payments {m(figures.totalPayable)}. The last payment clears the balance.
      </p>
      <details
        className="group -mx-4 sm:mx-0"
        open={scheduleOpen}
        onToggle={(event) => setScheduleOpen(event.currentTarget.open)}
        data-testid="details-demo-schedule"
      >
        <summary
          className="cursor-pointer px-4 py-2 font-medium text-sm sm:px-0"
          data-testid="button-demo-schedule"
        >
          Payment schedule ({figures.schedule.length.toLocaleString('en-US')} payments)
        </summary>
        <div className="pt-2">
          <ScheduleTable rows={figures.schedule} totals={totals} currency={currency} />
        </div>
      </details>
    </div>
  );
}
