import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EodRunsPage } from '@/contracts/close-of-business';
import { stubApi } from '@/web/features/devices/test-api';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
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
      steps: [
        step('late_fees', { contracts: 12, amount: 1_234_550 }),
        step('interest_accrual', { contracts: 3, amount: -250 }),
      ],
    },
  ],
};

describe('close of business runs', () => {
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
});
