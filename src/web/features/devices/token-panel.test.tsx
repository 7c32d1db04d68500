import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeviceToken } from '@/contracts/devices';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { device, OWNER, stubApi } from './test-api';
import { daysIssue, OpenPaygoCard } from './token-panel';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const DEVICE = device();

/** The unit under contract CT-000042, so many days and minor units in arrears. */
const underContract = (dpd: number, overdue: number) =>
  device({
    status: 'assigned',
    contract: { id: 'c1', number: 'CT-000042', currency: 'USD', paidThrough: '2026-01-10', dpd, overdue },
  });

const ISSUED = {
  id: 't1',
  token: '123456789',
  type: 'ADD_TIME',
  value: 30,
  days: 30,
  timeDivider: 1,
  count: 2,
  issuedAt: '2026-01-06T09:00:00.000Z',
};

describe('daysIssue', () => {
  it('follows the API: days for ADD_TIME (1-995) and SET_TIME (0-995), none for the others', () => {
    expect(daysIssue('ADD_TIME', '')).toBe('Add time needs the number of days');
    expect(daysIssue('ADD_TIME', '0')).toBe('Add at least 1 day');
    expect(daysIssue('ADD_TIME', 'two')).toBe('Days must be a number, such as 7');
    expect(daysIssue('ADD_TIME', '2.5')).toBe('Days must be a whole number on this unit');
    expect(daysIssue('SET_TIME', '0')).toBeNull();
    expect(daysIssue('SET_TIME', '996')).toBe('At most 995 days per token');
    expect(daysIssue('DISABLE_PAYG', '')).toBeNull();
    expect(daysIssue('COUNTER_SYNC', '')).toBeNull();
  });

  it("counts in steps of the unit's time divider (a token carries days × divider, at most 995)", () => {
    expect(daysIssue('ADD_TIME', '1.5', 24)).toBeNull();
    expect(daysIssue('ADD_TIME', '0.01', 24)).toBe('Days must be in steps of 1/24 day');
    expect(daysIssue('ADD_TIME', '0', 24)).toBe('Add at least 1/24 of a day');
    expect(daysIssue('ADD_TIME', '0.125', 24)).toBeNull();
    expect(daysIssue('ADD_TIME', '41', 24)).toBeNull();
    expect(daysIssue('ADD_TIME', '42', 24)).toBe('At most 41 days per token on this unit (divider 24)');
  });
});

describe('OpenPaygoCard', () => {
  it('issues a token, shows it large and copyable, and lists it in the history', async () => {
    let tokens: DeviceToken[] = [];
    const calls = stubApi({
      [`GET /api/devices/${DEVICE.id}/tokens`]: () => jsonResponse(tokens),
      [`GET /api/devices/${DEVICE.id}`]: () => jsonResponse(DEVICE),
      [`POST /api/devices/${DEVICE.id}/tokens`]: () => {
        tokens = [
          { ...ISSUED, type: 'ADD_TIME', issuedBy: { id: OWNER.id, name: 'Grace Owino' }, contractId: null },
        ];
        return jsonResponse(ISSUED, 201);
      },
    });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<OpenPaygoCard device={DEVICE} />);
    expect(screen.getByTestId('text-starting-code')).toHaveTextContent('123456789');
    expect(screen.getByTestId('card-openpaygo')).not.toHaveTextContent(/secret key:/i);
    expect(await screen.findByTestId('text-tokens-empty')).toBeInTheDocument();

    await userEvent.click(await screen.findByTestId('button-issue-token'));
    expect(await screen.findByText('Add time needs the number of days')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('input-token-days'), '30');
    await userEvent.click(screen.getByTestId('button-issue-token'));
    const token = await screen.findByTestId('text-issued-token');
    expect(token).toHaveTextContent('123 456 789');
    expect(screen.getByTestId('panel-token-issued')).toHaveTextContent('Add time: 30 days — token #2');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ type: 'ADD_TIME', days: 30 });
    await userEvent.click(screen.getByTestId('button-copy-token'));
    expect(writeText).toHaveBeenCalledWith('123456789');

    const table = await screen.findByTestId('table-tokens');
    const row = within(table).getByTestId('row-token-t1');
    expect(row).toHaveTextContent('Add time');
    expect(row).toHaveTextContent('123 456 789');
    expect(row).toHaveTextContent('Grace Owino');
  });

  it('asks before a DISABLE_PAYG token, and sends no days', async () => {
    const calls = stubApi({
      [`GET /api/devices/${DEVICE.id}/tokens`]: () => jsonResponse([]),
      [`POST /api/devices/${DEVICE.id}/tokens`]: () =>
        jsonResponse({ ...ISSUED, type: 'DISABLE_PAYG', value: null, days: null, count: 3 }, 201),
    });
    renderWithProviders(<OpenPaygoCard device={DEVICE} />);
    await userEvent.selectOptions(await screen.findByTestId('select-token-type'), 'DISABLE_PAYG');
    expect(screen.queryByTestId('input-token-days')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('button-issue-token'));
    await userEvent.click(await screen.findByTestId('button-confirm'));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ type: 'DISABLE_PAYG' }),
    );
    expect(await screen.findByTestId('panel-token-issued')).toHaveTextContent('Disable PAYG — token #3');
  });

  it('offers no token form to a user without device control', async () => {
    stubApi({
      'GET /api/user': () => jsonResponse({ ...OWNER, isOwner: false, role: 'collector' }),
      [`GET /api/devices/${DEVICE.id}/tokens`]: () => jsonResponse([]),
    });
    renderWithProviders(<OpenPaygoCard device={DEVICE} />);
    // A collector reads the tokens issued, but issues none.
    expect(await screen.findByTestId('text-tokens-empty')).toBeInTheDocument();
    expect(screen.getByTestId('text-token-permission')).toBeInTheDocument();
    expect(screen.queryByTestId('form-token')).not.toBeInTheDocument();
  });

  it('shows the contract’s arrears beside the button and gives use only by override, with a reason', async () => {
    const inArrears = underContract(12, 4_500);
    const calls = stubApi({
      [`GET /api/devices/${DEVICE.id}/tokens`]: () => jsonResponse([]),
      [`POST /api/devices/${DEVICE.id}/tokens`]: () => jsonResponse(ISSUED, 201),
    });
    renderWithProviders(<OpenPaygoCard device={inArrears} />);
    expect(await screen.findByTestId('text-token-arrears')).toHaveTextContent(
      'CT-000042 is 12 days in arrears: $45.00 overdue. Time or an unlock for this unit is a manual override, with a reason.',
    );
    const button = screen.getByTestId('button-issue-token');
    expect(button).toHaveTextContent('Issue by override');
    await userEvent.type(screen.getByTestId('input-token-days'), '7');
    await userEvent.click(button);
    expect(await screen.findByText('Give the reason for the override')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
    await userEvent.type(screen.getByTestId('input-token-override-reason'), 'Paid at the branch');
    await userEvent.click(button);
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        type: 'ADD_TIME',
        days: 7,
        overrideReason: 'Paid at the branch',
      }),
    );
    // A counter sync gives no use: no reason asked.
    await userEvent.selectOptions(screen.getByTestId('select-token-type'), 'COUNTER_SYNC');
    expect(screen.queryByTestId('input-token-override-reason')).not.toBeInTheDocument();
    expect(screen.getByTestId('button-issue-token')).toHaveTextContent('Issue token');
  });

  it('says nothing of arrears for a unit whose contract is up to date', async () => {
    stubApi({ [`GET /api/devices/${DEVICE.id}/tokens`]: () => jsonResponse([]) });
    const current = underContract(0, 0);
    renderWithProviders(<OpenPaygoCard device={current} />);
    expect(await screen.findByTestId('button-issue-token')).toHaveTextContent('Issue token');
    expect(screen.queryByTestId('text-token-arrears')).not.toBeInTheDocument();
    expect(screen.queryByTestId('input-token-override-reason')).not.toBeInTheDocument();
  });
});
