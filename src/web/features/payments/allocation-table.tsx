import type { AllocationLineView } from '@/contracts/payments';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { figure } from '@/web/lib/money';
import { COMPONENT_LABELS, installmentText } from './format';

/** A payment's allocation: instalment, component and amount per line, with the total. */
export function AllocationTable({
  lines,
  currency,
  testId,
}: {
  lines: readonly AllocationLineView[];
  currency: string;
  testId: string;
}) {
  if (lines.length === 0)
    return (
      <p className="text-muted-foreground text-sm" data-testid={`${testId}-empty`}>
        Nothing is allocated.
      </p>
    );
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  return (
    <Table data-testid={testId}>
      <TableHeader>
        <TableRow>
          <TableHead>Instalment</TableHead>
          <TableHead>Component</TableHead>
          <TableHead className="text-right">Amount ({currency})</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id and keep their order
          <TableRow key={index}>
            <TableCell>{installmentText(line.installmentNumber)}</TableCell>
            <TableCell>{COMPONENT_LABELS[line.component] ?? line.component}</TableCell>
            <TableCell className="text-right tabular-nums">{figure(line.amount, currency)}</TableCell>
          </TableRow>
        ))}
        <TableRow className="border-t-2">
          <TableCell colSpan={2} className="font-medium">
            Total
          </TableCell>
          <TableCell className="text-right font-semibold tabular-nums">{figure(total, currency)}</TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}
