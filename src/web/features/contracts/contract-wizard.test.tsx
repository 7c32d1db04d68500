import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { minimumDeposit, planIneligibility } from '@/domain';
import { makeCustomer } from '@/web/features/customers/test-fixtures';
import { model } from '@/web/features/devices/test-api';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { ContractWizard } from './contract-wizard';
import { contract, IDS, pending, plan, preview } from './test-fixtures';
import { firstStepWithError, stepErrors } from './wizard-model';

const CUSTOMER = {
  id: IDS.customer,
  accountNumber: 'C-000007',
  firstName: 'Amina',
  lastName: 'Wanjiru',
  fullName: 'Amina Wanjiru',
  phone: '+254712345678',
  email: null,
  nationalId: null,
  region: null,
  kycStatus: 'verified',
  riskScore: null,
  riskGrade: null,
  assignedAgent: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const DEVICE = {
  id: IDS.device,
  serialNumber: 'SN-0001',
  imei: null,
  model: {
    id: IDS.model,
    make: 'Tecno',
    model: 'Spark 20',
    name: 'Tecno Spark 20',
    category: 'smartphone',
    sku: null,
  },
  status: 'in_stock',
  lockState: 'unknown',
  activeUntil: null,
  controlKind: 'none',
  control: null,
  notes: null,
  condition: null,
  conditionNotes: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const MODEL = model({ id: IDS.model, retailPrice: 150000, currency: 'USD' });
const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 20 });

interface Options {
  preview?: () => Response;
  create?: () => Response;
}

function mockApi(options: Options = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
    if (method === 'GET') {
      if (url.startsWith('/api/customers?')) return jsonResponse(page([CUSTOMER]));
      if (url === `/api/customers/${IDS.customer}`)
        return jsonResponse(
          makeCustomer({
            id: IDS.customer,
            accountNumber: 'C-000007',
            firstName: 'Amina',
            lastName: 'Wanjiru',
            fullName: 'Amina Wanjiru',
            currency: 'USD',
          }),
        );
      if (url.startsWith('/api/devices?')) return jsonResponse(page([DEVICE]));
      if (url === `/api/device-models/${IDS.model}`) return jsonResponse(MODEL);
      if (url.startsWith('/api/service-plans?'))
        return jsonResponse(
          page([plan(), plan({ id: 'tv-plan', code: 'TV-W', eligibleCategories: ['tv'] })]),
        );
    }
    if (url === '/api/contracts/preview') return options.preview?.() ?? jsonResponse(preview());
    if (url === '/api/contracts') return options.create?.() ?? jsonResponse(contract(), 201);
    if (url === `/api/contracts/${IDS.contract}/submit`) return jsonResponse(pending());
    return jsonResponse({ message: `unexpected ${method} ${url}` }, 500);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const bodyOf = (fetchMock: ReturnType<typeof mockApi>, url: string) =>
  JSON.parse(String(fetchMock.mock.calls.filter(([u]) => String(u) === url).at(-1)?.[1]?.body));

type User = ReturnType<typeof userEvent.setup>;

async function pick(user: User, testId: string, search: string, option: RegExp) {
  await user.click(screen.getByTestId(testId));
  await user.type(await screen.findByTestId(`${testId}-search`), search);
  await user.click(await screen.findByRole('option', { name: option }));
}

const next = (user: User) => user.click(screen.getByTestId('button-wizard-next'));
const title = () => screen.getByTestId('text-step-title');

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('wizard rules', () => {
  it('needs each step complete before the next', () => {
    const context = { cashPrice: 150000, currency: 'USD' };
    const empty = {
      customer: null,
      device: null,
      plan: null,
      deposit: '',
      term: '',
      submitForApproval: true,
    };
    expect(stepErrors('customer', empty, context)).toEqual({ customerId: 'Choose a customer' });
    expect(stepErrors('device', empty, context)).toEqual({ deviceId: 'Choose a device in stock' });
    expect(stepErrors('plan', empty, context)).toEqual({ planId: 'Choose a service plan' });
    const withPlan = { ...empty, plan: plan() };
    expect(stepErrors('terms', withPlan, context)).toEqual({
      deposit: 'Enter the deposit',
      term: 'Choose the number of instalments',
    });
    expect(stepErrors('terms', { ...withPlan, deposit: '100', term: '5' }, context)).toEqual({
      deposit: 'Plan PHONE-M needs a deposit of at least $150.00',
      term: 'Plan PHONE-M allows 4, 6, 12 instalments',
    });
    expect(stepErrors('terms', { ...withPlan, deposit: '1500', term: '4' }, context).deposit).toBe(
      'The deposit must be less than the cash price ($1,500.00)',
    );
    expect(stepErrors('terms', { ...withPlan, deposit: '12.345', term: '4' }, context).deposit).toMatch(
      /at most 2 decimals/,
    );
    expect(stepErrors('terms', { ...withPlan, deposit: '250', term: '4' }, context)).toEqual({});
  });

  it('asks for the exact percentage deposit: 150.00 at 8.3% is 12.45, not 12.46', () => {
    const values = {
      customer: null,
      device: null,
      plan: plan({ minDepositPercent: 8.3, minDepositAmount: 0 }),
      term: '4',
      submitForApproval: true,
    };
    const at = { cashPrice: 15_000, currency: 'USD' };
    expect(stepErrors('terms', { ...values, deposit: '12.45' }, at)).toEqual({});
    expect(stepErrors('terms', { ...values, deposit: '12.44' }, at).deposit).toBe(
      'Plan PHONE-M needs a deposit of at least $12.45',
    );
  });

  it('computes the minimum deposit and plan eligibility as the server does', () => {
    expect(minimumDeposit(plan(), 150000)).toBe(15000);
    expect(minimumDeposit(plan({ minDepositAmount: 20000 }), 150000)).toBe(20000);
    expect(minimumDeposit(plan({ minDepositPercent: 12.5 }), 99999)).toBe(12500);
    const device = { category: 'smartphone', modelId: IDS.model, modelName: 'Tecno Spark 20' };
    expect(planIneligibility(plan({ eligibleCategories: ['tv'] }), device)).toBe(
      'Plan PHONE-M does not finance smartphone devices',
    );
    expect(planIneligibility(plan({ eligibleModelIds: ['other'] }), device)).toBe(
      'Plan PHONE-M does not finance the Tecno Spark 20',
    );
    expect(planIneligibility(plan(), device)).toBeNull();
  });

  it('sends a server field error to the step where the field is entered', () => {
    expect(firstStepWithError({ deposit: 'x', customerId: 'y' })).toBe('customer');
    expect(firstStepWithError({ term: 'x' })).toBe('terms');
    expect(firstStepWithError({ colour: 'x' })).toBeNull();
  });
});

describe('new contract wizard', () => {
  it('goes from customer to a submitted contract, validating each step and keeping values on Back', async () => {
    const user = userEvent.setup();
    const fetchMock = mockApi();
    const { history } = renderWithProviders(<ContractWizard />, { path: '/contracts/new' });

    expect(title()).toHaveTextContent('1. Customer');
    expect(screen.getByTestId('step-customer')).toHaveAttribute('aria-current', 'step');
    await next(user);
    expect(screen.getByText('Choose a customer')).toBeInTheDocument();

    await pick(user, 'select-customer', 'amina', /Amina Wanjiru/);
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/customers?q=amina'))).toBe(true),
    );
    expect(screen.getByTestId('text-customer-name')).toHaveTextContent('Amina Wanjiru');
    await next(user);

    expect(title()).toHaveTextContent('2. Device');
    expect(screen.getByTestId('step-customer')).toHaveAttribute('data-state', 'done');
    await pick(user, 'select-device', 'SN', /SN-0001/);
    expect(await screen.findByTestId('text-cash-price')).toHaveTextContent('$1,500.00');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/devices?status=in_stock'))).toBe(
      true,
    );
    await next(user);

    expect(title()).toHaveTextContent('3. Plan');
    await pick(user, 'select-plan', 'TV', /TV-W/);
    await next(user);
    expect(await screen.findByText('Plan TV-W does not finance smartphone devices')).toBeInTheDocument();
    await pick(user, 'select-plan', 'PHONE', /PHONE-M/);
    await next(user);

    expect(title()).toHaveTextContent('4. Deposit and term');
    await next(user);
    expect(screen.getByText('Enter the deposit')).toBeInTheDocument();
    expect(screen.getByText('Choose the number of instalments')).toBeInTheDocument();
    await user.type(screen.getByTestId('input-deposit'), '100');
    await user.selectOptions(screen.getByTestId('select-term'), '4');
    await next(user);
    expect(screen.getByText('Plan PHONE-M needs a deposit of at least $150.00')).toBeInTheDocument();
    expect(screen.getByTestId('input-deposit')).toHaveAttribute('aria-invalid', 'true');
    await user.clear(screen.getByTestId('input-deposit'));
    await user.type(screen.getByTestId('input-deposit'), '250.00');

    // Back and forth keeps what was entered.
    await user.click(screen.getByTestId('button-wizard-back'));
    expect(title()).toHaveTextContent('3. Plan');
    expect(screen.getByTestId('select-plan')).toHaveTextContent('PHONE-M');
    await user.click(screen.getByTestId('button-step-customer'));
    expect(screen.getByTestId('select-customer')).toHaveTextContent('Amina Wanjiru');
    await user.click(screen.getByTestId('button-step-terms'));
    expect(screen.getByTestId('input-deposit')).toHaveValue('250.00');
    expect(screen.getByTestId('select-term')).toHaveValue('4');

    await next(user);
    expect(await screen.findByTestId('text-preview-instalment')).toHaveTextContent('$322.00');
    expect(title()).toHaveTextContent('5. Schedule');
    expect(bodyOf(fetchMock, '/api/contracts/preview')).toEqual({
      customerId: IDS.customer,
      deviceId: IDS.device,
      planId: IDS.plan,
      deposit: 25000,
      term: 4,
    });
    expect(screen.getByTestId('text-preview-pattern')).toHaveTextContent(
      '3 monthly payments of $322.00, then a last payment of $323.33',
    );
    expect(screen.getByTestId('text-preview-total')).toHaveTextContent('$1,289.33');
    expect(screen.getByTestId('row-schedule-4')).toHaveTextContent('$323.33');
    await next(user);

    expect(title()).toHaveTextContent('6. Submit');
    expect(screen.getByTestId('list-contract-summary')).toHaveTextContent('Amina Wanjiru (C-000007)');
    expect(screen.getByTestId('checkbox-submit-for-approval')).toBeChecked();
    expect(screen.getByTestId('button-wizard-next')).toHaveTextContent('Create and submit for approval');
    await next(user);
    await waitFor(() => expect(history.at(-1)).toBe(`/contracts/${IDS.contract}`));
    expect(bodyOf(fetchMock, '/api/contracts')).toMatchObject({ deposit: 25000, term: 4 });
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/contracts/${IDS.contract}/submit`,
      expect.objectContaining({ method: 'POST' }),
    );
  });

  it('shows a server refusal at the step of its field, and a plan rule at the plan step', async () => {
    const user = userEvent.setup();
    let answer = () =>
      jsonResponse(
        {
          message: 'Plan PHONE-M allows 4, 6, 12 instalments',
          code: 'VALIDATION',
          errors: [{ field: 'term', message: 'Plan PHONE-M allows 4, 6, 12 instalments' }],
        },
        400,
      );
    mockApi({ preview: () => answer() });
    renderWithProviders(<ContractWizard />, { path: '/contracts/new' });
    await pick(user, 'select-customer', 'a', /Amina/);
    await next(user);
    await pick(user, 'select-device', 'S', /SN-0001/);
    await screen.findByText('$1,500.00');
    await next(user);
    await pick(user, 'select-plan', 'P', /PHONE-M/);
    await next(user);
    await user.type(screen.getByTestId('input-deposit'), '250');
    await user.selectOptions(screen.getByTestId('select-term'), '6');
    await next(user);
    expect(await screen.findByText('Plan PHONE-M allows 4, 6, 12 instalments')).toBeInTheDocument();
    expect(title()).toHaveTextContent('4. Deposit and term');

    answer = () =>
      jsonResponse(
        { message: 'Plan PHONE-M does not finance smartphone devices', code: 'NOT_ELIGIBLE' },
        422,
      );
    await next(user);
    expect(await screen.findByText('Plan PHONE-M does not finance smartphone devices')).toBeInTheDocument();
    expect(title()).toHaveTextContent('3. Plan');
  });

  it('prefills the customer from ?customerId= and warns when KYC is not verified', async () => {
    const user = userEvent.setup();
    mockApi();
    renderWithProviders(<ContractWizard />, { path: `/contracts/new?customerId=${IDS.customer}` });
    expect(await screen.findByTestId('text-customer-name')).toHaveTextContent('Amina Wanjiru');
    expect(screen.getByTestId('text-kyc-warning')).toHaveTextContent('cannot be activated');
    await next(user);
    expect(title()).toHaveTextContent('2. Device');
    expect(within(screen.getByTestId('nav-wizard-steps')).getByTestId('step-device')).toHaveAttribute(
      'aria-current',
      'step',
    );
  });
});
