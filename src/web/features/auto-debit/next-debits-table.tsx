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
import { ContractCell } from './contract-cell';

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
            <ContractCell {...d} onPhone={MANDATE_METHOD_LABELS[d.method]} />
            <TableCell className={ON_WIDE}>{MANDATE_METHOD_LABELS[d.method]}</TableCell>
            <TableCell>{formatBusinessDate(d.dueDate)}</TableCell>
            <TableCell className="text-right">{money(d.amount, d.currency)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
