import type { Frequency, InterestMethod } from '@/domain';
import { formatPercent } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { cn } from '@/web/lib/utils';
import { PERIOD_NOUN, periodicRatePercent } from './inputs';
import type { QuoteFigures } from './model';

const CAPITAL: Record<Frequency, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

/** "3 payments of $322.00, then $323.33", or "12 monthly payments". */
export function paymentPattern(
  figures: QuoteFigures,
  term: number,
  frequency: Frequency,
  currency: string,
): string {
  const adjective = PERIOD_NOUN[frequency].adjective;
  if (term > 1 && figures.lastPayment !== figures.regularPayment) {
    return `${(term - 1).toLocaleString('en-US')} ${adjective} payment${term - 1 === 1 ? '' : 's'} of ${money(
      figures.regularPayment,
      currency,
    )}, then a last payment of ${money(figures.lastPayment, currency)}`;
  }
  return `${term.toLocaleString('en-US')} ${adjective} payment${term === 1 ? '' : 's'}`;
}

/** The APR disclosure: nominal rate, method, periodic rate, the rate implied by all charges, and the amounts. */
export function aprDisclosure(
  figures: QuoteFigures,
  apr: string,
  method: InterestMethod,
  frequency: Frequency,
  currency: string,
): string {
  const period = PERIOD_NOUN[frequency].one;
  const basis = method === 'declining' ? 'on the declining balance' : 'flat on the amount financed';
  const implied =
    figures.aprWithFees === null
      ? ''
      : ` Annual rate of all charges${figures.totalServiceFees > 0 ? ', service fees included' : ''}: ${formatPercent(figures.aprWithFees)}.`;
  return (
    `APR ${formatPercent(Number(apr), 4)} a year, charged ${basis} at ${periodicRatePercent(figures.periodicRate)} per ${period}.` +
    implied +
    ` Amount financed ${money(figures.principal, currency)}; finance charge ${money(figures.costOfCredit, currency)}` +
    ` (interest ${money(figures.totalInterest, currency)}, service fees ${money(figures.totalServiceFees, currency)});` +
    ` total of payments ${money(figures.totalOfPayments, currency)}.`
  );
}

interface ResultsProps {
  figures: QuoteFigures;
  currency: string;
  term: number;
  apr: string;
  method: InterestMethod;
  frequency: Frequency;
}

/** Key figures of the quote: the regular payment first, then the totals and the APR disclosure. */
export function CalculatorResults({ figures, currency, term, apr, method, frequency }: ResultsProps) {
  const costShare = figures.price > 0 ? formatPercent((figures.costOfCredit / figures.price) * 100, 1) : '';
  return (
    <div className="grid grid-cols-1 gap-5">
      <div>
        <p className="font-medium text-muted-foreground text-sm">{CAPITAL[frequency]} payment</p>
        <p
          className="mt-1 font-semibold text-4xl text-foreground tracking-tight tabular-nums"
          data-testid="text-instalment"
        >
          {money(figures.regularPayment, currency)}
        </p>
        <p className="mt-1 text-muted-foreground text-sm" data-testid="text-payment-pattern">
          {paymentPattern(figures, term, frequency, currency)}
          {figures.totalServiceFees > 0 ? ', service fee included' : ''}
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
        <Figure
          label="Amount financed"
          value={money(figures.principal, currency)}
          testId="text-amount-financed"
        />
        <Figure
          label="Total interest"
          value={money(figures.totalInterest, currency)}
          testId="text-total-interest"
        />
        <Figure
          label="Service fees"
          value={money(figures.totalServiceFees, currency)}
          testId="text-total-fees"
        />
        <Figure
          label="Total of payments"
          value={money(figures.totalOfPayments, currency)}
          testId="text-total-payable"
        />
        <Figure label="Deposit" value={money(figures.deposit, currency)} testId="text-deposit" />
        <Figure
          label="Total cost with deposit"
          value={money(figures.totalCost, currency)}
          testId="text-total-cost"
          strong
        />
        <Figure
          label="Cost of credit over the cash price"
          value={`${money(figures.costOfCredit, currency)}${costShare ? ` (${costShare})` : ''}`}
          testId="text-cost-of-credit"
          className="col-span-2"
        />
      </dl>
      <p
        className="rounded-md border bg-muted/60 px-3 py-2.5 text-muted-foreground text-xs leading-relaxed"
        data-testid="text-apr-disclosure"
      >
        {aprDisclosure(figures, apr, method, frequency, currency)}
      </p>
    </div>
  );
}

function Figure({
  label,
  value,
  testId,
  strong = false,
  className,
}: {
  label: string;
  value: string;
  testId: string;
  strong?: boolean;
  className?: string;
}) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd
        className={cn('mt-0.5 tabular-nums', strong ? 'font-semibold' : 'font-medium')}
        data-testid={testId}
      >
        {value}
      </dd>
    </div>
  );
}
