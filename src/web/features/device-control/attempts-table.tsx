import type { CommandAttempt } from '@/contracts/device-control';
import { ON_WIDER, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { TableRegion } from '@/web/features/devices/table-region';
import { formatDateTime } from '@/web/lib/format';
import { OUTCOME_LABELS, PROVIDER_LABELS } from './format';

/** Every attempt at one command: when, to whom, what came of it, the error and the provider's answer. */
export function AttemptsTable({ attempts, testId }: { attempts: readonly CommandAttempt[]; testId: string }) {
  if (!attempts.length)
    return (
      <p className="px-4 py-2 text-muted-foreground text-sm" data-testid={`${testId}-empty`}>
        Not attempted yet: the delivery job takes queued commands within a minute.
      </p>
    );
  return (
    <TableRegion label="Delivery attempts" testId={testId}>
      <TableHeader>
        <TableRow>
          <TableHead className="w-12 text-right">#</TableHead>
          <TableHead>Started</TableHead>
          <TableHead>Provider</TableHead>
          <TableHead>Outcome</TableHead>
          <TableHead>Error</TableHead>
          <TableHead className={ON_WIDER}>Provider answer</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {attempts.map((attempt) => (
          <TableRow key={attempt.id} data-testid={`row-attempt-${attempt.attempt}`}>
            <TableCell className="text-right tabular-nums">{attempt.attempt}</TableCell>
            <TableCell className="tabular-nums">{formatDateTime(attempt.startedAt)}</TableCell>
            <TableCell>{PROVIDER_LABELS[attempt.provider] ?? attempt.provider}</TableCell>
            <TableCell data-testid="text-attempt-outcome">{OUTCOME_LABELS[attempt.outcome]}</TableCell>
            <TableCell className="max-w-72 break-words text-destructive">{attempt.error ?? '—'}</TableCell>
            <TableCell className={`max-w-80 ${ON_WIDER}`}>
              {attempt.response === null || attempt.response === undefined ? (
                '—'
              ) : (
                <code className="block max-h-24 overflow-auto whitespace-pre-wrap break-all text-xs">
                  {JSON.stringify(attempt.response)}
                </code>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </TableRegion>
  );
}
