import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSchedule, formatMoney } from '@/domain';
import CalculatorPage from '@/web/pages/calculator';
import { jsonResponse, renderWithProviders } from '@/web/test/render';

const CASE_A =
  '/calculator?price=1500.00&deposit=250.00&frequency=monthly&term=4&apr=15&method=declining&multiple=1.00&start=2026-01-15';

function mockOrganisation(currency = 'USD') {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === '/api/organisation')
      return jsonResponse({ name: 'Sunrise Devices', currency, country: 'KE' });
    return jsonResponse({ message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function renderCalculator(path: string) {
  const result = renderWithProviders(<CalculatorPage />, { path });
  await screen.findByTestId('input-price');
  return result;
}

const usd = (minor: number) => formatMoney(minor, 'USD');

describe('calculator page', () => {
  beforeEach(() => {
    mockOrganisation();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows what buildSchedule computes for reference case A', async () => {
    await renderCalculator(CASE_A);
    const expected = buildSchedule({
      principal: 125000,
      apr: '15',
      frequency: 'monthly',
      term: 4,
      method: 'declining',
      startDate: '2026-01-15',
      installmentMultiple: 100,
      serviceFeePerPeriod: 0,
    });
    expect(await screen.findByTestId('text-instalment')).toHaveTextContent(
      usd(expected.totals.regularPayment),
    );
    expect(screen.getByTestId('text-instalment')).toHaveTextContent('$322.00');
    expect(screen.getByTestId('text-payment-pattern')).toHaveTextContent(
      '3 monthly payments of $322.00, then a last payment of $323.33',
    );
    expect(screen.getByTestId('text-amount-financed')).toHaveTextContent(usd(expected.totals.totalPrincipal));
    expect(screen.getByTestId('text-total-interest')).toHaveTextContent(usd(expected.totals.totalInterest));
    expect(screen.getByTestId('text-total-fees')).toHaveTextContent(usd(expected.totals.totalServiceFees));
    expect(screen.getByTestId('text-total-payable')).toHaveTextContent(usd(expected.totals.totalPayable));
    expect(screen.getByTestId('text-total-cost')).toHaveTextContent(
      usd(25000 + expected.totals.totalPayable),
    );
    expect(screen.getByTestId('text-cost-of-credit')).toHaveTextContent('$39.33 (2.6%)');
    expect(screen.getByTestId('text-apr-disclosure')).toHaveTextContent(
      'APR 15% a year, charged on the declining balance at 1.25% per month.',
    );
    expect(screen.getByTestId('text-deposit-percent')).toHaveTextContent('16.7% of the cash price');
    expect(screen.getByTestId('text-term-duration')).toHaveTextContent(
      '4 monthly instalments · 4 months · last due 15 May 2026',
    );
    for (const row of expected.rows) {
      const cells = within(screen.getByTestId(`row-schedule-${row.n}`)).getAllByRole('cell');
      expect(cells.map((cell) => cell.textContent)).toEqual([
        String(row.n),
        expect.any(String),
        usd(row.principal),
        usd(row.interest),
        usd(row.serviceFee),
        usd(row.total),
        usd(row.balance),
      ]);
    }
    expect(screen.getByTestId('row-schedule-4')).toHaveTextContent('15 May 2026');
    expect(screen.getByTestId('text-mobile-instalment')).toHaveTextContent('$322.00');
  });

  it('pages through a 3,660-instalment daily schedule', async () => {
    const user = userEvent.setup();
    await renderCalculator(
      '/calculator?price=100000.00&frequency=daily&term=3660&apr=24&method=declining&fee=0.10&start=2026-01-01',
    );
    const expected = buildSchedule({
      principal: 10000000,
      apr: '24',
      frequency: 'daily',
      term: 3660,
      method: 'declining',
      startDate: '2026-01-01',
      installmentMultiple: 0,
      serviceFeePerPeriod: 10,
    });
    expect(await screen.findByTestId('text-instalment')).toHaveTextContent(
      usd(expected.totals.regularPayment),
    );
    expect(screen.getByTestId('text-page-range')).toHaveTextContent('1–12 of 3,660');
    expect(screen.getAllByTestId(/^row-schedule-/)).toHaveLength(12);
    await user.click(screen.getByTestId('button-page-last'));
    expect(screen.getByTestId('text-page-range')).toHaveTextContent('3649–3660 of 3,660');
    const last = expected.rows[3659];
    expect(screen.getByTestId('text-row-total-3660')).toHaveTextContent(usd(last?.total ?? -1));
    await user.selectOptions(screen.getByTestId('select-page-size'), '120');
    expect(screen.getAllByTestId(/^row-schedule-/)).toHaveLength(60);
    expect(screen.getByTestId('text-page-range')).toHaveTextContent('3601–3660 of 3,660');
  });

  it('shows a message on each field that needs attention', async () => {
    const user = userEvent.setup();
    await renderCalculator('/calculator');
    expect(screen.getByTestId('text-results-empty')).toHaveTextContent(
      'Enter the cash price and the APR to see the instalment.',
    );
    // "Required" waits until the field is left empty.
    expect(screen.queryByTestId('error-price')).toBeNull();
    await user.click(screen.getByTestId('input-price'));
    await user.tab();
    expect(await screen.findByTestId('error-price')).toHaveTextContent('Enter the cash price');
    expect(screen.getByTestId('input-price')).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByTestId('input-price'), '1500');
    await user.type(screen.getByTestId('input-deposit'), '1600');
    expect(await screen.findByTestId('error-deposit')).toHaveTextContent(
      'The deposit must be less than the cash price',
    );
    expect(screen.getByTestId('input-deposit')).toHaveAccessibleDescription(
      'The deposit must be less than the cash price',
    );
    await user.clear(screen.getByTestId('input-term'));
    await user.type(screen.getByTestId('input-term'), '4000');
    expect(await screen.findByTestId('error-term')).toHaveTextContent(
      'Term must be from 1 to 3,660 instalments',
    );
    await user.type(screen.getByTestId('input-apr'), '15%');
    expect(await screen.findByTestId('error-apr')).toHaveTextContent('APR must be a number of percent');
    await user.type(screen.getByTestId('input-fee'), '0.001');
    expect(await screen.findByTestId('error-fee')).toHaveTextContent(
      'Service fee can have at most 2 decimals in USD',
    );
    expect(screen.getByTestId('text-results-empty')).toHaveTextContent('Correct the highlighted fields');

    await user.clear(screen.getByTestId('input-deposit'));
    await user.clear(screen.getByTestId('input-term'));
    await user.type(screen.getByTestId('input-term'), '4');
    await user.clear(screen.getByTestId('input-apr'));
    await user.type(screen.getByTestId('input-apr'), '15');
    await user.clear(screen.getByTestId('input-fee'));
    await user.type(screen.getByTestId('input-multiple'), '500');
    expect(await screen.findByTestId('error-multiple')).toHaveTextContent(
      'The instalment is smaller than the instalment multiple ($500.00)',
    );
    await user.clear(screen.getByTestId('input-multiple'));
    await waitFor(() => expect(screen.queryByTestId(/^error-/)).toBeNull());
    expect(await screen.findByTestId('text-instalment')).toBeInTheDocument();
  });

  it('keeps the inputs in the query string, and a link reproduces the quote', async () => {
    const user = userEvent.setup();
    const { history, unmount } = await renderCalculator('/calculator?start=2026-01-15');
    await user.type(screen.getByTestId('input-price'), '1500.00');
    await user.type(screen.getByTestId('input-deposit'), '250.00');
    await user.clear(screen.getByTestId('input-term'));
    await user.type(screen.getByTestId('input-term'), '4');
    await user.type(screen.getByTestId('input-apr'), '15');
    await user.type(screen.getByTestId('input-multiple'), '1.00');
    await user.click(screen.getByTestId('radio-frequency-weekly'));
    await user.click(screen.getByTestId('radio-frequency-monthly'));
    await user.click(screen.getByTestId('radio-method-flat'));
    await user.click(screen.getByTestId('radio-method-declining'));
    const link =
      '/calculator?price=1500.00&deposit=250.00&frequency=monthly&term=4&apr=15&method=declining&multiple=1.00&start=2026-01-15';
    await waitFor(() => expect(history?.at(-1)).toBe(link));
    // Typing replaces the entry instead of adding one per keystroke.
    expect(history).toHaveLength(1);
    const instalment = (await screen.findByTestId('text-instalment')).textContent;
    expect(instalment).toBe('$322.00');
    unmount();

    await renderCalculator(link);
    expect(screen.getByTestId('input-price')).toHaveValue('1500.00');
    expect(screen.getByTestId('input-deposit')).toHaveValue('250.00');
    expect(screen.getByTestId('input-term')).toHaveValue('4');
    expect(screen.getByTestId('input-apr')).toHaveValue('15');
    expect(screen.getByTestId('input-multiple')).toHaveValue('1.00');
    expect(screen.getByTestId('radio-frequency-monthly')).toBeChecked();
    expect(screen.getByTestId('radio-method-declining')).toBeChecked();
    expect(screen.getByTestId('input-start')).toHaveValue('2026-01-15');
    expect(await screen.findByTestId('text-instalment')).toHaveTextContent(instalment ?? '');
  });

  it('uses the organisation currency for parsing and formatting', async () => {
    vi.unstubAllGlobals();
    mockOrganisation('UGX');
    await renderCalculator(
      '/calculator?price=1500000&deposit=300000&frequency=weekly&term=52&apr=30&start=2026-01-15',
    );
    const expected = buildSchedule({
      principal: 1200000,
      apr: '30',
      frequency: 'weekly',
      term: 52,
      method: 'declining',
      startDate: '2026-01-15',
    });
    // Intl separates the code with a no-break space, which toHaveTextContent would normalise.
    expect((await screen.findByTestId('text-instalment')).textContent).toBe(
      formatMoney(expected.totals.regularPayment, 'UGX'),
    );
    expect(screen.getByTestId('text-instalment').textContent).toMatch(/^UGX\s[\d,]+$/);
  });

  it('explains when the organisation cannot be loaded', async () => {
    vi.unstubAllGlobals();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('down for maintenance', { status: 503 })),
    );
    renderWithProviders(<CalculatorPage />, { path: '/calculator' });
    expect(await screen.findByTestId('text-calculator-error')).toHaveTextContent('503: down for maintenance');
    expect(screen.getByTestId('button-retry')).toBeInTheDocument();
  });
});
