import { useId } from 'react';
import { PAYMENT_METHODS, PAYMENT_STATUSES, type Payment, paymentEndpoints } from '@/contracts/payments';
import { type Column, type FilterControl, ListPage, TwoLineCell } from '@/web/components/data-list';
import { Badge } from '@/web/components/ui/badge';
import { Input } from '@/web/components/ui/input';
import { formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { METHOD_LABELS, receiptHref, STATUS_LABELS, STATUS_VARIANTS } from './format';

const COLUMNS: ReadonlyArray<Column<Payment>> = [
  {
    key: 'receiptNumber',
    header: 'Receipt',
    sort: 'receiptNumber',
    cell: (p) => (
      <>
        <TwoLineCell main={p.receiptNumber} sub={formatDateTime(p.receivedAt)} />
        {/* On a phone the customer column is hidden: who paid goes under the receipt. */}
        <span className="block max-w-48 truncate text-muted-foreground text-xs md:hidden">
          {p.contractNumber ? `${p.customerName ?? '—'} · ${p.contractNumber}` : 'unmatched'}
        </span>
      </>
    ),
  },
  {
    key: 'customer',
    header: 'Customer',
    wide: true,
    cell: (p) => <TwoLineCell main={p.customerName ?? '—'} sub={p.contractNumber ?? 'unmatched'} />,
  },
  {
    key: 'method',
    header: 'Method',
    wide: true,
    cell: (p) => (
      <TwoLineCell main={METHOD_LABELS[p.method]} sub={p.reference ?? ''} subClassName="font-mono" />
    ),
  },
  {
    key: 'status',
    header: 'Status',
    wide: true,
    cell: (p) => <Badge variant={STATUS_VARIANTS[p.status]}>{STATUS_LABELS[p.status]}</Badge>,
  },
  { key: 'postedBy', header: 'Posted by', wide: true, cell: (p) => p.postedByName ?? '—' },
  {
    key: 'receivedAt',
    header: 'Amount',
    sort: 'amount',
    align: 'right',
    cell: (p) => (
      <>
        <span className={p.status === 'reversed' ? 'whitespace-nowrap line-through' : 'whitespace-nowrap'}>
          {money(p.amount, p.currency)}
        </span>
        {/* The status column is hidden on a phone too: the status goes under the amount. */}
        <span className="mt-1 block md:hidden">
          <Badge variant={STATUS_VARIANTS[p.status]}>{STATUS_LABELS[p.status]}</Badge>
        </span>
      </>
    ),
  },
];

const FILTERS: FilterControl[] = [
  {
    name: 'status',
    label: 'Status',
    allLabel: 'All statuses',
    options: PAYMENT_STATUSES.map((s) => [s, STATUS_LABELS[s]] as const),
    testId: 'payment-status',
  },
  {
    name: 'method',
    label: 'Method',
    allLabel: 'All methods',
    options: PAYMENT_METHODS.map((m) => [m, METHOD_LABELS[m]] as const),
    testId: 'payment-method',
  },
];

/** Every payment, newest first: search by receipt or reference, filters, dates and CSV export. */
export function PaymentsList() {
  return (
    <ListPage<Payment>
      endpoint={paymentEndpoints.list}
      label="Payments"
      testId="payments"
      searchPlaceholder="Search receipt or reference"
      filters={FILTERS}
      toolbar={(list) => (
        <DateRange
          from={list.state.filters.from ?? ''}
          to={list.state.filters.to ?? ''}
          onChange={list.setFilter}
        />
      )}
      columns={COLUMNS}
      rowHref={receiptHref}
      empty={{
        filtered: 'No payments match this search and these filters.',
        none: 'No payments yet. Post the first one in “Post payment”.',
      }}
    />
  );
}

function DateRange({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (name: string, value: string) => void;
}) {
  const id = useId();
  return (
    <fieldset className="flex flex-wrap items-center gap-2 text-sm">
      <legend className="sr-only">Received between</legend>
      <label htmlFor={`${id}-from`} className="text-muted-foreground">
        Received from
      </label>
      <Input
        id={`${id}-from`}
        type="date"
        value={from}
        max={to || undefined}
        onChange={(event) => onChange('from', event.target.value)}
        className="h-9 w-auto dark:[color-scheme:dark]"
        data-testid="input-payments-from"
      />
      <label htmlFor={`${id}-to`} className="text-muted-foreground">
        to
      </label>
      <Input
        id={`${id}-to`}
        type="date"
        value={to}
        min={from || undefined}
        onChange={(event) => onChange('to', event.target.value)}
        className="h-9 w-auto dark:[color-scheme:dark]"
        data-testid="input-payments-to"
      />
    </fieldset>
  );
}
