import { Link } from 'wouter';
import { MANDATE_METHOD_LABELS, type NextDebit } from '@/contracts/auto-debit';
import {
  ON_WIDE,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/web/components/ui/table';
import { formatBusinessDate } from '@/web/lib/format';
import { money } from '@/web/lib/money';

/** Each active mandate's next instalment: the first attempt the hourly job makes on its due date. */
export function NextDebitsTable({ debits }: { debits: readonly NextDebit[] }) {
  return (
    <Table aria-label="Next instalments to debit" data-testid="table-next-debits">
      <TableHeader>
        <TableRow>
          <TableHead>Contract</TableHead>
          <TableHead className={ON_WIDE}>Method</TableHead>
          <TableHead>First attempt</TableHead>
          <TableHead className="text-right">Owed now</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className="tabular-nums">
        {debits.map((d) => (
          <TableRow key={d.mandateId} data-testid={`row-next-debit-${d.contractId}`}>
            <TableCell className="whitespace-normal">
              <Link
                href={`/contracts/${d.contractId}`}
                className="whitespace-nowrap font-medium underline-offset-4 hover:underline"
              >
                {d.contractNumber}
              </Link>
              <span className="block text-muted-foreground text-xs">{d.customerName}</span>
              <span className="block text-muted-foreground text-xs sm:hidden">
                {MANDATE_METHOD_LABELS[d.method]}
              </span>
            </TableCell>
            <TableCell className={ON_WIDE}>{MANDATE_METHOD_LABELS[d.method]}</TableCell>
            <TableCell>{formatBusinessDate(d.dueDate)}</TableCell>
            <TableCell className="text-right">{money(d.amount, d.currency)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
