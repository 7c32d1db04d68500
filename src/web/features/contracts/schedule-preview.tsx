import type { ContractPreview } from '@/contracts/contracts';
import type { ScheduleTotals } from '@/domain';
import { LazyBalanceChart } from '@/web/features/calculator/lazy-balance-chart';
import { ScheduleTable } from '@/web/features/calculator/schedule-table';
import { formatBusinessDate, formatPercent } from '@/web/lib/format';
import { money } from '@/web/lib/money';

const CAPITAL: Record<string, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

/** The schedule totals in the calculator's shape, so its table can show a contract's schedule. */
export function totalsOf(
  figures: Pick<
    ContractPreview,
    'installment' | 'regularPayment' | 'principal' | 'totalInterest' | 'totalServiceFees' | 'totalPayable'
  >,
  rows: ReadonlyArray<{ principal: number; interest: number }>,
): ScheduleTotals {
  const last = rows.at(-1);
  return {
    installment: figures.installment,
    regularPayment: figures.regularPayment,
    lastInstallment: last ? last.principal + last.interest : 0,
    totalPrincipal: figures.principal,
    totalInterest: figures.totalInterest,
    totalServiceFees: figures.totalServiceFees,
    totalPayable: figures.totalPayable,
  };
}

/** "3 monthly payments of $322.00, then a last payment of $323.33". */
export function paymentPattern(
  preview: Pick<ContractPreview, 'schedule' | 'frequency' | 'currency'>,
): string {
  const rows = preview.schedule;
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return '';
  const m = (minor: number) => money(minor, preview.currency);
  const n = rows.length;
  if (n > 1 && last.total !== first.total)
    return `${n - 1} ${preview.frequency} payment${n - 1 === 1 ? '' : 's'} of ${m(first.total)}, then a last payment of ${m(last.total)}`;
  return `${n} ${preview.frequency} payment${n === 1 ? '' : 's'} of ${m(first.total)}`;
}

/** The wizard's schedule step: the figures the engine computed, the balance chart and every instalment. */
export function SchedulePreview({ preview }: { preview: ContractPreview }) {
  const m = (minor: number) => money(minor, preview.currency);
  return (
    <div className="grid grid-cols-1 gap-6" data-testid="panel-schedule-preview">
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
        <div>
          <p className="font-medium text-muted-foreground text-sm">
            {CAPITAL[preview.frequency] ?? ''} payment
          </p>
          <p
            className="mt-1 font-semibold text-4xl tracking-tight tabular-nums"
            data-testid="text-preview-instalment"
          >
            {m(preview.regularPayment)}
          </p>
          <p className="mt-1 text-muted-foreground text-sm" data-testid="text-preview-pattern">
            {paymentPattern(preview)}
            {preview.totalServiceFees > 0 ? ', service fee included' : ''}
          </p>
          <p className="mt-2 text-muted-foreground text-sm">
            First due {formatBusinessDate(preview.firstDueDate)}, last due{' '}
            {formatBusinessDate(preview.lastDueDate)}. Activation starts the schedule on its own day, so the
            dates move with it.
          </p>
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:grid-cols-3">
          <Figure label="Cash price" value={m(preview.cashPrice)} />
          <Figure label="Deposit" value={m(preview.deposit)} testId="text-preview-deposit" />
          <Figure label="Amount financed" value={m(preview.principal)} testId="text-preview-principal" />
          <Figure
            label="APR"
            value={`${formatPercent(preview.apr)} ${preview.interestMethod}`}
            testId="text-preview-apr"
          />
          <Figure label="Total interest" value={m(preview.totalInterest)} testId="text-preview-interest" />
          <Figure label="Service fees" value={m(preview.totalServiceFees)} />
          <Figure label="Total payable" value={m(preview.totalPayable)} testId="text-preview-total" strong />
          <Figure label="Deposit + payable" value={m(preview.deposit + preview.totalPayable)} />
          <Figure label="Minimum deposit" value={m(preview.minimumDeposit)} />
        </dl>
      </div>
      <section aria-label="Balance over time">
        <LazyBalanceChart
          rows={preview.schedule}
          principal={preview.principal}
          currency={preview.currency}
          startDate={preview.startDate}
        />
      </section>
      <section className="-mx-4 sm:-mx-6" aria-label="Repayment schedule">
        <ScheduleTable
          rows={preview.schedule}
          totals={totalsOf(preview, preview.schedule)}
          currency={preview.currency}
        />
      </section>
    </div>
  );
}

function Figure({
  label,
  value,
  testId,
  strong = false,
}: {
  label: string;
  value: string;
  testId?: string;
  strong?: boolean;
}) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className={strong ? 'font-semibold tabular-nums' : 'font-medium tabular-nums'} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
