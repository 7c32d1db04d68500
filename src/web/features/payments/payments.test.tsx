import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@/contracts/roles';
import { contract, IDS, staff } from '@/web/features/contracts/test-fixtures';
import { queryKeys } from '@/web/lib/query-keys';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { CorrectionsList } from './corrections-list';
import { PostPaymentForm } from './post-payment-form';
import { ReceiptView } from './receipt-view';
import { correction, historyEntry as entry, history, PAYMENT_ID, paymentResult } from './test-fixtures';

const OTHER_PAYMENT = '66666666-6666-4666-8666-666666666666';

type Call = { url: string; method: string; body: unknown; headers: Record<string, string> };

const active = contract({
  status: 'active',
  outstanding: { principal: 125_000, interest: 3_000, fees: 0, penalties: 0, total: 128_000 },
  nextDue: { installmentNumber: 1, dueDate: '2026-02-15', amount: 32_200 },
  paidThroughDate: '2026-01-15',
});

/** fetch answering by method and path; every call is recorded. */
function mockApi(routes: Record<string, (call: Call) => Response>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
      const call: Call = {
        url,
        method,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
        headers: Object.fromEntries(new Headers(init?.headers).entries()),
      };
      calls.push(call);
      const path = url.split('?')[0];
      const handler =
        routes[`${method} ${path}`] ?? routes[`${method} ${path?.replace(/[0-9a-f-]{36}/g, ':id')}`];
      return handler ? handler(call) : jsonResponse({ message: `unexpected ${method} ${url}` }, 500);
    }),
  );
  return calls;
}

function renderAs(role: Role, ui: React.ReactElement, path = '/payment-processing', userId = IDS.checker) {
  const result = renderWithProviders(ui, { path });
  result.client.setQueryData(queryKeys.auth.user(), staff(role, userId));
  return result;
}

afterEach(() => vi.unstubAllGlobals());

const PREVIEW = {
  allocations: [
    { installmentNumber: 1, component: 'interest', amount: 1_562 },
    { installmentNumber: 1, component: 'principal', amount: 30_638 },
  ],
  outstandingBefore: 128_000,
  outstandingAfter: 95_800,
  paidThroughBefore: '2026-01-15',
  paidThroughAfter: '2026-02-15',
  currency: 'USD',
};

describe('PostPaymentForm', () => {
  it('shows the contract, previews the allocation, and posts once with an Idempotency-Key', async () => {
    const user = userEvent.setup();
    const calls = mockApi({
      'GET /api/contracts/:id': () => jsonResponse(active),
      'GET /api/contracts': () => jsonResponse({ items: [], total: 0, page: 1, pageSize: 20 }),
      'POST /api/payments/preview': () => jsonResponse(PREVIEW),
      'POST /api/payments': () => jsonResponse(paymentResult({ amount: 32_200 }), 201),
    });
    const { history } = renderAs('agent', <PostPaymentForm initialContractId={IDS.contract} />);
    expect(await screen.findByTestId('text-payment-outstanding')).toHaveTextContent('$1,280.00');
    // An agent records cash only.
    const method = screen.getByTestId('select-payment-method');
    expect(
      within(method)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Cash']);

    await user.type(screen.getByTestId('input-payment-amount'), '322');
    const table = await screen.findByTestId('table-preview');
    expect(within(table).getByText('Principal')).toBeInTheDocument();
    expect(screen.getByTestId('text-preview-outstanding')).toHaveTextContent('$1,280.00');
    expect(screen.getByTestId('text-preview-outstanding')).toHaveTextContent('$958.00');
    const previewCall = calls.find((c) => c.url === '/api/payments/preview');
    expect(previewCall?.body).toEqual({ contractId: IDS.contract, amount: 32_200 });

    await user.click(screen.getByTestId('button-post-payment'));
    await waitFor(() => expect(history.at(-1)).toBe(`/payment-processing/receipts/${PAYMENT_ID}`));
    const posted = calls.filter((c) => c.method === 'POST' && c.url === '/api/payments');
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body).toEqual({ contractId: IDS.contract, amount: 32_200, method: 'cash' });
    expect(posted[0]?.headers['idempotency-key']).toMatch(/[0-9a-f-]{36}/);
  });

  it('checks the fields itself, shows the server’s field messages, and retries with the same key', async () => {
    const user = userEvent.setup();
    let attempt = 0;
    const calls = mockApi({
      'GET /api/contracts/:id': () => jsonResponse(active),
      'GET /api/contracts': () => jsonResponse({ items: [], total: 0, page: 1, pageSize: 20 }),
      'POST /api/payments/preview': () => jsonResponse(PREVIEW),
      'POST /api/payments': () => {
        attempt += 1;
        return attempt === 1
          ? jsonResponse(
              {
                message: 'Check the fields',
                code: 'VALIDATION',
                errors: [{ field: 'reference', message: 'That reference was used on another payment' }],
              },
              400,
            )
          : jsonResponse(paymentResult(), 201);
      },
    });
    renderAs('finance', <PostPaymentForm initialContractId={IDS.contract} />);
    await screen.findByTestId('text-payment-outstanding');
    await user.click(screen.getByTestId('button-post-payment'));
    expect(await screen.findByText('Enter the amount received')).toBeInTheDocument();

    await user.type(screen.getByTestId('input-payment-amount'), '400');
    await user.selectOptions(screen.getByTestId('select-payment-method'), 'bank_transfer');
    await user.click(screen.getByTestId('button-post-payment'));
    expect(await screen.findByText(/Enter the transaction reference/)).toBeInTheDocument();

    await user.type(screen.getByTestId('input-payment-reference'), 'BT-1');
    await user.click(screen.getByTestId('button-post-payment'));
    expect(await screen.findByText('That reference was used on another payment')).toBeInTheDocument();
    await user.click(screen.getByTestId('button-post-payment'));
    await waitFor(() => expect(attempt).toBe(2));
    const keys = calls
      .filter((c) => c.method === 'POST' && c.url === '/api/payments')
      .map((c) => c.headers['idempotency-key']);
    expect(keys[0]).toBe(keys[1]);
  });
});

describe('ReceiptView', () => {
  it('shows the receipt, its allocation and token, the PDF link, and lets finance request a reversal', async () => {
    const user = userEvent.setup();
    const result = paymentResult({ token: { token: '123456789', type: 'ADD_TIME', days: 30 } });
    let requested = false;
    const calls = mockApi({
      'GET /api/payments/:id': () => jsonResponse(result),
      'GET /api/payments/:id/history': () => jsonResponse(requested ? history([entry()]) : history([])),
      'POST /api/payments/:id/reverse': () => {
        requested = true;
        return jsonResponse(correction(), 201);
      },
    });
    renderAs('finance', <ReceiptView id={PAYMENT_ID} />);
    expect(await screen.findByTestId('text-receipt-number')).toHaveTextContent('R-000123');
    expect(screen.getByTestId('text-payment-token')).toHaveTextContent('123 456 789');
    expect(within(screen.getByTestId('table-receipt-allocation')).getAllByRole('row')).toHaveLength(6);
    expect(screen.getByTestId('link-receipt-pdf')).toHaveAttribute(
      'href',
      `/api/payments/${PAYMENT_ID}/receipt.pdf`,
    );

    await user.click(screen.getByTestId('button-reverse-payment'));
    await user.click(screen.getByTestId('button-confirm-reverse'));
    expect(await screen.findByText('Give a reason (at least 3 characters)')).toBeInTheDocument();
    await user.type(screen.getByTestId('input-reverse-reason'), 'Cheque bounced');
    await user.click(screen.getByTestId('button-confirm-reverse'));
    expect(await screen.findByTestId('card-correction-requested')).toBeInTheDocument();
    expect(calls.find((c) => c.url.endsWith('/reverse'))?.body).toEqual({ reason: 'Cheque bounced' });
    // The request joins the receipt's corrections at once.
    const listed = await screen.findByTestId(`entry-correction-${correction().id}`);
    expect(listed).toHaveTextContent('Waiting for a second finance user');
  });

  it('offers agents no corrections, and marks a reversed payment', async () => {
    mockApi({
      'GET /api/payments/:id': () =>
        jsonResponse(paymentResult({ status: 'reversed', reversalReason: 'Bounced' })),
      'GET /api/payments/:id/history': () => jsonResponse(history([])),
    });
    renderAs('agent', <ReceiptView id={PAYMENT_ID} />);
    expect(await screen.findByTestId('card-reversed')).toHaveTextContent('Bounced');
    expect(screen.queryByTestId('button-reverse-payment')).toBeNull();
    expect(screen.queryByTestId('button-transfer-payment')).toBeNull();
    expect(await screen.findByTestId('empty-receipt-corrections')).toHaveTextContent(
      'No reversal or transfer has been asked for this payment.',
    );
  });

  it('lists the corrections with who asked and who decided, and links a transfer’s other payment', async () => {
    const moved = {
      id: OTHER_PAYMENT,
      receiptNumber: 'R-000130',
      contractId: IDS.customer,
      contractNumber: 'CT-000043',
      status: 'posted' as const,
    };
    mockApi({
      'GET /api/payments/:id': () =>
        jsonResponse(
          paymentResult({ status: 'reversed', reversalReason: 'Transferred: Paid for her brother' }),
        ),
      'GET /api/payments/:id/history': () =>
        jsonResponse({
          ...history([
            entry({
              id: 'c1',
              status: 'rejected',
              reason: 'Wrong till',
              decidedByName: 'Brian Otieno',
              decidedAt: '2026-01-21T11:00:00.000Z',
              decisionNote: 'Till checked',
            }),
            entry({
              id: 'c2',
              kind: 'transfer',
              status: 'approved',
              reason: 'Paid for her brother',
              targetContractId: IDS.customer,
              targetContractNumber: 'CT-000043',
              decidedByName: 'Brian Otieno',
              decidedAt: '2026-01-22T11:00:00.000Z',
            }),
          ]),
          transferredTo: moved,
        }),
    });
    renderAs('finance', <ReceiptView id={PAYMENT_ID} />);
    const rejected = await screen.findByTestId('entry-correction-c1');
    expect(rejected).toHaveAttribute('data-status', 'rejected');
    expect(rejected).toHaveTextContent('Wrong till');
    expect(rejected).toHaveTextContent('Asked by Fiona Finance');
    expect(rejected).toHaveTextContent('Rejected by Brian Otieno');
    expect(rejected).toHaveTextContent('Till checked');
    const approved = screen.getByTestId('entry-correction-c2');
    expect(approved).toHaveTextContent('Transfer to CT-000043');
    expect(within(approved).getByRole('link', { name: 'CT-000043' })).toHaveAttribute(
      'href',
      `/contracts/${IDS.customer}`,
    );
    expect(screen.getByTestId('text-transferred-to')).toHaveTextContent(
      'Transferred to CT-000043 as receipt R-000130.',
    );
    expect(screen.getByTestId('link-transferred-to')).toHaveAttribute(
      'href',
      `/payment-processing/receipts/${OTHER_PAYMENT}`,
    );
  });

  it('names the payment a transfer came from, and hides corrections while one waits', async () => {
    mockApi({
      'GET /api/payments/:id': () => jsonResponse(paymentResult({ transferredFrom: OTHER_PAYMENT })),
      'GET /api/payments/:id/history': () =>
        jsonResponse({
          ...history([entry()]),
          transferredFrom: {
            id: OTHER_PAYMENT,
            receiptNumber: 'R-000100',
            contractId: IDS.customer,
            contractNumber: 'CT-000041',
            status: 'reversed',
          },
        }),
    });
    renderAs('finance', <ReceiptView id={PAYMENT_ID} />);
    expect(await screen.findByTestId('text-transferred-from')).toHaveTextContent(
      'Transferred here from CT-000041, where receipt R-000100 is reversed.',
    );
    // Someone asked already: one open correction per payment, so no second request is offered.
    expect(screen.getByTestId('card-correction-requested')).toBeInTheDocument();
    expect(screen.queryByTestId('button-reverse-payment')).toBeNull();
  });
});

describe('CorrectionsList', () => {
  it('tells the maker a second person decides, and shows the server’s MAKER_CHECKER refusal', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /api/payment-corrections': () =>
        jsonResponse({ items: [correction()], total: 1, page: 1, pageSize: 25 }),
      'POST /api/payment-corrections/:id/approve': () =>
        jsonResponse(
          { message: 'A second person must approve a correction you requested', code: 'MAKER_CHECKER' },
          403,
        ),
    });
    renderAs('finance', <CorrectionsList />, '/payment-processing?tab=reversals', IDS.maker);
    const id = correction().id;
    expect(await screen.findByTestId(`text-maker-${id}`)).toHaveTextContent(
      'a second finance user must approve',
    );
    await user.click(screen.getByTestId(`button-approve-${id}`));
    await user.click(screen.getByTestId('button-confirm-approve'));
    expect(
      await screen.findByText('A second person must approve a correction you requested'),
    ).toBeInTheDocument();
  });

  it('approves as another finance user, with a note', async () => {
    const user = userEvent.setup();
    const calls = mockApi({
      'GET /api/payment-corrections': () =>
        jsonResponse({ items: [correction()], total: 1, page: 1, pageSize: 25 }),
      'POST /api/payment-corrections/:id/approve': () => jsonResponse(correction({ status: 'approved' })),
    });
    renderAs('finance', <CorrectionsList />);
    const id = correction().id;
    await user.click(await screen.findByTestId(`button-approve-${id}`));
    await user.type(screen.getByTestId('input-decision-note'), 'Checked with the bank');
    await user.click(screen.getByTestId('button-confirm-approve'));
    await waitFor(() => expect(screen.queryByTestId('dialog-approve')).toBeNull());
    expect(calls.find((c) => c.url.endsWith('/approve'))?.body).toEqual({ note: 'Checked with the bank' });
  });

  it('says when nothing waits', async () => {
    mockApi({
      'GET /api/payment-corrections': () => jsonResponse({ items: [], total: 0, page: 1, pageSize: 25 }),
    });
    renderAs('viewer', <CorrectionsList />);
    expect(await screen.findByTestId('empty-corrections')).toHaveTextContent('Nothing waiting for approval.');
  });
});
