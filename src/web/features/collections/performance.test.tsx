import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { staff } from '@/web/features/contracts/test-fixtures';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { PerformancePanel } from './performance';

const CATHY = '33333333-3333-4333-8333-333333333333';

function mockApi() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(staff('manager'));
    if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
    if (url.startsWith('/api/collections/performance'))
      return jsonResponse({
        from: '2026-02-01',
        to: '2026-03-02',
        currency: 'USD',
        collectors: [
          {
            collectorId: CATHY,
            name: 'Cathy Mwende',
            contacts: 41,
            promises: 12,
            promisesDue: 10,
            kept: 7,
            keptRate: 0.7,
            amountCollected: 152_000,
            cure: [
              { bucket: '1-7', cases: 5, cured: 4 },
              { bucket: '8-30', cases: 3, cured: 1 },
            ],
          },
        ],
      });
    if (url === '/api/collections/collectors')
      return jsonResponse({
        collectors: [
          {
            userId: CATHY,
            name: 'Cathy Mwende',
            role: 'collector',
            regions: ['Central'],
            maxOpenCases: 50,
            active: true,
            openCases: 3,
          },
        ],
      });
    return jsonResponse({});
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('collector performance', () => {
  it('shows each collector’s contacts, kept rate, money collected and cure rate by bucket', async () => {
    mockApi();
    renderWithProviders(<PerformancePanel businessDate="2026-03-02" />);
    const row = await screen.findByTestId(`row-performance-${CATHY}`);
    expect(row).toHaveTextContent('70%');
    expect(row).toHaveTextContent('7 of 10 due');
    expect(row).toHaveTextContent('$1,520.00');
    expect(row).toHaveTextContent('1-7: 4/5 · 8-30: 1/3');
    // The phone's line under the name carries what its hidden columns show.
    expect(within(row).getByText(/41 contacts · 12 promises/)).toBeInTheDocument();
    const collector = await screen.findByTestId(`row-collector-${CATHY}`);
    expect(collector).toHaveTextContent('3 of 50');
    expect(collector).toHaveTextContent('Central · auto-assign on');
  });

  it('asks for the range again when its start is after its end', async () => {
    const fetchMock = mockApi();
    renderWithProviders(<PerformancePanel businessDate="2026-03-02" />);
    await screen.findByTestId(`row-performance-${CATHY}`);
    const u = userEvent.setup();
    const from = screen.getByTestId('input-performance-from');
    await u.clear(from);
    await u.type(from, '2026-03-05');
    expect(await screen.findByText('Choose a range whose start is not after its end.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('from=2026-03-05'))).toBe(false);
  });
});
