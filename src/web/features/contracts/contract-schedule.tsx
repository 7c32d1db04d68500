import { ChevronDown, ChevronUp } from 'lucide-react';
import { useState } from 'react';
import type { Contract } from '@/contracts/contracts';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { formatBusinessDate } from '@/web/lib/format';
import { figure, money } from '@/web/lib/money';
import { cn } from '@/web/lib/utils';
import { INSTALMENT_STATUS } from './contract-rules';

type Row = Contract['schedule'][number];

/** Instalments shown before "Show all": a year of a monthly plan, a quarter of a weekly one. */
const FIRST_ROWS = 12;

/**
 * A contract's schedule with what is paid and each instalment's status: a table from the md
 * breakpoint, cards on phones. Long schedules show the first rows (and any overdue) until expanded.
 */
export function ContractSchedule({ rows, currency }: { rows: readonly Row[]; currency: string }) {
  const [all, setAll] = useState(false);
  const m = (minor: number) => money(minor, currency);
  // The table's figures leave out the currency (the card says it once), so every column fits.
  const f = (minor: number) => figure(minor, currency);
  const penalties = rows.some((row) => row.penalty > 0);
  const long = rows.length > FIRST_ROWS + 2;
  const shown = all || !long ? rows : rows.slice(0, FIRST_ROWS);
  const sum = (pick: (row: Row) => number) => rows.reduce((total, row) => total + pick(row), 0);

  return (
    <div className="grid grid-cols-1 gap-3">
      <div className="overflow-x-auto max-md:hidden">
        <table className="w-full text-sm" data-testid="table-contract-schedule">
          <caption className="sr-only">
            Repayment schedule in {currency}, {shown.length} of {rows.length} instalments shown
          </caption>
          <thead>
            <tr className="border-b text-muted-foreground text-xs uppercase tracking-wide">
              <Th className="pl-6 text-left">No.</Th>
              <Th className="text-left">Due date</Th>
              <Th>Principal</Th>
              <Th>Interest</Th>
              <Th>Service fee</Th>
              {penalties && <Th>Penalty</Th>}
              <Th>Total</Th>
              <Th>Paid</Th>
              <Th className="pr-6 text-left">Status</Th>
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {shown.map((row) => (
              <tr
                key={row.n}
                className={cn('border-b last:border-0', row.status === 'overdue' && 'bg-destructive/5')}
                data-testid={`row-instalment-${row.n}`}
              >
                <td className="px-3 py-2 pl-6 text-muted-foreground">{row.n}</td>
                <td className="whitespace-nowrap px-3 py-2">{formatBusinessDate(row.dueDate)}</td>
                <Td>{f(row.principal)}</Td>
                <Td>{f(row.interest)}</Td>
                <Td>{f(row.serviceFee)}</Td>
                {penalties && <Td>{f(row.penalty)}</Td>}
                <Td className="font-medium">{f(row.total)}</Td>
                <Td>{f(row.paid)}</Td>
                <td className="px-3 py-2 pr-6">
                  <InstalmentBadge row={row} />
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot className="tabular-nums">
            <tr className="border-t bg-muted/40 font-semibold">
              <th scope="row" colSpan={2} className="px-3 py-2.5 pl-6 text-left">
                Total ({rows.length} instalments)
              </th>
              <Td>{f(sum((r) => r.principal))}</Td>
              <Td>{f(sum((r) => r.interest))}</Td>
              <Td>{f(sum((r) => r.serviceFee))}</Td>
              {penalties && <Td>{f(sum((r) => r.penalty))}</Td>}
              <Td>{f(sum((r) => r.total))}</Td>
              <Td>{f(sum((r) => r.paid))}</Td>
              <td className="pr-6" />
            </tr>
          </tfoot>
        </table>
      </div>

      <ol className="grid grid-cols-1 gap-2 px-4 md:hidden" aria-label="Repayment schedule">
        {shown.map((row) => (
          <li
            key={row.n}
            className="rounded-lg border bg-card p-3 text-sm"
            data-testid={`card-instalment-${row.n}`}
          >
            <div className="flex items-center justify-between gap-3">
              <p>
                <span className="text-muted-foreground">#{row.n}</span>{' '}
                <span className="font-medium">{formatBusinessDate(row.dueDate)}</span>
              </p>
              <InstalmentBadge row={row} />
            </div>
            <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-xs tabular-nums">
              <Pair label="Total" value={m(row.total)} />
              <Pair label="Paid" value={m(row.paid)} />
              <Pair label="Principal" value={m(row.principal)} />
              <Pair label="Interest" value={m(row.interest)} />
              {row.serviceFee > 0 && <Pair label="Service fee" value={m(row.serviceFee)} />}
              {row.penalty > 0 && <Pair label="Penalty" value={m(row.penalty)} />}
            </dl>
          </li>
        ))}
      </ol>

      {long ? (
        <div className="px-4 md:px-6">
          <Button
            variant="outline"
            size="sm"
            onClick={() => setAll(!all)}
            aria-expanded={all}
            data-testid="button-toggle-schedule"
          >
            {all ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
            {all ? `Show the first ${FIRST_ROWS}` : `Show all ${rows.length} instalments`}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function InstalmentBadge({ row }: { row: Row }) {
  const status = INSTALMENT_STATUS[row.status];
  return (
    <Badge variant={status.variant} data-testid={`badge-instalment-${row.n}`}>
      {status.label}
    </Badge>
  );
}

function Th({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <th scope="col" className={cn('h-10 px-3 text-right font-medium', className)}>
      {children}
    </th>
  );
}

function Td({ children, className }: { children: React.ReactNode; className?: string }) {
  return <td className={cn('whitespace-nowrap px-3 py-2 text-right', className)}>{children}</td>;
}

function Pair({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
