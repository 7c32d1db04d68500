import { AUTO_DEBIT_MAX_ATTEMPTS, type DebitAttempt } from '@/contracts/auto-debit';
import { formatBusinessDate, formatPercent } from '@/web/lib/format';

const ATTEMPT_STATUS_LABELS: Record<DebitAttempt['status'], string> = {
  scheduled: 'Scheduled',
  succeeded: 'Succeeded',
  retrying: 'Failed, retrying',
  failed: 'Failed',
};

const ATTEMPT_STATUS_VARIANT: Record<
  DebitAttempt['status'],
  'secondary' | 'success' | 'destructive' | 'warning'
> = {
  scheduled: 'secondary',
  succeeded: 'success',
  retrying: 'warning',
  failed: 'destructive',
};

type Variant = (typeof ATTEMPT_STATUS_VARIANT)[DebitAttempt['status']];

/**
 * An attempt's result as staff read it. A failed attempt that was to be retried says what became
 * of the retry: still to come (and when), collected, failed in its turn, or not needed because
 * the instalment was paid another way (or its contract closed) first. Its status alone stays
 * `retrying` for ever, which read as "still retrying" months later.
 */
export function attemptResult(a: DebitAttempt): { label: string; variant: Variant; note: string | null } {
  if (a.status !== 'retrying')
    return { label: ATTEMPT_STATUS_LABELS[a.status], variant: ATTEMPT_STATUS_VARIANT[a.status], note: null };
  const retry = a.retry;
  if (!retry)
    return { label: 'Failed, not retried', variant: 'secondary', note: 'Paid another way before the retry' };
  if (retry.status === 'scheduled')
    return {
      label: 'Failed, retrying',
      variant: 'warning',
      note: `Next try ${formatBusinessDate(retry.scheduledFor)}`,
    };
  if (retry.status === 'succeeded')
    return { label: 'Failed, collected on retry', variant: 'success', note: null };
  return { label: 'Failed, retried', variant: 'destructive', note: `Attempt ${a.attempt + 1} failed too` };
}

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

/** The Waiting card's note: how many of the attempts waiting retry a failed debit, and those given up. */
export function waitingNote(scheduled: number, retries: number, failed: number): string {
  const waiting =
    scheduled === 0
      ? 'Nothing scheduled'
      : retries === 0
        ? 'None of them a retry'
        : `${retries} of them ${retries === 1 ? 'a retry' : 'retries'} of a failed debit`;
  return `${waiting} · ${failed} failed for good`;
}
