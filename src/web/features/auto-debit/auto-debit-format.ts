import { AUTO_DEBIT_MAX_ATTEMPTS, type DebitAttempt } from '@/contracts/auto-debit';
import { formatPercent } from '@/web/lib/format';

export const ATTEMPT_STATUS_LABELS: Record<DebitAttempt['status'], string> = {
  scheduled: 'Scheduled',
  succeeded: 'Succeeded',
  retrying: 'Failed, retrying',
  failed: 'Failed',
};

export const ATTEMPT_STATUS_VARIANT: Record<
  DebitAttempt['status'],
  'secondary' | 'success' | 'destructive' | 'warning'
> = {
  scheduled: 'secondary',
  succeeded: 'success',
  retrying: 'warning',
  failed: 'destructive',
};

/** "93.5%" of attempts made, or a dash when none was made in the window. */
export function successRateText(rate: number | null): string {
  return rate === null ? '—' : formatPercent(rate * 100, 1);
}

/** "Attempt 2 of 3". */
export function attemptText(attempt: number): string {
  return `Attempt ${attempt} of ${AUTO_DEBIT_MAX_ATTEMPTS}`;
}

/** The retry policy in words: "the due date, then 1 and 3 days after each failure". */
export function retryPolicyText(retryDays: readonly number[]): string {
  if (!retryDays.length) return 'once, on the due date';
  const days = retryDays.map((d) => `${d} day${d === 1 ? '' : 's'}`);
  const list = days.length === 1 ? days[0] : `${days.slice(0, -1).join(', ')}, then ${days.at(-1)}`;
  return `on the due date, then retried after ${list} (${retryDays.length + 1} attempts at most)`;
}
