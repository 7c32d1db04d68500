import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Contract } from '@/contracts/contracts';
import type { Role } from '@/contracts/roles';
import { queryKeys } from '@/web/lib/query-keys';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { ContractDetailView } from './contract-detail-view';
import { type ContractAction, contractActions } from './contract-rules';
import { approved, contract, IDS, pending, staff } from './test-fixtures';

type Handler = (url: string, init?: RequestInit) => Response | Promise<Response>;

/** fetch answering GET /api/contracts/:id with `current`, and POSTs through `post`. */
function mockApi(current: Contract | Response, post: Handler = () => jsonResponse({ message: 'no' }, 500)) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
    if ((init?.method ?? 'GET') === 'GET')
      return current instanceof Response ? current.clone() : jsonResponse(current);
    return post(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function actionButtons() {
  const group = screen.queryByTestId('group-contract-actions');
  if (!group) return [];
  return within(group)
    .getAllByRole('button')
    .map((button) => button.getAttribute('data-testid'));
}

async function renderDetail(
  data: Contract | Response,
  role: Role = 'manager',
  userId = IDS.checker,
  post?: Handler,
) {
  const fetchMock = mockApi(data, post);
  const result = renderWithProviders(<ContractDetailView id={IDS.contract} user={staff(role, userId)} />, {
    path: `/contracts/${IDS.contract}`,
  });
  return { ...result, fetchMock };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('contractActions (which actions show for which status and permission)', () => {
  const cases: Array<[string, Contract, Role, ContractAction[]]> = [
    ['a draft, for an agent', contract(), 'agent', ['submit', 'deposit', 'cancel']],
    ['a draft, for a viewer', contract(), 'viewer', []],
    [
      'a draft, for a collector (cash but no approval)',
      contract(),
      'collector',
      ['submit', 'deposit', 'cancel'],
    ],
    ['pending approval, for an agent', pending(), 'agent', ['deposit', 'cancel']],
    ['pending approval, for a manager', pending(), 'manager', ['approve', 'return', 'deposit', 'cancel']],
    ['approved, deposit missing, for a manager', approved(), 'manager', ['deposit', 'activate', 'cancel']],
    [
      'approved, deposit received, for an agent (activation is device control, a manager power)',
      approved({ depositReceived: 25000, activationBlockers: [] }),
      'agent',
      ['cancel'],
    ],
    [
      'approved, deposit received, for a manager',
      approved({ depositReceived: 25000, activationBlockers: [] }),
      'manager',
      ['activate', 'cancel'],
    ],
    ['active', contract({ status: 'active' }), 'admin', []],
    ['cancelled', contract({ status: 'cancelled' }), 'admin', []],
    ['paid off', contract({ status: 'paid_off' }), 'admin', []],
  ];
  it.each(cases)('%s', (_name, data, role, expected) => {
    expect(contractActions(data, staff(role))).toEqual(expected);
  });

  it('gives the owner every action of the state, whatever the role', () => {
    expect(contractActions(pending(), { role: 'viewer', isOwner: true })).toEqual([
      'approve',
      'return',
      'deposit',
      'cancel',
    ]);
  });
});

describe('contract page', () => {
  it('shows the header, figures, schedule, links, documents and timeline of a draft', async () => {
    await renderDetail(contract(), 'agent', IDS.maker);
    expect(await screen.findByTestId('text-page-title')).toHaveTextContent('CT-000042');
    expect(screen.getByTestId('badge-contract-status')).toHaveTextContent('Draft');
    expect(screen.getByTestId('text-principal')).toHaveTextContent('$1,250.00');
    expect(screen.getByTestId('text-instalment')).toHaveTextContent('$322.00');
    expect(screen.getByTestId('text-apr')).toHaveTextContent('15%');
    expect(screen.getByTestId('text-total-payable')).toHaveTextContent('$1,289.33');
    expect(screen.getByTestId('text-balance')).toHaveTextContent('$1,289.33');
    // The schedule's figures leave the currency to the card, which names it once.
    expect(screen.getByTestId('row-instalment-4')).toHaveTextContent('323.33');
    expect(screen.getByTestId('row-instalment-4')).not.toHaveTextContent('$');
    expect(screen.getByText(/Amounts in USD\./)).toBeInTheDocument();
    expect(
      within(screen.getByTestId('row-instalment-1')).getByTestId('badge-instalment-1'),
    ).toHaveTextContent('Upcoming');
    expect(screen.getByTestId('link-contract-customer')).toHaveAttribute(
      'href',
      `/customers/${IDS.customer}`,
    );
    expect(screen.getByTestId('link-contract-device')).toHaveAttribute('href', `/devices/${IDS.device}`);
    expect(screen.getByTestId('link-contract-plan')).toHaveAttribute('href', `/service-plans/${IDS.plan}`);
    expect(screen.getByTestId('link-key-facts')).toHaveAttribute(
      'href',
      `/api/contracts/${IDS.contract}/key-facts.pdf`,
    );
    expect(screen.getByTestId('event-created')).toHaveTextContent('Draft created');
    expect(screen.getByTestId('check-submitted')).toHaveAttribute('data-done', 'false');
    expect(screen.getByTestId('check-kyc')).toHaveAttribute('data-done', 'true');
    expect(actionButtons()).toEqual(['button-submit', 'button-deposit', 'button-cancel']);
  });

  it('shows no actions to a viewer', async () => {
    await renderDetail(pending(), 'viewer');
    await screen.findByTestId('text-page-title');
    expect(actionButtons()).toEqual([]);
  });

  it('shows a not-found state for an unknown or malformed id', async () => {
    await renderDetail(jsonResponse({ message: 'Contract not found', code: 'NOT_FOUND' }, 404));
    expect(await screen.findByTestId('card-contract-not-found')).toBeInTheDocument();
    expect(screen.getByTestId('text-page-title')).toHaveTextContent('Contract not found');
  });

  it('submits a draft after confirmation and shows the new status', async () => {
    const user = userEvent.setup();
    const { fetchMock } = await renderDetail(contract(), 'agent', IDS.maker, (url) =>
      url.endsWith('/submit') ? jsonResponse(pending()) : jsonResponse({}, 500),
    );
    await user.click(await screen.findByTestId('button-submit'));
    const dialog = await screen.findByTestId('dialog-confirm');
    expect(dialog).toHaveTextContent('Submit CT-000042 for approval?');
    await user.click(within(dialog).getByTestId('button-confirm'));
    await waitFor(() =>
      expect(screen.getByTestId('badge-contract-status')).toHaveTextContent('Pending approval'),
    );
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/contracts/${IDS.contract}/submit`,
      expect.objectContaining({ method: 'POST' }),
    );
  });

  it('shows the maker-checker refusal when the maker tries to approve', async () => {
    const user = userEvent.setup();
    await renderDetail(pending(), 'manager', IDS.maker, () =>
      jsonResponse(
        {
          message: 'You created or submitted this contract; another person must approve it',
          code: 'MAKER_CHECKER',
        },
        422,
      ),
    );
    await user.click(await screen.findByTestId('button-approve'));
    const dialog = await screen.findByTestId('dialog-confirm');
    expect(dialog).toHaveTextContent('the approval has to come from another person');
    await user.click(within(dialog).getByTestId('button-confirm'));
    expect(await screen.findByTestId('text-contract-refusal')).toHaveTextContent(
      'You created or submitted this contract; another person must approve it',
    );
    expect(screen.getByTestId('badge-contract-status')).toHaveTextContent('Pending approval');
  });

  it('shows the activation refusal message, then the first unlock token after activation', async () => {
    const user = userEvent.setup();
    let deposit = false;
    await renderDetail(approved(), 'manager', IDS.maker, () => {
      if (!deposit)
        return jsonResponse(
          { message: 'The deposit of $250.00 is not fully received ($0.00 so far)', code: 'UNPROCESSABLE' },
          422,
        );
      return jsonResponse({
        contract: contract({ status: 'active', device: { ...contract().device, status: 'assigned' } }),
        token: { token: '123456789', days: 30 },
      });
    });
    expect(await screen.findByText('Before activation')).toBeInTheDocument();
    await user.click(screen.getByTestId('button-activate'));
    await user.click(within(await screen.findByTestId('dialog-confirm')).getByTestId('button-confirm'));
    expect(await screen.findByTestId('text-contract-refusal')).toHaveTextContent(
      'The deposit of $250.00 is not fully received ($0.00 so far)',
    );

    deposit = true;
    await user.click(screen.getByTestId('button-activate'));
    await user.click(within(await screen.findByTestId('dialog-confirm')).getByTestId('button-confirm'));
    expect(await screen.findByTestId('text-unlock-token')).toHaveTextContent('123 456 789');
    expect(screen.getByTestId('card-unlock-token')).toHaveTextContent('30 days');
    expect(screen.getByTestId('badge-contract-status')).toHaveTextContent('Active');
    expect(screen.queryByTestId('text-contract-refusal')).not.toBeInTheDocument();
    expect(actionButtons()).toEqual([]);
  });

  it('refreshes the device it assigns on activation, with the lists and the ledger', async () => {
    const user = userEvent.setup();
    const activated = contract({ status: 'active', device: { ...contract().device, status: 'assigned' } });
    const { client } = await renderDetail(approved(), 'manager', IDS.maker, () =>
      jsonResponse({ contract: activated, token: null }),
    );
    const deviceKey = queryKeys.devices.detail(contract().device.id);
    client.setQueryData(deviceKey, { id: contract().device.id, status: 'reserved' });
    client.setQueryData(queryKeys.ledger.accounts(), []);
    await user.click(await screen.findByTestId('button-activate'));
    await user.click(within(await screen.findByTestId('dialog-confirm')).getByTestId('button-confirm'));
    await waitFor(() => expect(screen.getByTestId('badge-contract-status')).toHaveTextContent('Active'));
    expect(client.getQueryState(deviceKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.ledger.accounts())?.isInvalidated).toBe(true);
  });

  it('offers an agent the cash channel only (finance takes the others)', async () => {
    const user = userEvent.setup();
    await renderDetail(approved(), 'agent', IDS.maker, () => jsonResponse(approved(), 201));
    await user.click(await screen.findByTestId('button-deposit'));
    const dialog = await screen.findByTestId('dialog-deposit');
    const options = within(dialog)
      .getAllByRole('option')
      .map((option) => option.getAttribute('value'));
    expect(options).toEqual(['cash']);
  });

  it('records the deposit with amount, channel, reference and an idempotency key', async () => {
    const user = userEvent.setup();
    const { fetchMock } = await renderDetail(approved(), 'finance', IDS.maker, () =>
      jsonResponse(approved({ depositReceived: 25000, activationBlockers: [] }), 201),
    );
    await user.click(await screen.findByTestId('button-deposit'));
    const dialog = await screen.findByTestId('dialog-deposit');
    expect(within(dialog).getByTestId('input-deposit-amount')).toHaveValue('250.00');
    await user.selectOptions(within(dialog).getByTestId('select-deposit-channel'), 'mobile_money');
    await user.click(within(dialog).getByTestId('button-confirm-deposit'));
    expect(await within(dialog).findByText(/Enter the transaction reference/)).toBeInTheDocument();
    await user.clear(within(dialog).getByTestId('input-deposit-amount'));
    await user.type(within(dialog).getByTestId('input-deposit-amount'), '300');
    await user.type(within(dialog).getByTestId('input-deposit-reference'), 'QK7X1');
    await user.click(within(dialog).getByTestId('button-confirm-deposit'));
    expect(
      await within(dialog).findByText('At most $250.00 of the deposit is still to come'),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByTestId('input-deposit-amount'));
    await user.type(within(dialog).getByTestId('input-deposit-amount'), '250');
    await user.click(within(dialog).getByTestId('button-confirm-deposit'));
    await waitFor(() => expect(screen.queryByTestId('dialog-deposit')).not.toBeInTheDocument());
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/deposit'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      amount: 25000,
      channel: 'mobile_money',
      reference: 'QK7X1',
    });
    const headers = (call?.[1]?.headers ?? {}) as Record<string, string>;
    expect(headers['idempotency-key']).toMatch(/.{8,}/);
    expect(screen.getByTestId('check-deposit')).toHaveAttribute('data-done', 'true');
    expect(screen.getByText('Ready to activate')).toBeInTheDocument();
  });

  it('asks for a reason to return or cancel, and sends it', async () => {
    const user = userEvent.setup();
    const { fetchMock } = await renderDetail(pending(), 'manager', IDS.checker, (url) =>
      url.endsWith('/return')
        ? jsonResponse(contract({ events: [...contract().events] }))
        : jsonResponse({}, 500),
    );
    await user.click(await screen.findByTestId('button-return'));
    const dialog = await screen.findByTestId('dialog-return');
    await user.click(within(dialog).getByTestId('button-confirm-return'));
    expect(within(dialog).getByText('Give a reason (at least 3 characters)')).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('input-return-reason'), 'Wrong deposit amount');
    await user.click(within(dialog).getByTestId('button-confirm-return'));
    await waitFor(() => expect(screen.getByTestId('badge-contract-status')).toHaveTextContent('Draft'));
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/return'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ reason: 'Wrong deposit amount' });
  });
});
