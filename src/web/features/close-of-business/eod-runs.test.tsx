import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EodRunsPage } from '@/contracts/close-of-business';
import { stubApi } from '@/web/features/devices/test-api';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { runDuration } from './eod-run';
import { EodRuns } from './eod-runs';

afterEach(() => {
  vi.unstubAllGlobals();
});

const step = (
  name: EodRunsPage['runs'][number]['steps'][number]['step'],
  counts: Record<string, number>,
) => ({
  step: name,
  status: 'completed' as const,
  counts,
  startedAt: '2026-11-02T20:30:00.000Z',
  finishedAt: '2026-11-02T20:30:01.000Z',
  durationMs: 1000,
  error: null,
  note: null,
});

const PAGE: EodRunsPage = {
  businessDate: '2026-11-03',
  lastClosedDate: '2026-11-02',
  currency: 'KES',
  runs: [
    {
      businessDate: '2026-11-02',
      status: 'completed',
      trigger: 'schedule',
      requestedBy: null,
      requestedByName: null,
      startedAt: '2026-11-02T20:30:00.000Z',
      finishedAt: '2026-11-02T20:30:05.000Z',
      attempts: 1,
      error: null,
      elapsedMs: null,
      steps: [
        step('late_fees', { contracts: 12, amount: 1_234_550 }),
        step('interest_accrual', { contracts: 3, amount: -250 }),
      ],
    },
  ],
  nextBefore: null,
};

type Run = EodRunsPage['runs'][number];
const runOf = (businessDate: string, status: Run['status'] = 'completed'): Run => ({
  ...(PAGE.runs[0] as Run),
  businessDate,
  status,
  error: status === 'failed' ? 'The late fees step failed' : null,
});

describe('close of business runs', () => {
  it('shows the time the server measured for a run, or its steps added up for an older run', () => {
    const run = PAGE.runs[0] as Run;
    // Steps side by side: the run took less than its steps added up.
    expect(runDuration({ ...run, elapsedMs: 1200 })).toBe(1200);
    expect(runDuration({ ...run, elapsedMs: null })).toBe(2000);
  });

  it("shows a step's amount as money in the organisation's currency, other counts as numbers", async () => {
    stubApi({ 'GET /api/eod/runs': () => jsonResponse(PAGE) });
    renderWithProviders(<EodRuns />);
    const fees = await screen.findByTestId('row-step-2026-11-02-late_fees');
    expect(fees).toHaveTextContent(/contracts: 12, amount: KES\s12,345\.50/);
    expect(screen.getByTestId('row-step-2026-11-02-interest_accrual')).toHaveTextContent(
      /amount: -KES\s2\.50/,
    );
    expect(fees).not.toHaveTextContent('minor units');
  });

  it('shows the newest and failed runs open, the others closed, and loads older runs on request', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/eod/runs': (call) =>
        jsonResponse(
          call.url.includes('before=2026-10-31')
            ? { ...PAGE, runs: [runOf('2026-10-30')], nextBefore: null }
            : {
                ...PAGE,
                runs: [runOf('2026-11-02'), runOf('2026-11-01', 'failed'), runOf('2026-10-31')],
                nextBefore: '2026-10-31',
              },
        ),
    });
    renderWithProviders(<EodRuns />);
    const newest = await screen.findByTestId('button-eod-steps-2026-11-02');
    expect(newest).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByTestId('row-step-2026-11-02-late_fees')).toBeVisible();
    expect(screen.getByTestId('button-eod-steps-2026-11-01')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByTestId('button-resume-2026-11-01')).toBeVisible();
    expect(screen.getByTestId('button-eod-steps-2026-10-31')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('row-step-2026-10-31-late_fees')).toBeNull();
    expect(screen.getByTestId('run-eod-2026-11-02')).toHaveTextContent('2 steps in 2,000 ms');
    // Dates as the rest of the app writes them.
    expect(newest).toHaveTextContent('2 Nov 2026');
    expect(screen.getByTestId('panel-eod')).toHaveTextContent(
      'Business date 3 Nov 2026; last closed 2 Nov 2026.',
    );

    await user.click(screen.getByTestId('button-eod-steps-2026-10-31'));
    expect(screen.getByTestId('row-step-2026-10-31-late_fees')).toBeVisible();
    await user.click(newest);
    expect(newest).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('row-step-2026-11-02-late_fees')).toBeNull();

    expect(screen.getByTestId('text-eod-runs-shown')).toHaveTextContent('3 runs shown');
    await user.click(screen.getByTestId('button-eod-runs-load-more'));
    expect(await screen.findByTestId('run-eod-2026-10-30')).toBeVisible();
    expect(screen.getByTestId('text-eod-runs-shown')).toHaveTextContent('4 runs shown');
    expect(screen.queryByTestId('button-eod-runs-load-more')).toBeNull();
    expect(screen.getByText('No older runs')).toBeVisible();
    expect(calls.filter((c) => c.url.startsWith('/api/eod/runs')).map((c) => c.url)).toEqual([
      '/api/eod/runs?limit=30',
      '/api/eod/runs?limit=30&before=2026-10-31',
    ]);
  });
});
