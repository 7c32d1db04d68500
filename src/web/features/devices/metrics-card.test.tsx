import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeviceMetrics } from '@/contracts/device-metrics';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { DeviceMetricsCard, readingText } from './metrics-card';
import { stubApi } from './test-api';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const METRICS: DeviceMetrics = {
  latest: [
    { name: 'battery_v', value: 12.5, at: '2026-01-06T09:00:00.000Z' },
    { name: 'tampered', value: false, at: '2026-01-06T09:00:00.000Z' },
  ],
  requests: [
    {
      id: 'm1',
      receivedAt: '2026-01-06T09:00:00.000Z',
      collectedAt: '2026-01-06T09:00:00.000Z',
      requestCount: 12,
      requestTimestamp: null,
      authMethod: 'ca',
      data: { battery_v: 12.5, tampered: false },
      history: [{ at: '2026-01-06T08:50:00.000Z', values: { panel_v: 18.25 } }],
      tokensSent: 1,
    },
  ],
};

describe('DeviceMetricsCard', () => {
  it('shows the latest readings and the recent reports', async () => {
    stubApi({ 'GET /api/devices/d1/metrics': () => jsonResponse(METRICS) });
    renderWithProviders(<DeviceMetricsCard deviceId="d1" />);
    const latest = await screen.findByTestId('list-latest-readings');
    expect(within(latest).getByText('battery v')).toBeInTheDocument();
    expect(within(latest).getByText('12.5')).toBeInTheDocument();
    expect(within(latest).getByText('no')).toBeInTheDocument();
    const row = screen.getByTestId('row-metrics-m1');
    expect(row).toHaveTextContent('battery v 12.5 · tampered no');
  });

  it('says so when the device has reported nothing', async () => {
    stubApi({ 'GET /api/devices/d2/metrics': () => jsonResponse({ latest: [], requests: [] }) });
    renderWithProviders(<DeviceMetricsCard deviceId="d2" />);
    expect(await screen.findByTestId('text-metrics-empty')).toBeInTheDocument();
  });

  it('writes readings plainly', () => {
    expect([readingText(null), readingText(true), readingText('1.14.2'), readingText([1, 2])]).toEqual([
      '—',
      'yes',
      '1.14.2',
      '[1,2]',
    ]);
  });
});
