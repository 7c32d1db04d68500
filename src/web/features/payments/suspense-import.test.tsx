import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContractRow } from '@/contracts/contracts';
import type { ImportRow, PaymentImport } from '@/contracts/payment-imports';
import type { Role } from '@/contracts/roles';
import { IDS, staff } from '@/web/features/contracts/test-fixtures';
import { queryKeys } from '@/web/lib/query-keys';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { ImportPanel } from './import-panel';
import { SuspenseList } from './suspense-list';
import { PAYMENT_ID, payment, paymentResult } from './test-fixtures';

type Call = { url: string; method: string; body: unknown };

/** fetch answering by method and path (ids read as :id); every call is recorded. */
function mockApi(routes: Record<string, (call: Call) => Response>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
      const raw = init?.body;
      const body =
        raw instanceof FormData
          ? Object.fromEntries(raw.entries())
          : raw
            ? JSON.parse(String(raw))
            : undefined;
      const call: Call = { url, method, body };
      calls.push(call);
      const path = url.split('?')[0];
      const handler =
        routes[`${method} ${path}`] ?? routes[`${method} ${path?.replace(/[0-9a-f-]{36}/g, ':id')}`];
      return handler ? handler(call) : jsonResponse({ message: `unexpected ${method} ${url}` }, 500);
    }),
  );
  return calls;
}

function renderAs(role: Role, ui: React.ReactElement, path = '/payment-processing') {
  const result = renderWithProviders(ui, { path });
  result.client.setQueryData(queryKeys.auth.user(), staff(role, IDS.checker));
  return result;
}

afterEach(() => vi.unstubAllGlobals());

const held = payment({
  status: 'suspense',
  contractId: null,
  contractNumber: null,
  customerId: null,
  customerName: null,
  method: 'mobile_money',
  provider: 'mpesa',
  reference: 'QKX1ABC234',
  accountReference: 'CT-99999',
  postedByName: null,
  valueDate: null,
});
const page = (items: unknown[]) => ({ items, total: items.length, page: 1, pageSize: 25 });

const contractRow: ContractRow = {
  id: IDS.contract,
  number: 'CT-000042',
  status: 'active',
  customerId: IDS.customer,
  customerName: 'Amina Wanjiru',
  customerPhone: '+254712345678',
  deviceSerial: 'TS20-0001',
  deviceModel: 'Tecno Spark 20',
  planCode: 'PHONE-M',
  currency: 'USD',
  principal: 125_000,
  regularPayment: 32_200,
  frequency: 'monthly',
  dpd: 0,
  bucket: 'current',
  outstandingTotal: 128_000,
  creditBalance: 0,
  nextDueDate: '2026-02-15',
  createdAt: '2026-01-10T08:00:00.000Z',
  activatedAt: '2026-01-15T08:00:00.000Z',
};

describe('SuspenseList', () => {
  it('lists the held payments and matches one to a contract, showing the allocation and the receipt link', async () => {
    const user = userEvent.setup();
    const calls = mockApi({
      'GET /api/payments': () => jsonResponse(page([held])),
      'GET /api/contracts': () => jsonResponse({ items: [contractRow], total: 1, page: 1, pageSize: 20 }),
      'POST /api/payments/:id/match': () => jsonResponse(paymentResult({ method: 'mobile_money' })),
    });
    renderAs('finance', <SuspenseList />);
    const row = await screen.findByTestId(`row-suspense-${PAYMENT_ID}`);
    expect(row).toHaveTextContent('$400.00');
    expect(row).toHaveTextContent('CT-99999');
    expect(row).toHaveTextContent('QKX1ABC234');
    expect(row).toHaveTextContent('M-Pesa');
    const listCall = calls.find((c) => c.url.startsWith('/api/payments?'));
    expect(new URL(listCall?.url ?? '', 'http://x').searchParams.get('status')).toBe('suspense');

    await user.click(screen.getByTestId(`button-match-${PAYMENT_ID}`));
    await user.click(screen.getByTestId('button-confirm-match'));
    expect(await screen.findByText('Choose the contract this payment is for')).toBeInTheDocument();
    await user.click(screen.getByTestId('select-match-contract'));
    await user.click(await screen.findByRole('option', { name: /CT-000042/ }));
    await user.type(screen.getByTestId('input-match-reason'), 'Customer typed the wrong number');
    await user.click(screen.getByTestId('button-confirm-match'));

    const result = await screen.findByTestId('panel-match-result');
    expect(result).toHaveTextContent('Matched to CT-000042');
    expect(within(result).getByTestId('table-match-allocation')).toBeInTheDocument();
    expect(screen.getByTestId('link-match-receipt')).toHaveAttribute(
      'href',
      `/payment-processing/receipts/${PAYMENT_ID}`,
    );
    expect(calls.find((c) => c.url.endsWith('/match'))?.body).toEqual({
      contractId: IDS.contract,
      reason: 'Customer typed the wrong number',
    });
  });

  it('shows the server’s refusal in the dialog (a payment no longer in suspense)', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /api/payments': () => jsonResponse(page([held])),
      'POST /api/payments/:id/refund': () =>
        jsonResponse(
          {
            message: 'Only a payment in suspense can be refunded; R-000123 is posted',
            code: 'PAYMENT_STATE',
          },
          409,
        ),
    });
    renderAs('finance', <SuspenseList />);
    await user.click(await screen.findByTestId(`button-refund-${PAYMENT_ID}`));
    await user.type(screen.getByTestId('input-refund-reason'), 'Wrong business number');
    await user.click(screen.getByTestId('button-confirm-refund'));
    expect(await screen.findByText('Tick the box to confirm the refund')).toBeInTheDocument();
    await user.click(screen.getByTestId('checkbox-refund-sure'));
    await user.click(screen.getByTestId('button-confirm-refund'));
    expect(
      await within(screen.getByTestId('dialog-refund')).findByText(
        /Only a payment in suspense can be refunded/,
      ),
    ).toBeInTheDocument();
  });

  it('says when nothing waits, and offers no actions to those who only read', async () => {
    mockApi({ 'GET /api/payments': () => jsonResponse(page([])) });
    renderAs('viewer', <SuspenseList />);
    expect(await screen.findByTestId('empty-suspense')).toHaveTextContent('No payments waiting in suspense');
  });

  it('hides match and refund from agents', async () => {
    mockApi({ 'GET /api/payments': () => jsonResponse(page([held])) });
    renderAs('agent', <SuspenseList />);
    await screen.findByTestId(`row-suspense-${PAYMENT_ID}`);
    expect(screen.queryByTestId(`button-match-${PAYMENT_ID}`)).toBeNull();
  });
});

const IMPORT_ID = '77777777-7777-4777-8777-777777777777';

function paymentImport(overrides: Partial<PaymentImport> = {}): PaymentImport {
  return {
    id: IMPORT_ID,
    fileName: 'equity-march.csv',
    source: 'equity-bank',
    method: 'bank_transfer',
    status: 'previewed',
    columns: ['Account', 'Amount', 'Ref', 'Date'],
    mapping: {
      contract: 'Account',
      contractKey: 'contract_number',
      amount: 'Amount',
      reference: 'Ref',
      date: 'Date',
      dateFormat: 'iso',
      method: null,
    },
    unmapped: [],
    currency: 'USD',
    rowCount: 4,
    validCount: 2,
    postedCount: 0,
    postedAmount: 0,
    validAmount: 60_000,
    errorsByKind: { unknown_contract: 1, bad_amount: 1 },
    sameFileAs: null,
    createdByName: 'Fiona Finance',
    createdAt: '2026-01-21T10:00:00.000Z',
    confirmedAt: null,
    ...overrides,
  };
}

function importRow(rowNumber: number, overrides: Partial<ImportRow> = {}): ImportRow {
  return {
    rowNumber,
    status: 'valid',
    contractNumber: 'CT-000042',
    contractId: IDS.contract,
    amount: 30_000,
    reference: `BT-${rowNumber}`,
    receivedAt: '2026-01-20T09:00:00.000Z',
    method: 'bank_transfer',
    issue: null,
    error: null,
    paymentId: null,
    ...overrides,
  };
}

const ROWS = [
  importRow(2),
  importRow(3),
  importRow(4, {
    status: 'error',
    contractNumber: 'CT-404',
    contractId: null,
    amount: null,
    issue: 'unknown_contract',
    error: 'No contract matches "CT-404"',
  }),
  importRow(5, { status: 'error', amount: null, issue: 'bad_amount', error: 'The amount is not a number' }),
];

describe('ImportPanel', () => {
  it('uploads a statement with its source and method, and opens its preview', async () => {
    const user = userEvent.setup();
    const calls = mockApi({
      'GET /api/payment-imports': () =>
        jsonResponse({ items: [paymentImport({ status: 'posted' })], total: 1, page: 1, pageSize: 20 }),
      'GET /api/import-mappings': () =>
        jsonResponse({ source: 'equity-bank', mapping: paymentImport().mapping, updatedAt: null }),
      'POST /api/payment-imports': () => jsonResponse({ ...paymentImport(), rows: ROWS }, 201),
    });
    const { history } = renderAs('finance', <ImportPanel />, '/payment-processing?tab=import');
    await screen.findByTestId(`row-import-${IMPORT_ID}`);
    await user.click(screen.getByTestId('button-import-upload'));
    expect(await screen.findByText('Name the source (e.g. equity-bank)')).toBeInTheDocument();
    expect(screen.getByText('Choose a statement file (CSV or XLSX)')).toBeInTheDocument();

    await user.type(screen.getByTestId('input-import-source'), 'equity-bank');
    await user.selectOptions(screen.getByTestId('select-import-method'), 'mobile_money');
    const file = new File(['Account,Amount,Ref,Date\n'], 'equity-march.csv', { type: 'text/csv' });
    await user.upload(screen.getByTestId('input-import-file'), file);
    expect(await screen.findByText('The column mapping saved for this source is used.')).toBeInTheDocument();
    await user.click(screen.getByTestId('button-import-upload'));
    await waitFor(() => expect(history.at(-1)).toBe(`/payment-processing?tab=import&import=${IMPORT_ID}`));
    const upload = calls.find((c) => c.method === 'POST');
    expect(upload?.body).toMatchObject({ source: 'equity-bank', method: 'mobile_money' });
    expect((upload?.body as Record<string, unknown> | undefined)?.file).toBeInstanceOf(File);
  });

  it('previews the rows with their problems, re-maps, and confirms with the count and total', async () => {
    const user = userEvent.setup();
    let current = paymentImport({
      sameFileAs: { id: IDS.contract, status: 'posted', createdAt: '2026-01-01T00:00:00.000Z' },
    });
    const calls = mockApi({
      'GET /api/payment-imports': () => jsonResponse({ items: [current], total: 1, page: 1, pageSize: 20 }),
      'GET /api/payment-imports/:id': () => jsonResponse(current),
      'GET /api/payment-imports/:id/rows': (call) =>
        jsonResponse({
          items: call.url.includes('errorsOnly=true') ? ROWS.filter((r) => r.status === 'error') : ROWS,
          total: 4,
          page: 1,
          pageSize: 100,
        }),
      'PUT /api/payment-imports/:id/mapping': () => jsonResponse({ ...current, rows: ROWS }),
      'POST /api/payment-imports/:id/confirm': () => {
        current = paymentImport({ status: 'posted', postedCount: 2, postedAmount: 60_000 });
        return jsonResponse(current);
      },
    });
    renderAs('finance', <ImportPanel />, `/payment-processing?tab=import&import=${IMPORT_ID}`);
    expect(await screen.findByTestId('text-import-rows')).toHaveTextContent('4');
    expect(screen.getByTestId('text-import-valid')).toHaveTextContent('2');
    expect(screen.getByTestId('text-import-refused')).toHaveTextContent('2');
    expect(screen.getByTestId('badge-issue-unknown_contract')).toHaveTextContent('Unknown contract: 1');
    expect(screen.getByTestId('alert-same-file')).toHaveTextContent('The same file was imported before');
    expect(await screen.findByTestId('text-row-issue-4')).toHaveTextContent('No contract matches "CT-404"');
    expect(screen.getByTestId('link-import-refused')).toHaveAttribute(
      'href',
      `/api/payment-imports/${IMPORT_ID}/refused.csv`,
    );

    await user.click(screen.getByTestId('switch-import-errors-only'));
    await waitFor(() =>
      expect(within(screen.getByTestId('table-import-rows')).getAllByRole('row')).toHaveLength(3),
    );

    await user.selectOptions(screen.getByTestId('select-mapping-dateFormat'), 'dmy');
    await user.click(screen.getByTestId('button-import-remap'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      mapping: {
        contract: 'Account',
        contractKey: 'contract_number',
        amount: 'Amount',
        reference: 'Ref',
        date: 'Date',
        dateFormat: 'dmy',
        method: null,
      },
    });

    await user.click(screen.getByTestId('button-import-confirm'));
    const dialog = await screen.findByTestId('dialog-confirm');
    expect(dialog).toHaveTextContent('Post 2 payments ($600.00)?');
    await user.click(within(dialog).getByTestId('button-confirm'));
    expect(await screen.findByTestId('text-import-posted')).toHaveTextContent('2 payments posted, $600.00');
    expect(screen.queryByTestId('button-import-confirm')).toBeNull();
  });

  it('shows the posting progress and polls until the import is posted', async () => {
    let polls = 0;
    mockApi({
      'GET /api/payment-imports': () => jsonResponse({ items: [], total: 0, page: 1, pageSize: 20 }),
      'GET /api/payment-imports/:id': () => {
        polls += 1;
        return jsonResponse(
          polls < 2
            ? paymentImport({ status: 'posting', postedCount: 1 })
            : paymentImport({ status: 'posted', postedCount: 2, postedAmount: 60_000 }),
        );
      },
      'GET /api/payment-imports/:id/rows': () =>
        jsonResponse({ items: ROWS, total: 4, page: 1, pageSize: 100 }),
    });
    renderAs('finance', <ImportPanel />, `/payment-processing?tab=import&import=${IMPORT_ID}`);
    expect(await screen.findByTestId('text-import-progress')).toHaveTextContent('1 of 2');
    expect(screen.getByTestId('progress-import')).toBeInTheDocument();
    expect(await screen.findByTestId('text-import-posted', {}, { timeout: 3000 })).toHaveTextContent(
      '2 payments posted',
    );
  });

  it('discards a previewed import after asking', async () => {
    const user = userEvent.setup();
    let current = paymentImport();
    const calls = mockApi({
      'GET /api/payment-imports': () => jsonResponse({ items: [current], total: 1, page: 1, pageSize: 20 }),
      'GET /api/payment-imports/:id': () => jsonResponse(current),
      'GET /api/payment-imports/:id/rows': () =>
        jsonResponse({ items: ROWS, total: 4, page: 1, pageSize: 100 }),
      'POST /api/payment-imports/:id/discard': () => {
        current = paymentImport({ status: 'discarded' });
        return jsonResponse(current);
      },
    });
    renderAs('finance', <ImportPanel />, `/payment-processing?tab=import&import=${IMPORT_ID}`);
    await user.click(await screen.findByTestId('button-import-discard'));
    await user.click(within(screen.getByTestId('dialog-confirm')).getByTestId('button-confirm'));
    expect(await screen.findByTestId('text-import-discarded')).toBeInTheDocument();
    expect(calls.some((c) => c.url.endsWith('/discard'))).toBe(true);
  });
});
