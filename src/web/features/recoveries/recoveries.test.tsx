import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Repossession, WriteOff } from '@/contracts/recoveries';
import type { Role } from '@/contracts/roles';
import { IDS, staff } from '@/web/features/contracts/test-fixtures';
import { queryKeys } from '@/web/lib/query-keys';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { RepossessionsTab } from './repossessions-tab';
import { WriteOffsTab } from './write-offs-tab';

const balance = { principal: 100_000, interest: 2_000, fees: 0, penalties: 500, total: 102_500 };
const person = (id: string, name: string) => ({ id, name });

const repossession = (overrides: Partial<Repossession> = {}): Repossession => ({
  id: '88888888-8888-4888-8888-888888888888',
  status: 'approved',
  contractId: IDS.contract,
  contractNumber: 'CT-000001',
  contractStatus: 'defaulted',
  customerId: IDS.customer,
  customerName: 'Amina Wanjiru',
  deviceId: IDS.device,
  deviceSerial: 'TS20-0042',
  currency: 'USD',
  reason: 'Three instalments missed',
  outstandingAtRequest: balance,
  requestedBy: person(IDS.maker, 'Cynthia Njeri'),
  requestedAt: '2026-02-01T10:00:00.000Z',
  decidedBy: person(IDS.checker, 'Peter Mwangi'),
  decidedAt: '2026-02-02T10:00:00.000Z',
  decisionNote: null,
  recoveredBy: null,
  recoveredAt: null,
  condition: null,
  conditionNotes: null,
  recoveryValue: null,
  balanceTreatment: null,
  writtenOff: null,
  ...overrides,
});

const writeOff = (overrides: Partial<WriteOff> = {}): WriteOff => ({
  id: '99999999-9999-4999-8999-999999999999',
  status: 'pending',
  contractId: IDS.contract,
  contractNumber: 'CT-000001',
  contractStatus: 'defaulted',
  customerId: IDS.customer,
  customerName: 'Amina Wanjiru',
  currency: 'USD',
  reason: 'Customer deceased',
  outstanding: balance,
  writtenOff: null,
  requestedBy: person(IDS.maker, 'Cynthia Njeri'),
  requestedAt: '2026-02-01T10:00:00.000Z',
  decidedBy: null,
  decidedAt: null,
  decisionNote: null,
  ...overrides,
});

const page = <T,>(items: T[]) => jsonResponse({ items, total: items.length, page: 1, pageSize: 20 });

function mockApi(routes: Record<string, (body: unknown) => Response>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url, body });
      const handler = routes[`${method} ${url.split('?')[0]}`];
      return handler ? handler(body) : jsonResponse({ message: `unexpected ${method} ${url}` }, 500);
    }),
  );
  return calls;
}

function renderAs(role: Role, ui: React.ReactElement, userId: string = IDS.checker) {
  const result = renderWithProviders(ui, { path: '/collections' });
  result.client.setQueryData(queryKeys.auth.user(), staff(role, userId));
  return result;
}

afterEach(() => vi.unstubAllGlobals());

describe('recoveries tabs', () => {
  it('the requester of a write-off is told a second person decides, and gets no buttons', async () => {
    mockApi({ 'GET /api/write-offs': () => page([writeOff()]) });
    renderAs('manager', <WriteOffsTab />, IDS.maker);
    const row = await screen.findByTestId(`row-write-off-${writeOff().id}`);
    within(row).getByText('You asked for this: a second person must approve or reject it.');
    expect(within(row).queryByRole('button', { name: /approve/i })).toBeNull();
    expect(within(row).getByTestId(`table-write-off-${writeOff().id}-total`).textContent).toBe('$1,025.00');
  });

  it('a rejection needs a reason before anything is sent', async () => {
    const calls = mockApi({
      'GET /api/write-offs': () => page([writeOff()]),
      [`POST /api/write-offs/${writeOff().id}/reject`]: () => jsonResponse(writeOff({ status: 'rejected' })),
    });
    renderAs('manager', <WriteOffsTab />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId(`button-reject-${writeOff().id}`));
    await user.click(screen.getByTestId('button-confirm-reject-write-off'));
    await screen.findByText('Give a reason (at least 3 characters)');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.type(screen.getByTestId('input-decision-reason'), 'Still collectable');
    await user.click(screen.getByTestId('button-confirm-reject-write-off'));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
        { reason: 'Still collectable' },
      ]),
    );
  });

  it('recording a recovery checks each field, then asks to confirm, then sends', async () => {
    const calls = mockApi({
      'GET /api/repossessions': () => page([repossession()]),
      [`POST /api/repossessions/${repossession().id}/recover`]: () =>
        jsonResponse(repossession({ status: 'recovered' })),
    });
    renderAs('manager', <RepossessionsTab />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId(`button-recover-${repossession().id}`));
    await user.click(screen.getByTestId('button-confirm-recover'));
    await screen.findByText('Choose the condition the device came back in');
    screen.getByText('Choose what happens to the rest of the balance');
    await user.selectOptions(screen.getByTestId('select-recover-condition'), 'parts_missing');
    await user.type(screen.getByTestId('input-recover-value'), '12.345');
    await user.selectOptions(screen.getByTestId('select-recover-balance'), 'receivable');
    await user.click(screen.getByTestId('button-confirm-recover'));
    await screen.findByText(/at most 2 decimals/);
    await user.clear(screen.getByTestId('input-recover-value'));
    await user.type(screen.getByTestId('input-recover-value'), '300');
    await user.click(screen.getByTestId('button-confirm-recover'));
    await screen.findByText(/This cannot be undone/);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.click(screen.getByTestId('button-confirm-recover'));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
        { condition: 'parts_missing', recoveryValue: 30_000, balance: 'receivable' },
      ]),
    );
  });
});
