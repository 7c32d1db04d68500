import { CalendarCheck } from 'lucide-react';
import {
  collectionEndpoints,
  PROMISE_STATE_LABELS,
  PROMISE_STATES,
  type PromiseToPay,
} from '@/contracts/collections';
import { type Column, ListPage } from '@/web/components/data-list';
import { Badge } from '@/web/components/ui/badge';
import { formatBusinessDate } from '@/web/lib/format';
import { money } from '@/web/lib/money';

export function PromiseBadge({ promise }: { promise: Pick<PromiseToPay, 'id' | 'state'> }) {
  return (
    <Badge
      variant={promise.state === 'broken' ? 'destructive' : promise.state === 'kept' ? 'default' : 'outline'}
      data-testid={`badge-promise-state-${promise.id}`}
    >
      {PROMISE_STATE_LABELS[promise.state]}
    </Badge>
  );
}

const COLUMNS: ReadonlyArray<Column<PromiseToPay>> = [
  {
    key: 'contract',
    header: 'Contract',
    cell: (p) => (
      <>
        <span className="font-medium">{p.contractNumber}</span>
        {/* A phone's row: the wide columns it leaves out, under the contract. */}
        <span className="block whitespace-normal text-muted-foreground text-xs md:hidden">
          {p.customerName}
        </span>
        <span className="block whitespace-normal text-xs tabular-nums md:hidden">
          {money(p.amount, p.currency)}
          {p.state === 'pending' ? '' : `, ${money(p.amountPaid, p.currency)} paid`}
        </span>
      </>
    ),
  },
  { key: 'customer', header: 'Customer', wide: true, cell: (p) => p.customerName },
  {
    key: 'promisedDate',
    header: 'Promised for',
    sort: 'promisedDate',
    cell: (p) => <span className="whitespace-nowrap">{formatBusinessDate(p.promisedDate)}</span>,
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    wide: true,
    cell: (p) => <span className="whitespace-nowrap tabular-nums">{money(p.amount, p.currency)}</span>,
  },
  {
    key: 'paid',
    header: 'Paid toward it',
    align: 'right',
    wide: true,
    cell: (p) =>
      p.state === 'pending' ? (
        <span className="text-muted-foreground text-xs">checked on its date</span>
      ) : (
        <span className="whitespace-nowrap tabular-nums">{money(p.amountPaid, p.currency)}</span>
      ),
  },
  { key: 'state', header: 'State', cell: (p) => <PromiseBadge promise={p} /> },
  { key: 'collector', header: 'Collector', wide: true, cell: (p) => p.collectorName ?? '—' },
  {
    key: 'takenOn',
    header: 'Taken',
    sort: 'takenOn',
    wide: true,
    cell: (p) => <span className="whitespace-nowrap">{formatBusinessDate(p.takenOn)}</span>,
  },
];

/** Promises to pay: pending ones are checked by the close of business of their date. */
export function PromisesList() {
  return (
    <ListPage<PromiseToPay>
      endpoint={collectionEndpoints.promises}
      label="Promises"
      testId="promises"
      searchPlaceholder="Search contract number"
      filters={[
        {
          name: 'state',
          label: 'State',
          allLabel: 'All states',
          options: PROMISE_STATES.map((s) => [s, PROMISE_STATE_LABELS[s]] as const),
          testId: 'promise-state',
        },
        {
          name: 'mine',
          label: 'Whose',
          allLabel: 'Everyone’s',
          options: [['true', 'Mine']],
          testId: 'promise-mine',
        },
      ]}
      columns={COLUMNS}
      rowHref={(p) => `/contracts/${p.contractId}`}
      emptyIcon={CalendarCheck}
      empty={{ filtered: 'No promise matches these filters.', none: 'No promise to pay has been taken yet.' }}
    />
  );
}
