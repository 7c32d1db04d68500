import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContractRow } from '@/contracts/contracts';
import type { Role } from '@/contracts/roles';
import { makeCustomer } from '@/web/features/customers/test-fixtures';
import ContractsPage from '@/web/pages/contracts';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { IDS, staff } from './test-fixtures';

const ROW: ContractRow = {
  id: IDS.contract,
  number: 'CT-000042',
  status: 'pending_approval',
  customerId: IDS.customer,
  customerName: 'Amina Wanjiru',
  customerPhone: '+254712345678',
  deviceSerial: 'SN-0001',
  deviceModel: 'Tecno Spark 20',
  planCode: 'PHONE-M',
  currency: 'USD',
  principal: 125000,
  regularPayment: 32200,
  frequency: 'monthly',
  dpd: 0,
  bucket: 'current',
  outstandingTotal: 128933,
  creditBalance: 0,
  nextDueDate: null,
  createdAt: '2026-01-15T08:00:00.000Z',
  activatedAt: null,
};

function mockApi(role: Role, rows: ContractRow[] = [ROW]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(staff(role));
    if (url.startsWith('/api/contracts?'))
      return jsonResponse({ items: rows, total: rows.length, page: 1, pageSize: 50 });
    if (url === '/api/settings/options')
      return jsonResponse({
        delinquencyBuckets: [
          { value: 'current', label: 'Current' },
          { value: '1-29', label: '1-29 days' },
          { value: '30+', label: '30+ days' },
        ],
      });
    if (url === `/api/customers/${IDS.customer}`)
      return jsonResponse(
        makeCustomer({ id: IDS.customer, fullName: 'Amina Wanjiru', accountNumber: 'C-000007' }),
      );
    return jsonResponse({ message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const listCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/contracts?'));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('contracts list', () => {
  it('lists contracts with links, and offers New contract to those who draft', async () => {
    mockApi('agent');
    renderWithProviders(<ContractsPage />, { path: '/contracts' });
    const row = await screen.findByTestId(`row-contracts-${IDS.contract}`);
    expect(within(row).getByRole('link', { name: /CT-000042/ })).toHaveAttribute(
      'href',
      `/contracts/${IDS.contract}`,
    );
    expect(row).toHaveTextContent('Amina Wanjiru');
    expect(row).toHaveTextContent('Pending approval');
    expect(row).toHaveTextContent('$1,289.33');
    expect(await screen.findByTestId('button-new-contract')).toHaveAttribute('href', '/contracts/new');
  });

  it('offers the buckets the organisation configured, and filters by them', async () => {
    const user = userEvent.setup();
    const fetchMock = mockApi('manager');
    const { history } = renderWithProviders(<ContractsPage />, { path: '/contracts' });
    const select = await screen.findByTestId('select-filter-bucket');
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['All buckets', 'Current', '1-29 days', '30+ days']),
    );
    await user.selectOptions(select, '30+');
    await waitFor(() => expect(history.at(-1)).toContain('bucket=30%2B'));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)).toContain('bucket=30%2B'));
  });

  it('shows a threshold of days past due from a link that its choices lack', async () => {
    const fetchMock = mockApi('manager');
    renderWithProviders(<ContractsPage />, { path: '/contracts?minDpd=2&sort=dpd&order=desc' });
    const select = await screen.findByTestId('select-filter-arrears');
    await waitFor(() => expect(select).toHaveValue('2'));
    expect(within(select).getByRole('option', { selected: true })).toHaveTextContent('2+ days past due');
    expect(listCalls(fetchMock)[0]).toContain('minDpd=2');
  });

  it('hides New contract from viewers and shows the empty state', async () => {
    mockApi('viewer', []);
    renderWithProviders(<ContractsPage />, { path: '/contracts' });
    expect(await screen.findByTestId('empty-contracts')).toHaveTextContent('No contracts yet');
    expect(screen.queryByTestId('button-new-contract')).not.toBeInTheDocument();
  });

  it('keeps search, filters and sort in the address bar and asks the server for them', async () => {
    const user = userEvent.setup();
    const fetchMock = mockApi('manager');
    const { history } = renderWithProviders(<ContractsPage />, {
      path: `/contracts?customerId=${IDS.customer}`,
    });
    await waitFor(() =>
      expect(screen.getByTestId('chip-scope-customer')).toHaveTextContent(
        'Customer: Amina Wanjiru (C-000007)',
      ),
    );
    expect(listCalls(fetchMock)[0]).toContain(`customerId=${IDS.customer}`);
    await user.selectOptions(screen.getByTestId('select-filter-status'), 'pending_approval');
    await user.type(screen.getByTestId('input-search-contracts'), 'SN-0001{Enter}');
    await user.click(screen.getByTestId('sort-contracts-dpd'));
    await waitFor(() =>
      expect(history.at(-1)).toBe(
        `/contracts?q=SN-0001&status=pending_approval&customerId=${IDS.customer}&sort=dpd&order=asc`,
      ),
    );
    await waitFor(() =>
      expect(listCalls(fetchMock).at(-1)).toBe(
        `/api/contracts?q=SN-0001&status=pending_approval&customerId=${IDS.customer}&sort=dpd&order=asc&page=1&pageSize=50`,
      ),
    );
    expect(screen.getByTestId('link-export-contracts').getAttribute('href')).toContain('format=csv');
    await user.click(screen.getByTestId('button-clear-contracts'));
    await waitFor(() => expect(history.at(-1)).toBe('/contracts'));
  });
});
