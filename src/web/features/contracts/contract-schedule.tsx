import { ChevronDown, ChevronUp } from 'lucide-react';
import { useState } from 'react';
import type { Contract } from '@/contracts/contracts';
import * as Schedule from '@/web/components/schedule-parts';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { figure, money } from '@/web/lib/money';
import { cn } from '@/web/lib/utils';
import { INSTALMENT_STATUS } from './contract-rules';

type Row = Contract['schedule'][number];

/** Instalments shown before "Show all": a year of a monthly plan, a quarter of a weekly one. */
const SHOWN_ROWS = 12;
/** Paid instalments kept in view before the first open one, for what came just before. */
const PAID_BEFORE = 2;

/**
 * The part of a long schedule shown before "Show all": from just before the oldest instalment not
 * yet paid (so every overdue one from the oldest is there, then what falls due next), or the last
 * ones of a schedule paid in full. A year into a weekly plan, the first twelve are long paid.
 */
export function scheduleWindow<T extends { status: Row['status'] }>(
  rows: readonly T[],
  size = SHOWN_ROWS,
): { start: number; rows: readonly T[] } {
  if (rows.length <= size) return { start: 0, rows };
  const open = rows.findIndex((row) => row.status !== 'paid');
  const start = open < 0 ? rows.length - size : Math.max(0, Math.min(open - PAID_BEFORE, rows.length - size));
  return { start, rows: rows.slice(start, start + size) };
}

/**
 * A contract's schedule with what is paid and each instalment's status: a table from the md
 * breakpoint, cards on phones. Long schedules show the instalments around the oldest open one
 * (`scheduleWindow`) until expanded.
 */
export function ContractSchedule({ rows, currency }: { rows: readonly Row[]; currency: string }) {
  const [all, setAll] = useState(false);
  const m = (minor: number) => money(minor, currency);
  // The table's figures leave out the currency (the card says it once), so every column fits.
  const f = (minor: number) => figure(minor, currency);
  const penalties = rows.some((row) => row.penalty > 0);
  const long = rows.length > SHOWN_ROWS + 2;
  const part = scheduleWindow(rows);
  const shown = all || !long ? rows : part.rows;
  const range = `#${part.start + 1} to #${part.start + part.rows.length} of ${rows.length}`;
  const sum = (pick: (row: Row) => number) => rows.reduce((total, row) => total + pick(row), 0);

  return (
    <Schedule.Layout
      testId="table-contract-schedule"
      caption={`Repayment schedule in ${currency}, ${
        shown.length === rows.length ? `all ${rows.length} instalments` : `instalments ${range}`
      } shown`}
      head={
        <>
          {penalties && <Schedule.Th>Penalty</Schedule.Th>}
          <Schedule.Th>Total</Schedule.Th>
          <Schedule.Th>Paid</Schedule.Th>
          <Schedule.Th className="pr-6 text-left">Status</Schedule.Th>
        </>
      }
      rows={shown}
      row={(row) => (
        <tr
          className={cn('border-b last:border-0', row.status === 'overdue' && 'bg-destructive/5')}
          data-testid={`row-instalment-${row.n}`}
        >
          <Schedule.LeadingCells row={row} format={f} />
          {penalties && <Schedule.Td>{f(row.penalty)}</Schedule.Td>}
          <Schedule.Td className="font-medium">{f(row.total)}</Schedule.Td>
          <Schedule.Td>{f(row.paid)}</Schedule.Td>
          <td className="px-3 py-2 pr-6">
            <InstalmentBadge row={row} />
          </td>
        </tr>
      )}
      foot={
        <>
          <Schedule.LeadingTotals
            label={`Total (${rows.length} instalments)`}
            sums={[f(sum((r) => r.principal)), f(sum((r) => r.interest)), f(sum((r) => r.serviceFee))]}
          />
          {penalties && <Schedule.Td className="py-2.5">{f(sum((r) => r.penalty))}</Schedule.Td>}
          <Schedule.Td className="py-2.5">{f(sum((r) => r.total))}</Schedule.Td>
          <Schedule.Td className="py-2.5">{f(sum((r) => r.paid))}</Schedule.Td>
          <td className="pr-6" />
        </>
      }
      card={(row) => (
        <Schedule.Card row={row} aside={<InstalmentBadge row={row} />} testId={`card-instalment-${row.n}`}>
          <Schedule.Pair label="Total" value={m(row.total)} />
          <Schedule.Pair label="Paid" value={m(row.paid)} />
          <Schedule.Pair label="Principal" value={m(row.principal)} />
          <Schedule.Pair label="Interest" value={m(row.interest)} />
          {row.serviceFee > 0 && <Schedule.Pair label="Service fee" value={m(row.serviceFee)} />}
          {row.penalty > 0 && <Schedule.Pair label="Penalty" value={m(row.penalty)} />}
        </Schedule.Card>
      )}
    >
      {long ? (
        <div className="flex flex-wrap items-center gap-3 px-4 md:px-6">
          <Button
            variant="outline"
            size="sm"
            onClick={() => setAll(!all)}
            aria-expanded={all}
            data-testid="button-toggle-schedule"
          >
            {all ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
            {all ? 'Show fewer' : `Show all ${rows.length} instalments`}
          </Button>
          {!all && (
            <span className="text-muted-foreground text-xs" data-testid="text-schedule-window">
              Instalments {range}
              {rows.every((row) => row.status === 'paid')
                ? ', the last ones'
                : ', from the oldest not yet paid'}
            </span>
          )}
        </div>
      ) : null}
    </Schedule.Layout>
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
