import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/contracts/auth';
import { JOURNAL_SOURCES, type JournalEntry, type TrialBalance } from '@/contracts/ledger';
import type { Role } from '@/contracts/roles';
import FinancePage from '@/web/pages/finance';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { JournalEntryCard } from './journal';
import { keyBalances } from './ledger-format';
import { TrialBalanceTable } from './trial-balance';

const user = (role: Role): User =>
  ({ id: 'u1', email: 'f@example.com', firstName: 'Fay', lastName: 'Finance', role, isOwner: false }) as User;

const TRIAL: TrialBalance = {
  asOf: '2026-01-15',
  currency: 'USD',
  rows: [
    { code: '1000', name: 'Cash on hand', type: 'asset', debit: 25000, credit: 0, balance: 25000 },
    { code: '1100', name: 'Loans receivable', type: 'asset', debit: 125000, credit: 0, balance: 125000 },
    { code: '1200', name: 'Inventory', type: 'asset', debit: 0, credit: 90000, balance: -90000 },
    { code: '1300', name: 'Suspense', type: 'asset', debit: 0, credit: 0, balance: 0 },
    { code: '2000', name: 'Customer credit', type: 'liability', debit: 25000, credit: 25000, balance: 0 },
    { code: '4000', name: 'Device sales', type: 'income', debit: 0, credit: 150000, balance: -150000 },
    { code: '5000', name: 'Cost of devices sold', type: 'expense', debit: 90000, credit: 0, balance: 90000 },
  ],
  totals: { debit: 265000, credit: 265000 },
  balanced: true,
};

const ENTRY: JournalEntry = {
  id: 'j1',
  number: 'JE-0000001',
  businessDate: '2026-01-15',
  description: 'Deposit for CT-000042',
  sourceType: 'deposit',
  sourceId: 'p1',
  currency: 'USD',
  createdAt: '2026-01-15T10:00:00.000Z',
  createdBy: null,
  lines: [
    {
      accountCode: '1000',
      accountName: 'Cash on hand',
      debit: 25000,
      credit: 0,
      contractId: 'c1',
      memo: null,
    },
    {
      accountCode: '2000',
      accountName: 'Customer credit',
      debit: 0,
      credit: 25000,
      contractId: 'c1',
      memo: 'deposit held until activation',
    },
  ],
  lineCount: 2,
  debitTotal: 25000,
  creditTotal: 25000,
};

function mockApi(role: Role) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(user(role));
    if (url.startsWith('/api/ledger/journal'))
      return jsonResponse({ items: [ENTRY], total: 1, page: 1, pageSize: 25 });
    if (url.startsWith('/api/ledger/trial-balance')) return jsonResponse(TRIAL);
    if (url === '/api/ledger/accounts')
      return jsonResponse(
        TRIAL.rows.map((r) => ({
          code: r.code,
          name: r.name,
          type: r.type,
          description: null,
          active: true,
        })),
      );
    return jsonResponse({ message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('trial balance', () => {
  it('has a totals row where debits equal credits, and says it is balanced', () => {
    renderWithProviders(<TrialBalanceTable data={TRIAL} showEmpty={false} />);
    const totals = screen.getByTestId('row-trial-balance-totals');
    expect(within(totals).getByTestId('text-total-debit')).toHaveTextContent('$2,650.00');
    expect(within(totals).getByTestId('text-total-credit')).toHaveTextContent('$2,650.00');
    expect(screen.getByTestId('text-trial-balance-status')).toHaveTextContent(
      'Balanced: debits equal credits ($2,650.00).',
    );
    expect(screen.getByTestId('text-balance-1200')).toHaveTextContent('$900.00 Cr');
    expect(screen.getByTestId('text-balance-1100')).toHaveTextContent('$1,250.00 Dr');
    // Accounts never posted to are hidden unless asked for; an account with equal sides stays.
    expect(screen.queryByTestId('row-account-1300')).not.toBeInTheDocument();
    expect(screen.getByTestId('row-account-2000')).toBeInTheDocument();
  });

  it('shows every account on request, and flags a difference', () => {
    renderWithProviders(
      <TrialBalanceTable
        data={{ ...TRIAL, totals: { debit: 265000, credit: 264000 }, balanced: false }}
        showEmpty
      />,
    );
    expect(screen.getByTestId('row-account-1300')).toBeInTheDocument();
    expect(screen.getByTestId('text-trial-balance-status')).toHaveTextContent('Out of balance by $10.00');
    expect(screen.getByTestId('text-trial-balance-status')).toHaveAttribute('data-balanced', 'false');
  });
});

describe('finance page', () => {
  it('tells people without finance.read that they are not allowed', async () => {
    const fetchMock = mockApi('collector');
    renderWithProviders(<FinancePage />, { path: '/finance' });
    expect(await screen.findByTestId('card-not-allowed')).toHaveTextContent('Finance access required');
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/ledger'))).toBe(false);
  });

  it('shows the journal with its lines, and the trial balance tab', async () => {
    const u = userEvent.setup();
    const fetchMock = mockApi('finance');
    renderWithProviders(<FinancePage />, { path: '/finance' });
    const card = await screen.findByTestId('card-journal-JE-0000001');
    expect(card).toHaveTextContent('Deposit for CT-000042');
    expect(card).toHaveTextContent('Cash on hand');
    expect(card).toHaveTextContent('deposit held until activation');
    expect(card).toHaveTextContent('2 lines, balanced');
    expect(screen.getByTestId('link-export-journal')).toHaveAttribute(
      'href',
      '/api/ledger/journal?sort=businessDate&order=desc&format=csv',
    );
    await u.selectOptions(await screen.findByTestId('select-filter-account'), '1000');
    expect(
      fetchMock.mock.calls.some(([url]) => String(url).includes('/api/ledger/journal?accountCode=1000')),
    ).toBe(true);

    // Every kind of entry the app posts can be picked, payments and the close's charges among them.
    const sources = screen.getByTestId('select-filter-source');
    const offered = within(sources)
      .getAllByRole('option')
      .map((option) => (option as HTMLOptionElement).value);
    expect(offered).toEqual(['', ...JOURNAL_SOURCES]);
    await u.selectOptions(sources, 'Late fees');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('sourceType=late_fee'))).toBe(true);

    await u.click(screen.getByTestId('tab-trial-balance'));
    expect(await screen.findByTestId('text-total-debit')).toHaveTextContent('$2,650.00');
    await u.click(screen.getByTestId('tab-accounts'));
    expect(await screen.findByTestId('row-ledger-account-4000')).toHaveTextContent('Device sales');
  });
});

describe('journal entry card', () => {
  it('shows part of a batch entry with the totals of all its lines, and no single contract link', () => {
    const lines = Array.from({ length: 20 }, (_, i) => ({
      accountCode: '1130',
      accountName: 'Penalties receivable',
      debit: 500,
      credit: 0,
      contractId: `c${i}`,
      memo: null,
    }));
    renderWithProviders(
      <ul>
        <JournalEntryCard
          entry={{
            ...ENTRY,
            number: 'JE-0000009',
            description: 'Late fees charged at the close of business of 2026-01-15',
            sourceType: 'late_fee',
            lines,
            lineCount: 3001,
            debitTotal: 1_500_000,
            creditTotal: 1_500_000,
          }}
        />
      </ul>,
    );
    const card = screen.getByTestId('card-journal-JE-0000009');
    expect(screen.getByTestId('journal-more-JE-0000009')).toHaveTextContent(
      '20 of 3,001 lines shown; the CSV export has them all.',
    );
    expect(card).toHaveTextContent('3,001 lines, balanced');
    expect(card).toHaveTextContent('$15,000.00');
    expect(within(card).queryByText('Open contract')).not.toBeInTheDocument();
  });

  it('links a whole entry of one contract to it', () => {
    renderWithProviders(
      <ul>
        <JournalEntryCard entry={ENTRY} />
      </ul>,
    );
    expect(screen.getByText('Open contract')).toHaveAttribute('href', '/contracts/c1');
    expect(screen.queryByTestId(`journal-more-${ENTRY.number}`)).not.toBeInTheDocument();
  });
});

describe('balance cards', () => {
  it('reads each key account on its natural side, and zero for one never posted to', () => {
    const rows = [
      ...TRIAL.rows,
      { code: '2100', name: 'Suspense', type: 'liability' as const, debit: 0, credit: 7000, balance: -7000 },
      { code: '1010', name: 'Bank', type: 'asset' as const, debit: 0, credit: 500, balance: -500 },
    ];
    const byCode = Object.fromEntries(keyBalances(rows).map((b) => [b.code, b]));
    expect(Object.keys(byCode)).toEqual(['1000', '1010', '1020', '1100', '2000', '2100']);
    expect(byCode['1000']).toMatchObject({ amount: 25000, contrary: false });
    expect(byCode['1010']).toMatchObject({ amount: -500, contrary: true });
    expect(byCode['1020']).toMatchObject({ amount: 0, contrary: false });
    expect(byCode['2100']).toMatchObject({ amount: 7000, contrary: false });
  });

  it('shows the balances at the date chosen', async () => {
    const u = userEvent.setup();
    const fetchMock = mockApi('finance');
    renderWithProviders(<FinancePage />, { path: '/finance' });
    expect(await screen.findByTestId('text-balance-card-1000')).toHaveTextContent('$250.00');
    expect(screen.getByTestId('text-balance-card-1100')).toHaveTextContent('$1,250.00');
    await u.type(screen.getByTestId('input-balances-as-of'), '2026-01-10');
    await vi.waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([url]) =>
          String(url).includes('/api/ledger/trial-balance?asOf=2026-01-10'),
        ),
      ).toBe(true),
    );
  });
});
