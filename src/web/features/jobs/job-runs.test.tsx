import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRunsPage } from '@/contracts/jobs';
import { Toaster } from '@/web/components/ui/toaster';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { JobRuns } from './job-runs';

const PAGE: JobRunsPage = {
  jobs: [
    { name: 'contracts.refresh-arrears', description: 'Arrears figures', schedule: 'when its inputs change' },
  ],
  runs: [
    {
      id: 2,
      job: 'contracts.refresh-arrears',
      trigger: 'changed',
      slot: null,
      attempt: 2,
      state: 'failed',
      startedAt: '2026-11-24T10:00:00.000Z',
      finishedAt: '2026-11-24T10:00:01.000Z',
      error: 'connection lost',
      counts: {},
      instance: 'host:1',
    },
    {
      id: 1,
      job: 'contracts.refresh-arrears',
      trigger: 'start',
      slot: null,
      attempt: 1,
      state: 'completed',
      startedAt: '2026-11-24T09:00:00.000Z',
      finishedAt: '2026-11-24T09:00:01.000Z',
      error: null,
      counts: { changed: 12 },
      instance: 'host:1',
    },
  ],
};

describe('background jobs view', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the jobs and their runs with what each did or why it failed, and asks for failures only', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        urls.push(String(input));
        return jsonResponse(PAGE);
      }),
    );
    const onFailuresChange = vi.fn();
    renderWithProviders(<JobRuns failures={false} onFailuresChange={onFailuresChange} />);
    expect(await screen.findByTestId('row-job-contracts.refresh-arrears')).toHaveTextContent(
      'when its inputs change',
    );
    expect(screen.getByTestId('row-run-1')).toHaveTextContent('changed 12');
    expect(screen.getByTestId('row-run-2')).toHaveTextContent('connection lost');
    expect(urls[0]).toBe('/api/jobs/runs?limit=100');
    await userEvent.setup().click(screen.getByTestId('tab-runs-failures'));
    expect(onFailuresChange).toHaveBeenCalledWith(true);
  });

  it('runs a job now and says so', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        calls.push(`${init?.method ?? 'GET'} ${url}`);
        if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
        if (url.endsWith('/run')) return jsonResponse({ queued: true });
        return jsonResponse(PAGE);
      }),
    );
    renderWithProviders(
      <>
        <JobRuns failures={false} onFailuresChange={vi.fn()} />
        <Toaster />
      </>,
    );
    await userEvent.setup().click(await screen.findByTestId('button-run-contracts.refresh-arrears'));
    expect(await screen.findByText('contracts.refresh-arrears queued')).toBeInTheDocument();
    expect(calls).toContain('POST /api/jobs/contracts.refresh-arrears/run');
  });
});
