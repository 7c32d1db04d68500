import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DashboardKpis, KpiPoint } from '@/contracts/dashboard';
import { OWNER, stubApi } from '@/web/features/devices/test-api';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { KpiCards } from './kpi-cards';
import { sparklinePath } from './sparkline';

afterEach(() => {
  vi.unstubAllGlobals();
});

const point = (day: number, overrides: Partial<KpiPoint> = {}): KpiPoint => ({
  businessDate: `2026-11-${String(day).padStart(2, '0')}`,
  activeCount: 90,
  defaultedCount: 10,
  overdueCount: 25,
  outstandingPrincipal: 8_000_000,
  outstandingTotal: 10_000_000 + day,
  dueMonthToDate: 400_000,
  collectedMonthToDate: 300_000,
  par1Amount: 1_600_000,
  par30Amount: 800_000,
  par90Amount: 400_000,
  par1Ratio: 0.2,
  par30Ratio: 0.1,
  par90Ratio: 0.05,
  lockedCount: 7,
  queueCount: 31,
  ...overrides,
});

const KPIS: DashboardKpis = {
  currency: 'KES',
  businessDate: '2026-11-04',
  lastClosedDate: '2026-11-03',
  points: [point(1, { lockedCount: null, queueCount: null }), point(2), point(3, { par30Ratio: 0.125 })],
};

describe('dashboard KPI cards', () => {
  it('shows each figure of the latest snapshot with its sparkline and the list behind it', async () => {
    stubApi({ 'GET /api/dashboard/kpis': () => jsonResponse(KPIS) });
    renderWithProviders(<KpiCards />);
    const outstanding = await screen.findByTestId('card-kpi-outstanding');
    expect(within(outstanding).getByTestId('value-kpi-outstanding')).toHaveTextContent(/KES\s100,000\.03/);
    expect(outstanding).toHaveAttribute('href', '/contracts?sort=outstanding&order=desc');
    expect(screen.getByTestId('value-kpi-collected')).toHaveTextContent('75%');
    expect(screen.getByTestId('card-kpi-collected')).toHaveTextContent(
      /KES\s3,000\.00 of KES\s4,000\.00 due/,
    );
    expect(screen.getByTestId('value-kpi-par1')).toHaveTextContent('20%');
    expect(screen.getByTestId('value-kpi-par30')).toHaveTextContent('12.5%');
    expect(screen.getByTestId('card-kpi-par30')).toHaveAttribute(
      'href',
      '/contracts?minDpd=31&sort=dpd&order=desc',
    );
    expect(screen.getByTestId('value-kpi-par90')).toHaveTextContent('5%');
    expect(screen.getByTestId('card-kpi-par90')).toHaveAttribute(
      'href',
      '/contracts?minDpd=91&sort=dpd&order=desc',
    );
    expect(screen.getByTestId('value-kpi-locked')).toHaveTextContent('7');
    expect(screen.getByTestId('card-kpi-locked')).toHaveAttribute(
      'href',
      '/devices?lockState=locked&status=assigned',
    );
    expect(screen.getByTestId('value-kpi-queue')).toHaveTextContent('31');
    expect(screen.getByTestId('card-kpi-queue')).toHaveAttribute('href', '/collections');
    expect(screen.getAllByTestId('sparkline')).toHaveLength(7);
    expect(screen.getByRole('img', { name: 'PAR30 over the last 3 days' })).toBeInTheDocument();
    expect(screen.getByTestId('text-kpi-date')).toHaveTextContent('3 Nov 2026');
  });

  it('offers a manager the close of business when no snapshot exists yet', async () => {
    stubApi({ 'GET /api/dashboard/kpis': () => jsonResponse({ ...KPIS, lastClosedDate: null, points: [] }) });
    renderWithProviders(<KpiCards />);
    expect(await screen.findByTestId('card-kpis-empty')).toHaveTextContent('No portfolio figures yet');
    expect(await screen.findByTestId('link-run-close-of-business')).toHaveAttribute(
      'href',
      '/admin/close-of-business',
    );
  });

  it('sends others to the contracts instead', async () => {
    stubApi({
      'GET /api/dashboard/kpis': () => jsonResponse({ ...KPIS, lastClosedDate: null, points: [] }),
      'GET /api/user': () => jsonResponse({ ...OWNER, role: 'agent', isOwner: false }),
    });
    renderWithProviders(<KpiCards />);
    expect(await screen.findByTestId('link-dashboard-contracts')).toHaveAttribute('href', '/contracts');
    expect(screen.queryByTestId('link-run-close-of-business')).not.toBeInTheDocument();
  });

  it('says when the figures could not be loaded', async () => {
    stubApi({ 'GET /api/dashboard/kpis': () => jsonResponse({ message: 'Down', code: 'INTERNAL' }, 500) });
    renderWithProviders(<KpiCards />);
    expect(await screen.findByTestId('error-kpis')).toHaveTextContent(
      'Portfolio figures could not be loaded',
    );
  });
});

describe('sparkline path', () => {
  it('scales the series into the box and breaks the line at missing days', () => {
    expect(sparklinePath([1, 2, null, 3], 32, 12)).toBe('M2.0 10.0L11.3 6.0M30.0 2.0');
    expect(sparklinePath([5, 5], 10, 10)).toBe('M2.0 5.0L8.0 5.0');
    expect(sparklinePath([null, null], 10, 10)).toBe('');
  });
});
