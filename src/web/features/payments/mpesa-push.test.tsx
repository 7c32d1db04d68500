import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Contract } from '@/contracts/contracts';
import type { Push } from '@/contracts/payments';
import type { Role } from '@/contracts/roles';
import { contract, IDS, staff } from '@/web/features/contracts/test-fixtures';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { RequestMpesaButton, suggestedPushAmount } from './mpesa-push';
import { PAYMENT_ID } from './test-fixtures';

const PUSH_ID = '77777777-7777-4777-8777-777777777777';

/** Instalment 1 overdue with $12.00 of it paid; the next one upcoming. */
const owing = (overrides: Partial<Contract> = {}): Contract => {
  const base = contract({ status: 'active' });
  const [first, ...rest] = base.schedule;
  return {
    ...base,
    schedule: [{ ...(first as Contract['schedule'][number]), status: 'overdue', paid: 1_200 }, ...rest],
    nextDue: { installmentNumber: 1, dueDate: '2026-02-15', amount: 31_000 },
    ...overrides,
  };
};

function push(overrides: Partial<Push> = {}): Push {
  return {
    id: PUSH_ID,
    contractId: IDS.contract,
    contractNumber: 'CT-000042',
    phone: '+254712345678',
    amount: 31_000,
    currency: 'USD',
    provider: 'simulator',
    checkoutRequestId: 'ws_CO_SIM_1',
    status: 'pending',
    resultCode: null,
    resultDesc: null,
    paymentId: null,
    createdAt: '2026-02-20T09:00:00.000Z',
    completedAt: null,
    ...overrides,
  };
}

/** fetch answering the push and its polls; `states` are the GET answers in turn (the last repeats). */
function mockPush(created: Push, states: Push[]) {
  const posts: unknown[] = [];
  let polls = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
      if (url === '/api/payments/push' && init?.method === 'POST') {
        posts.push(JSON.parse(String(init.body)));
        return jsonResponse(created, 201);
      }
      if (url === `/api/payments/push/${PUSH_ID}`) {
        const state = states[Math.min(polls, states.length - 1)];
        polls += 1;
        return jsonResponse(state);
      }
      return jsonResponse({ items: [], total: 0, page: 1, pageSize: 20 });
    }),
  );
  return posts;
}

function renderButton(role: Role, c: Contract = owing()) {
  return renderWithProviders(<RequestMpesaButton contract={c} user={staff(role)} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('suggestedPushAmount', () => {
  it('asks for what is overdue, else the next instalment, never beyond the balance, in whole units', () => {
    expect(suggestedPushAmount(owing())).toEqual({ amount: 31_000, basis: 'due' });
    expect(
      suggestedPushAmount(
        owing({
          schedule: contract().schedule,
          nextDue: { installmentNumber: 1, dueDate: '2026-02-15', amount: 32_200 },
        }),
      ),
    ).toEqual({ amount: 32_200, basis: 'next' });
    expect(
      suggestedPushAmount(
        owing({ outstanding: { principal: 950, interest: 0, fees: 0, penalties: 0, total: 950 } }),
      ),
    ).toEqual({ amount: 1_000, basis: 'due' });
    expect(suggestedPushAmount(owing({ schedule: contract().schedule, nextDue: null }))).toBeNull();
  });
});

describe('RequestMpesaButton', () => {
  it('prefills the customer’s phone and the amount due, checks each field, confirms, and follows the push until paid', async () => {
    const user = userEvent.setup();
    const posts = mockPush(push(), [
      push(),
      push({ status: 'succeeded', resultCode: 0, paymentId: PAYMENT_ID }),
    ]);
    const { history } = renderButton('agent');
    await user.click(screen.getByTestId('button-request-mpesa'));
    expect(screen.getByTestId('input-push-phone')).toHaveValue('+254712345678');
    expect(screen.getByTestId('input-push-amount')).toHaveValue('310.00');
    expect(screen.getByText('Due now: $310.00.')).toBeInTheDocument();

    await user.clear(screen.getByTestId('input-push-phone'));
    await user.clear(screen.getByTestId('input-push-amount'));
    await user.type(screen.getByTestId('input-push-amount'), '310.50');
    await user.click(screen.getByTestId('button-push-review'));
    expect(screen.getByText('Enter the phone number to ask')).toBeInTheDocument();
    expect(screen.getByText('M-Pesa takes whole amounts: leave out the cents')).toBeInTheDocument();
    expect(screen.getByTestId('input-push-phone')).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByTestId('input-push-phone'), '0712 345 678');
    await user.clear(screen.getByTestId('input-push-amount'));
    await user.type(screen.getByTestId('input-push-amount'), '310');
    await user.click(screen.getByTestId('button-push-review'));
    expect(screen.getByTestId('text-push-confirm')).toHaveTextContent(
      'Ask 0712 345 678 to pay $310.00 on CT-000042?',
    );
    expect(posts).toEqual([]);

    // By keyboard: the confirm step puts focus on its send button.
    expect(screen.getByTestId('button-push-send')).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('status-push')).toHaveAttribute('data-state', 'paid'), {
      timeout: 3000,
    });
    expect(posts).toEqual([{ contractId: IDS.contract, phone: '0712 345 678', amount: 31_000 }]);
    expect(screen.getByTestId('text-push-state')).toHaveTextContent('Paid');
    await user.click(screen.getByTestId('link-push-receipt'));
    expect(history.at(-1)).toBe(`/payment-processing/receipts/${PAYMENT_ID}`);
  });

  it('reads the customer’s cancellation as cancelled and asks again from the form', async () => {
    const user = userEvent.setup();
    mockPush(push(), [push({ status: 'failed', resultCode: 1032, resultDesc: 'Request cancelled by user' })]);
    renderButton('agent');
    await user.click(screen.getByTestId('button-request-mpesa'));
    await user.click(screen.getByTestId('button-push-review'));
    await user.click(screen.getByTestId('button-push-send'));
    await waitFor(() => expect(screen.getByTestId('status-push')).toHaveAttribute('data-state', 'cancelled'));
    expect(screen.getByTestId('status-push')).toHaveTextContent('The customer cancelled the request');
    await user.click(screen.getByTestId('button-push-retry'));
    expect(screen.getByTestId('input-push-amount')).toHaveValue('310.00');
    expect(screen.getByTestId('input-push-phone')).toHaveFocus();
  });

  it('shows a refusal by the provider as failed, with its reason', async () => {
    const user = userEvent.setup();
    const failed = push({ status: 'failed', resultDesc: 'The provider could not be reached' });
    mockPush(failed, [failed]);
    renderButton('finance');
    await user.click(screen.getByTestId('button-request-mpesa'));
    await user.click(screen.getByTestId('button-push-review'));
    await user.click(screen.getByTestId('button-push-send'));
    await waitFor(() => expect(screen.getByTestId('status-push')).toHaveAttribute('data-state', 'failed'));
    expect(screen.getByTestId('status-push')).toHaveTextContent('The provider could not be reached');
  });

  it('is offered only to those who take payments, on live contracts', () => {
    mockPush(push(), [push()]);
    renderButton('viewer');
    expect(screen.queryByTestId('button-request-mpesa')).toBeNull();
    renderButton('agent', owing({ status: 'paid_off' }));
    expect(screen.queryByTestId('button-request-mpesa')).toBeNull();
  });
});
