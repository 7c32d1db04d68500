import { ChevronRight, RotateCcw } from 'lucide-react';
import { useId, useState } from 'react';
import { EOD_STEP_LABELS, type EodRun } from '@/contracts/close-of-business';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import {
  ON_WIDE,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/web/components/ui/table';
import { formatAuditTime } from '@/web/features/audit/audit-format';
import { formatBusinessDate } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { cn } from '@/web/lib/utils';

const STATUS_VARIANT: Record<EodRun['status'], 'secondary' | 'success' | 'destructive'> = {
  running: 'secondary',
  completed: 'success',
  failed: 'destructive',
};

/** The words for each step's counts (the server names them in code); an unknown one shows as named. */
const COUNT_LABELS: Record<string, string> = {
  changed: 'contracts whose figures changed',
  contracts: 'contracts',
  amount: 'amount',
  overdueBeyondLockAfter: 'past their lock-after days',
  locksQueued: 'locks queued',
  timeRanOut: 'OpenPAYGO units whose time ran out',
  defaulted: 'moved to defaulted',
  beforeDue: 'reminders before due',
  overdue: 'overdue reminders',
  lockWarnings: 'lock warnings',
  checked: 'promises checked',
  kept: 'kept',
  partlyKept: 'partly kept',
  broken: 'broken',
  customersMessaged: 'customers messaged',
  casesScored: 'collections cases scored',
};

/** The counts that are money (minor units of the organisation's currency): shown as money. */
const MONEY_COUNTS: ReadonlySet<string> = new Set(['amount']);

const countsText = (counts: Record<string, number>, currency: string) =>
  Object.entries(counts)
    .map(
      ([name, value]) =>
        `${COUNT_LABELS[name] ?? name}: ${MONEY_COUNTS.has(name) ? money(value, currency) : value.toLocaleString()}`,
    )
    .join(', ');

/**
 * The run's own time: as the server measured it around its steps, which may overlap (decision
 * 056), its attempts added up; for a run from before that was kept, its steps' durations added up
 * (they ran one after the other).
 */
export const runDuration = (run: EodRun): number =>
  run.elapsedMs ?? run.steps.reduce((sum, step) => sum + step.durationMs, 0);

/**
 * One close of business: its date, status, who or what started it and how long its steps took;
 * the header's button shows or hides the table of its steps. A failed run offers to resume.
 */
export function EodRunSection({
  run,
  currency,
  openAtFirst,
  onResume,
  resumeDisabled,
}: {
  run: EodRun;
  currency: string;
  openAtFirst: boolean;
  onResume: () => void;
  resumeDisabled: boolean;
}) {
  const [expanded, setExpanded] = useState(openAtFirst);
  const stepsId = useId();
  const headingId = `eod-${run.businessDate}`;
  return (
    <section
      aria-labelledby={headingId}
      // min-w-0: a grid item as wide as its table would push the page sideways on a phone.
      className="min-w-0 rounded-md border p-3"
      data-testid={`run-eod-${run.businessDate}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-medium">
          <button
            type="button"
            className="hover:bg-muted -m-1 inline-flex items-center gap-1 rounded p-1 text-left"
            aria-expanded={expanded}
            aria-controls={stepsId}
            onClick={() => setExpanded((open) => !open)}
            data-testid={`button-eod-steps-${run.businessDate}`}
          >
            <ChevronRight
              className={cn('size-4 transition-transform', expanded && 'rotate-90')}
              aria-hidden
            />
            {formatBusinessDate(run.businessDate)}
            <span className="sr-only">: {expanded ? 'hide' : 'show'} its steps</span>
          </button>{' '}
          <Badge variant={STATUS_VARIANT[run.status]} data-testid={`status-eod-${run.businessDate}`}>
            {run.status}
          </Badge>
        </h3>
        <p className="text-muted-foreground text-xs">
          {run.trigger === 'demand'
            ? `by ${run.requestedByName ?? 'someone'}`
            : run.trigger.replace('_', ' ')}{' '}
          · started {formatAuditTime(run.startedAt)}
          {run.attempts > 1 ? ` · attempt ${run.attempts}` : ''} · {run.steps.length} steps in{' '}
          {runDuration(run).toLocaleString()} ms
        </p>
        {run.status === 'failed' && (
          <Button
            size="sm"
            variant="outline"
            disabled={resumeDisabled}
            onClick={onResume}
            data-testid={`button-resume-${run.businessDate}`}
          >
            <RotateCcw className="size-4" aria-hidden />
            Resume
          </Button>
        )}
      </div>
      {run.error && (
        <p className="text-destructive text-sm" role="alert">
          {run.error}
        </p>
      )}
      <div id={stepsId} hidden={!expanded}>
        {expanded && (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Step</TableHead>
                <TableHead className={ON_WIDE}>Status</TableHead>
                <TableHead className={ON_WIDE}>Counts</TableHead>
                <TableHead className="text-right">Duration</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {run.steps.map((step) => {
                const status = (
                  <Badge variant={step.status === 'completed' ? 'success' : 'destructive'}>
                    {step.status}
                  </Badge>
                );
                const counts = step.error ?? (countsText(step.counts, currency) || step.note || '—');
                return (
                  <TableRow key={step.step} data-testid={`row-step-${run.businessDate}-${step.step}`}>
                    <TableCell className="whitespace-normal">
                      {EOD_STEP_LABELS[step.step]}
                      {/* On a phone the status and counts go under the step's name. */}
                      <span className="mt-1 grid justify-items-start gap-1 text-muted-foreground text-xs sm:hidden">
                        {status}
                        {counts}
                      </span>
                    </TableCell>
                    <TableCell className={ON_WIDE}>{status}</TableCell>
                    <TableCell className={`max-w-md whitespace-normal break-words ${ON_WIDE}`}>
                      {counts}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {step.durationMs.toLocaleString()} ms
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </div>
    </section>
  );
}
