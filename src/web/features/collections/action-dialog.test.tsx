import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CollectionAction } from '@/contracts/collections';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { LogActionDialog } from './action-dialog';

const CONTRACT = '11111111-1111-4111-8111-111111111111';

const logged = (overrides: Partial<CollectionAction> = {}): CollectionAction => ({
  id: '22222222-2222-4222-8222-222222222222',
  contractId: CONTRACT,
  contractNumber: 'CT-000042',
  kind: 'promise',
  outcome: null,
  note: null,
  promiseId: '33333333-3333-4333-8333-333333333333',
  deviceCommandId: null,
  actorId: null,
  actorName: null,
  at: '2026-03-01T10:00:00.000Z',
  businessDate: '2026-03-01',
  ...overrides,
});

/** fetch answering the action's POST with `answer` (status), recording the bodies sent. */
function mockApi(answer: unknown, status = 201) {
  const posts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
      if (url === `/api/collections/contracts/${CONTRACT}/actions` && init?.method === 'POST') {
        posts.push(JSON.parse(String(init.body)));
        return jsonResponse(answer, status);
      }
      return jsonResponse({ items: [], total: 0, page: 1, pageSize: 50 });
    }),
  );
  return posts;
}

function renderDialog(onClose = vi.fn()) {
  renderWithProviders(
    <LogActionDialog
      target={{
        contractId: CONTRACT,
        contractNumber: 'CT-000042',
        customerName: 'Juma Kariuki',
        currency: 'USD',
        amountOverdue: 31_000,
      }}
      businessDate="2026-03-01"
      onClose={onClose}
    />,
  );
  return onClose;
}

afterEach(() => vi.unstubAllGlobals());

describe('LogActionDialog', () => {
  it('asks for the outcome of a call before sending anything', async () => {
    const user = userEvent.setup();
    const posts = mockApi(logged({ kind: 'call', outcome: 'no_answer' }));
    const onClose = renderDialog();
    await user.click(screen.getByTestId('button-submit-action'));
    expect(screen.getByText('Choose the outcome')).toBeInTheDocument();
    expect(screen.getByTestId('select-action-outcome')).toHaveAttribute('aria-invalid', 'true');
    expect(posts).toEqual([]);
    await user.selectOptions(screen.getByTestId('select-action-outcome'), 'no_answer');
    await user.click(screen.getByTestId('button-submit-action'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toEqual([{ kind: 'call', outcome: 'no_answer' }]);
  });

  it('checks the promise’s date and amount per field, then sends minor units', async () => {
    const user = userEvent.setup();
    const posts = mockApi(logged());
    const onClose = renderDialog();
    await user.selectOptions(screen.getByTestId('select-action-kind'), 'promise');
    expect(screen.getByTestId('input-promise-date')).toHaveValue('2026-03-02');
    await user.clear(screen.getByTestId('input-promise-date'));
    await user.type(screen.getByTestId('input-promise-date'), '2026-02-20');
    await user.click(screen.getByTestId('button-submit-action'));
    expect(screen.getByText('The date must be today (1 Mar 2026) or later')).toBeInTheDocument();
    expect(screen.getByText('Give the amount promised')).toBeInTheDocument();
    await user.clear(screen.getByTestId('input-promise-date'));
    await user.type(screen.getByTestId('input-promise-date'), '2026-03-05');
    await user.type(screen.getByTestId('input-promise-amount'), '12.345');
    await user.click(screen.getByTestId('button-submit-action'));
    expect(screen.getByText(/at most 2 decimals/)).toBeInTheDocument();
    await user.clear(screen.getByTestId('input-promise-amount'));
    await user.type(screen.getByTestId('input-promise-amount'), '150');
    await user.click(screen.getByTestId('button-submit-action'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toEqual([{ kind: 'promise', promiseDate: '2026-03-05', promiseAmount: 15_000 }]);
  });

  it('shows the server’s refusal under its field', async () => {
    const user = userEvent.setup();
    mockApi(
      {
        message: 'The amount is more than the $100.00 outstanding',
        code: 'RULE',
        errors: [{ field: 'promiseAmount', message: 'The amount is more than the $100.00 outstanding' }],
      },
      422,
    );
    const onClose = renderDialog();
    await user.selectOptions(screen.getByTestId('select-action-kind'), 'promise');
    await user.type(screen.getByTestId('input-promise-amount'), '500');
    await user.click(screen.getByTestId('button-submit-action'));
    expect(await screen.findByText('The amount is more than the $100.00 outstanding')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
