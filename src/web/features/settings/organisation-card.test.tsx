import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrganisationSettings } from '@/contracts/profile';
import { stubApi } from '@/web/features/devices/test-api';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { OrganisationCard } from './organisation-card';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const KENYA: OrganisationSettings = {
  name: 'Sunrise Device Finance',
  currency: 'KES',
  timeZone: 'Africa/Nairobi',
  country: 'KE',
  delinquencyBuckets: [1, 8, 31, 61, 91],
  quietHoursStart: '20:00',
  quietHoursEnd: '08:00',
  aprCap: null,
  incomeBands: null,
  closeOfBusinessTime: '23:30',
  interestAccrualFrom: null,
  updatedAt: '2026-11-01T00:00:00.000Z',
};

function setUp(organisation: OrganisationSettings = KENYA) {
  const calls = stubApi({
    'GET /api/settings/organisation': () => jsonResponse(organisation),
    'PUT /api/settings/organisation': (call) =>
      jsonResponse({ ...organisation, ...(call.body as object), updatedAt: '2026-11-02T00:00:00.000Z' }),
  });
  renderWithProviders(<OrganisationCard />);
  return calls;
}

function savedOrganisation(calls: ReturnType<typeof setUp>): OrganisationSettings {
  const put = calls.find((call) => call.method === 'PUT');
  if (!put) throw new Error('The organisation was not saved');
  return put.body as OrganisationSettings;
}

const income = (index: number) => screen.getByTestId(`input-org-income-${index}`);

describe('organisation settings: scorecard income bands', () => {
  it('takes the three thresholds in shillings and saves them in cents', async () => {
    const user = userEvent.setup();
    const calls = setUp();
    await user.type(await screen.findByTestId('input-org-income-0'), '5000');
    await user.type(income(1), '15000');
    await user.type(income(2), '40000.50');
    await user.click(screen.getByTestId('button-save-organisation'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(savedOrganisation(calls).incomeBands).toEqual([500_000, 1_500_000, 4_000_050]);
  });

  it('shows saved thresholds in major units and says what is wrong with bad ones', async () => {
    const user = userEvent.setup();
    setUp({ ...KENYA, incomeBands: [500_000, 1_500_000, 4_000_000] });
    expect(await screen.findByTestId('input-org-income-0')).toHaveValue('5000.00');
    await user.clear(income(1));
    await user.type(income(1), '300');
    await user.tab();
    expect(await screen.findByText('Income thresholds must increase')).toBeInTheDocument();
    await user.clear(income(1));
    await user.type(income(1), 'lots');
    expect(
      await screen.findByText('Enter each income threshold as an amount, such as 5000'),
    ).toBeInTheDocument();
  });

  it('leaves income out of the score when all three are emptied', async () => {
    const user = userEvent.setup();
    const calls = setUp({ ...KENYA, incomeBands: [500_000, 1_500_000, 4_000_000] });
    for (const index of [0, 1, 2]) await user.clear(await screen.findByTestId(`input-org-income-${index}`));
    await user.click(screen.getByTestId('button-save-organisation'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(savedOrganisation(calls).incomeBands).toBeNull();
  });
});

describe('organisation settings: close of business', () => {
  it('saves the close time and the interest accrual start', async () => {
    const user = userEvent.setup();
    const calls = setUp();
    const time = await screen.findByTestId('input-org-close-time');
    expect(time).toHaveValue('23:30');
    await user.clear(time);
    await user.type(time, '21:15');
    await user.type(screen.getByTestId('input-org-accrual-from'), '2027-01-01');
    await user.click(screen.getByTestId('button-save-organisation'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(savedOrganisation(calls)).toMatchObject({
      closeOfBusinessTime: '21:15',
      interestAccrualFrom: '2027-01-01',
    });
  });

  it('says what is wrong with an empty close time, and shows the server refusal of an accrual date under its field', async () => {
    const user = userEvent.setup();
    const message = 'Interest accrual can start on the business date (2026-11-03) or later, not before';
    const calls = stubApi({
      'GET /api/settings/organisation': () => jsonResponse({ ...KENYA, interestAccrualFrom: '2027-01-01' }),
      'PUT /api/settings/organisation': () =>
        jsonResponse({ message, code: 'RULE', errors: [{ field: 'interestAccrualFrom', message }] }, 422),
    });
    renderWithProviders(<OrganisationCard />);
    const time = await screen.findByTestId('input-org-close-time');
    await user.clear(time);
    await user.tab();
    expect(await screen.findByText('Close of business time must be a time like 20:00')).toBeInTheDocument();
    await user.type(time, '22:00');
    const accrual = screen.getByTestId('input-org-accrual-from');
    expect(accrual).toHaveValue('2027-01-01');
    await user.clear(accrual);
    await user.type(accrual, '2020-01-01');
    await user.click(screen.getByTestId('button-save-organisation'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(accrual).toHaveAttribute('aria-invalid', 'true');
  });

  it('sends no accrual date when the field is emptied (interest is income when paid)', async () => {
    const user = userEvent.setup();
    const calls = setUp({ ...KENYA, interestAccrualFrom: '2027-01-01' });
    await user.clear(await screen.findByTestId('input-org-accrual-from'));
    await user.click(screen.getByTestId('button-save-organisation'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(savedOrganisation(calls).interestAccrualFrom).toBeNull();
  });
});
