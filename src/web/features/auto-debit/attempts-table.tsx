import type { DebitAttempt } from '@/contracts/auto-debit';
import { Badge } from '@/web/components/ui/badge';
import {
  ON_WIDE,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/web/components/ui/table';
import { formatBusinessDate, formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { attemptResult, attemptText } from './auto-debit-format';
import { ContractCell } from './contract-cell';

/** Attempts with their contract, instalment, attempt number, result and reason. */
export function AttemptsTable({
  attempts,
  label,
  testId,
}: {
  attempts: readonly DebitAttempt[];
  label: string;
  testId: string;
}) {
  return (
    <Table aria-label={label} data-testid={testId}>
      <TableHeader>
        <TableRow>
          <TableHead>Contract</TableHead>
          <TableHead className={ON_WIDE}>Instalment due</TableHead>
          <TableHead className={ON_WIDE}>Attempt</TableHead>
          <TableHead className={ON_WIDE}>Date</TableHead>
          <TableHead className={`text-right ${ON_WIDE}`}>Amount</TableHead>
          <TableHead>Result</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className="tabular-nums">
        {attempts.map((a) => {
          const result = attemptResult(a);
          const when = a.attemptedAt ? formatDateTime(a.attemptedAt) : formatBusinessDate(a.scheduledFor);
          return (
            <TableRow key={a.id} data-testid={`row-attempt-${a.id}`}>
              <ContractCell
                {...a}
                onPhone={`Due ${formatBusinessDate(a.dueDate)} · ${when} · ${money(a.amount, a.currency)}`}
              />
              <TableCell className={ON_WIDE}>{formatBusinessDate(a.dueDate)}</TableCell>
              <TableCell className={ON_WIDE}>{attemptText(a.attempt)}</TableCell>
              <TableCell className={ON_WIDE}>{when}</TableCell>
              <TableCell className={`text-right ${ON_WIDE}`}>{money(a.amount, a.currency)}</TableCell>
              <TableCell className="whitespace-normal">
                <Badge variant={result.variant}>{result.label}</Badge>
                {a.failureReason && (
                  <span
                    className="mt-1 block text-muted-foreground text-xs"
                    data-testid="text-failure-reason"
                  >
                    {a.failureReason}
                  </span>
                )}
                {result.note && (
                  <span className="block text-muted-foreground text-xs" data-testid="text-retry-note">
                    {result.note}
                  </span>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
