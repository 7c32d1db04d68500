import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueueRow } from '@/contracts/collections';
import type { Role } from '@/contracts/roles';
import { staff } from '@/web/features/contracts/test-fixtures';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { QueueList } from './queue-list';

const row = (id: string, overrides: Partial<QueueRow> = {}): QueueRow => ({
  contractId: id,
  contractNumber: `CT-${id.slice(0, 4)}`,
  customerId: '99999999-9999-4999-8999-999999999999',
  customerName: 'Juma Kariuki',
  customerPhone: '+254722000111',
  region: 'Central',
  planCode: 'PHONE-M',
  bucket: '8-30',
  dpd: 12,
  amountOverdue: 31_000,
  regularPayment: 31_000,
  currency: 'USD',
  riskGrade: 'D',
  brokenPromises: 1,
  daysSinceContact: null,
  dueToday: false,
  promiseState: 'broken',
  score: 36 + 50 + 75 + 60 + 100,
  parts: { dpd: 36, amount: 50, risk: 75, promises: 60, contact: 100 },
  scoredOn: '2026-03-01',
  collectorId: null,
  collectorName: null,
  ...overrides,
});

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

function mockApi(role: Role) {
  const assigned: unknown[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(staff(role));
    if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
    if (url === '/api/collections/options')
      return jsonResponse({
        buckets: ['1-7', '8-30'],
        regions: ['Central'],
        agents: [],
        plans: [],
        collectors: [{ id: '33333333-3333-4333-8333-333333333333', name: 'Cathy Mwende' }],
        businessDate: '2026-03-01',
      });
    if (url.startsWith('/api/collections/queue'))
      return jsonResponse({ items: [row(A), row(B, { score: 100 })], total: 2, page: 1, pageSize: 50 });
    if (url === '/api/collections/collectors')
      return jsonResponse({
        collectors: [
          {
            userId: '33333333-3333-4333-8333-333333333333',
            name: 'Cathy Mwende',
            role: 'collector',
            regions: [],
            maxOpenCases: 50,
            active: true,
            openCases: 3,
          },
        ],
      });
    if (url === '/api/collections/assign' && init?.method === 'POST') {
      assigned.push(JSON.parse(String(init.body)));
      return jsonResponse({ assigned: 2, skipped: 0 });
    }
    return jsonResponse({});
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, assigned };
}

afterEach(() => vi.unstubAllGlobals());

describe('QueueList', () => {
  it('explains each row’s score and lets a manager assign the selected cases', async () => {
    const user = userEvent.setup();
    const { assigned } = mockApi('manager');
    renderWithProviders(<QueueList />, { path: '/collections' });
    const first = await screen.findByTestId(`row-case-${A}`);
    await user.click(within(first).getByText('321'));
    expect(within(first).getByText('36 for 12 days past due')).toBeVisible();
    expect(within(first).getByText('60 for 1 broken promise')).toBeVisible();
    expect(within(first).getByText('100 as never contacted')).toBeVisible();
    expect(within(first).getByTestId(`badge-promise-${A}`)).toHaveTextContent('Broken');
    // What a phone shows of the columns it leaves out, under the contract.
    expect(within(first).getByTestId(`text-case-figures-${A}`)).toHaveTextContent(
      '12 DPD · 8-30 · $310.00 overdue',
    );
    expect(within(first).getByText('Promise broken · unassigned')).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Log action' })).toBeVisible();

    await user.click(screen.getByTestId('checkbox-select-page'));
    expect(screen.getByTestId('text-selected-count')).toHaveTextContent('2 selected');
    await user.click(screen.getByTestId('button-bulk-assign'));
    const select = await screen.findByTestId('select-assign-collector');
    await waitFor(() => expect(within(select).getByText('Cathy Mwende (3 open of 50)')).toBeInTheDocument());
    await user.selectOptions(select, '33333333-3333-4333-8333-333333333333');
    await user.click(screen.getByTestId('button-submit-assign'));
    await waitFor(() =>
      expect(assigned).toEqual([
        { contractIds: [A, B], collectorId: '33333333-3333-4333-8333-333333333333' },
      ]),
    );
  });

  it('asks my queue for my cases, and offers a collector no assignment', async () => {
    const { fetchMock } = mockApi('collector');
    renderWithProviders(<QueueList mine />, { path: '/collections?tab=mine' });
    await screen.findByTestId(`row-case-${A}`);
    const calls = fetchMock.mock.calls
      .map(([url]) => String(url))
      .filter((u) => u.startsWith('/api/collections/queue'));
    expect(calls.every((u) => u.includes('mine=true'))).toBe(true);
    expect(screen.queryByTestId(`button-assign-${A}`)).toBeNull();
    expect(screen.queryByTestId('button-auto-assign')).toBeNull();
    expect(screen.getByTestId(`button-log-action-${A}`)).toBeInTheDocument();
  });
});
