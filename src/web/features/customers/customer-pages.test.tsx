import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { CustomerListItem } from '@/contracts/customers';
import CustomerDetailPage from '@/web/pages/customer-detail';
import CustomersPage from '@/web/pages/customers';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { agent, apiError, CUSTOMER_ID, makeCustomer, stubApi, viewer } from './test-fixtures';

afterEach(() => vi.unstubAllGlobals());

const row: CustomerListItem = {
  id: CUSTOMER_ID,
  accountNumber: 'C-000042',
  firstName: 'Amina',
  lastName: 'Otieno',
  fullName: 'Amina Otieno',
  phone: '+254712345678',
  email: null,
  nationalId: '••••5678',
  region: 'Nairobi',
  kycStatus: 'verified',
  riskScore: 92,
  riskGrade: 'B',
  assignedAgent: { id: agent.id, name: 'Joseph Kamau' },
  createdAt: '2026-01-10T08:00:00.000Z',
};

function stubList(user: typeof agent) {
  return stubApi(user, ({ url }) =>
    url.startsWith('/api/customers?')
      ? jsonResponse({ items: [row], total: 1, page: 1, pageSize: 50 })
      : undefined,
  );
}

describe('customers list', () => {
  it('searches on the server, links rows to the profile and exports the same search', async () => {
    const calls = stubList(agent);
    renderWithProviders(<CustomersPage />, { path: '/customers?q=amina&kycStatus=verified' });
    const table = await screen.findByTestId('table-customers');
    expect(within(table).getByRole('link', { name: 'C-000042' })).toHaveAttribute(
      'href',
      `/customers/${CUSTOMER_ID}`,
    );
    expect(within(table).getByText('Verified')).toBeInTheDocument();
    expect(calls.find((call) => call.url.startsWith('/api/customers?'))?.url).toBe(
      '/api/customers?q=amina&kycStatus=verified&sort=createdAt&order=desc&page=1&pageSize=50',
    );
    expect(screen.getByTestId('link-export-customers')).toHaveAttribute(
      'href',
      '/api/customers?q=amina&kycStatus=verified&sort=createdAt&order=desc&format=csv',
    );
    expect(await screen.findByTestId('button-new-customer')).toHaveAttribute('href', '/customers/new');
  });

  it('offers no "New customer" to a viewer', async () => {
    stubList(viewer);
    renderWithProviders(<CustomersPage />, { path: '/customers' });
    await screen.findByTestId('table-customers');
    expect(screen.queryByTestId('button-new-customer')).not.toBeInTheDocument();
  });
});

const detail = (path: string) =>
  renderWithProviders(
    <Route path="/customers/:id">
      <CustomerDetailPage />
    </Route>,
    { path },
  );

describe('customer profile', () => {
  it('says "Customer not found" for an unknown id, with a way back', async () => {
    stubApi(agent, ({ url }) =>
      url === '/api/customers/00000000-0000-4000-8000-000000000000'
        ? apiError(404, { code: 'NOT_FOUND', message: 'Customer not found' })
        : undefined,
    );
    detail('/customers/00000000-0000-4000-8000-000000000000');
    expect(await screen.findByTestId('card-customer-not-found')).toHaveTextContent(
      'There is no customer at this address',
    );
    expect(screen.getByTestId('text-page-title')).toHaveTextContent('Customer not found');
    expect(screen.getByTestId('link-back-customers')).toHaveAttribute('href', '/customers');
  });

  it('shows the scorecard with the points of every factor, grade and decision', async () => {
    const customer = makeCustomer({
      risk: {
        score: 72,
        maxScore: 145,
        grade: 'C',
        decision: 'approve',
        overrides: [],
        factors: [
          { factor: 'income', value: '4500000', points: 30, maxPoints: 30, reason: '400.00 a month or more' },
          {
            factor: 'employment',
            value: 'self_employed',
            points: 12,
            maxPoints: 20,
            reason: 'occupation: self employed',
          },
        ],
        scoredAt: '2026-01-10T08:00:00.000Z',
      },
    });
    stubApi(agent, ({ url }) => {
      if (url === `/api/customers/${CUSTOMER_ID}`) return jsonResponse(customer);
      if (url === `/api/customers/${CUSTOMER_ID}/documents`) return jsonResponse([]);
      return undefined;
    });
    detail(`/customers/${CUSTOMER_ID}`);
    expect(await screen.findByTestId('text-page-title')).toHaveTextContent('Amina Otieno');
    expect(screen.getByTestId('text-risk-score')).toHaveTextContent('72 / 145');
    expect(screen.getByTestId('text-risk-grade')).toHaveTextContent('C');
    expect(screen.getByTestId('text-risk-decision')).toHaveTextContent('Approve');
    expect(screen.getByTestId('row-factor-income')).toHaveTextContent('KES');
    expect(screen.getByTestId('row-factor-income')).toHaveTextContent('30 / 30');
    expect(screen.getByTestId('row-factor-employment')).toHaveTextContent('Self-employed');
    expect(screen.getByTestId('button-edit-customer')).toHaveAttribute(
      'href',
      `/customers/${CUSTOMER_ID}?edit=1`,
    );
    expect(screen.getByTestId('link-customer-contracts')).toHaveAttribute(
      'href',
      `/contracts?customerId=${CUSTOMER_ID}`,
    );
  });
});
