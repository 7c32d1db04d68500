import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BusinessDateState } from '@/contracts/business-date';
import { stubApi } from '@/web/features/devices/test-api';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { BusinessDateCard } from './business-date-card';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TODAY: BusinessDateState = { businessDate: '2026-03-10', lastClosedDate: null, control: true };

function setUp(state: BusinessDateState, put?: Parameters<typeof stubApi>[0][string]) {
  const calls = stubApi({
    'GET /api/business-date': () => jsonResponse(state),
    ...(put ? { 'PUT /api/business-date': put } : {}),
  });
  renderWithProviders(<BusinessDateCard />);
  return calls;
}

describe('business date card', () => {
  it('shows the dates, and no way to move them where the server does not allow it', async () => {
    setUp({ businessDate: '2026-03-10', lastClosedDate: '2026-03-09', control: false });
    expect(await screen.findByTestId('text-business-date')).toHaveTextContent('10 Mar 2026');
    expect(screen.getByTestId('text-last-closed-date')).toHaveTextContent('9 Mar 2026');
    expect(screen.queryByTestId('input-business-date')).not.toBeInTheDocument();
  });

  it('moves the date forward after a confirmation', async () => {
    const user = userEvent.setup();
    let state = TODAY;
    const calls = stubApi({
      'GET /api/business-date': () => jsonResponse(state),
      'PUT /api/business-date': (call) => {
        state = { ...state, ...(call.body as { businessDate: string }) };
        return jsonResponse(state);
      },
    });
    renderWithProviders(<BusinessDateCard />);
    expect(await screen.findByTestId('text-last-closed-date')).toHaveTextContent('None yet');
    await user.type(screen.getByTestId('input-business-date'), '2026-04-19');
    await user.click(screen.getByTestId('button-move-business-date'));
    const dialog = await screen.findByTestId('dialog-confirm');
    expect(dialog).toHaveTextContent('From 10 Mar 2026 to 19 Apr 2026');
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    await user.click(within(dialog).getByTestId('button-confirm'));
    await waitFor(() => expect(screen.getByTestId('text-business-date')).toHaveTextContent('19 Apr 2026'));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ businessDate: '2026-04-19' });
  });

  it('asks for a date, and shows the server’s refusal under the field', async () => {
    const user = userEvent.setup();
    const message = 'The business date moves forward only: choose 2026-03-10 or a later date';
    setUp(TODAY, () =>
      jsonResponse(
        { message, code: 'BUSINESS_DATE_REFUSED', errors: [{ field: 'businessDate', message }] },
        422,
      ),
    );
    await user.click(await screen.findByTestId('button-move-business-date'));
    expect(await screen.findByText('The business date must be a date (YYYY-MM-DD)')).toBeInTheDocument();
    expect(screen.queryByTestId('dialog-confirm')).not.toBeInTheDocument();

    await user.type(screen.getByTestId('input-business-date'), '2026-03-01');
    await user.click(screen.getByTestId('button-move-business-date'));
    await user.click(within(await screen.findByTestId('dialog-confirm')).getByTestId('button-confirm'));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByTestId('input-business-date')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('text-business-date')).toHaveTextContent('10 Mar 2026');
  });
});
