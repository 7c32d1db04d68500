import { type RunningServer, startServer } from '../../tests/support/server-process';

/**
 * The built server on a benchmark's database, for a benchmark that generates its book and then
 * closes it: without background jobs. At start, and whenever the business date moves, the
 * eod.close job runs the date's close (its start on the still empty book marks the figures current
 * for the date), so the close timed afterwards would take the generated book as already aged:
 * nothing overdue, nothing charged, no case queued.
 */
export function startBookServer(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  return startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'error', JOBS: 'false', ...env });
}
