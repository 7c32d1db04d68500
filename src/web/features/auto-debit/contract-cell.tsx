import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { TableCell } from '@/web/components/ui/table';

/**
 * The first cell of an auto-debit table's row (attempts, next debits, mandates): the contract's
 * link and the customer's name, then (`onPhone`) what a phone's row shows of the columns it leaves out.
 */
export function ContractCell({
  contractId,
  contractNumber,
  customerName,
  onPhone,
}: {
  contractId: string;
  contractNumber: string;
  customerName: string;
  onPhone?: ReactNode;
}) {
  return (
    <TableCell className="whitespace-normal">
      <Link
        href={`/contracts/${contractId}`}
        className="whitespace-nowrap font-medium underline-offset-4 hover:underline"
      >
        {contractNumber}
      </Link>
      <span className="block text-muted-foreground text-xs">{customerName}</span>
      {onPhone && <span className="block text-muted-foreground text-xs sm:hidden">{onPhone}</span>}
    </TableCell>
  );
}
