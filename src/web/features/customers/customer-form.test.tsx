import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/web/lib/queryClient';
import CustomerNewPage from '@/web/pages/customer-new';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { CustomerForm } from './customer-form';
import {
  duplicateOf,
  emptyCustomerValues,
  parseIncome,
  toCreateBody,
  toE164,
  toUpdateBody,
  validateCustomerForm,
  valuesFromCustomer,
} from './customer-form-model';
import { agent, apiError, makeCustomer, stubApi, viewer } from './test-fixtures';

const KE = { country: 'KE', currency: 'KES' };
const valid = { ...emptyCustomerValues(), firstName: 'Amina', lastName: 'Otieno', phone: '0712 345 678' };

afterEach(() => vi.unstubAllGlobals());

describe('customer form rules', () => {
  it('requires first name, last name and phone, with the API’s words', () => {
    expect(validateCustomerForm(emptyCustomerValues(), KE)).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      phone: 'Phone number is required',
    });
    expect(validateCustomerForm(valid, KE)).toEqual({});
  });

  it('reads a phone in the organisation’s country or with its own code, and refuses what cannot be one', () => {
    expect(toE164('0712 345 678', 'KE')).toBe('+254712345678');
    expect(toE164('+1 650 253 0000', 'KE')).toBe('+16502530000');
    for (const phone of ['12345', '0712', 'not a phone']) {
      expect(validateCustomerForm({ ...valid, phone }, KE).phone).toBe(
        'Enter a valid phone number: a KE number, or any number with its country code (e.g. +254 712 345 678)',
      );
    }
  });

  it('checks email, national ID, date of birth and lengths as the server does', () => {
    expect(
      validateCustomerForm(
        {
          ...valid,
          email: 'nope',
          nationalId: 'a!',
          dateOfBirth: '2999-01-01',
          firstName: 'x'.repeat(101),
        },
        KE,
      ),
    ).toEqual({
      email: 'Enter a valid email address',
      nationalId: 'National ID must be 4 to 30 letters or digits',
      dateOfBirth: 'Date of birth cannot be in the future',
      firstName: 'First name must be at most 100 characters',
    });
    expect(validateCustomerForm({ ...valid, dateOfBirth: '1899-12-31' }, KE).dateOfBirth).toBe(
      'Date of birth must be after 1900',
    );
    expect(validateCustomerForm({ ...valid, nationalId: 'ab 123 45' }, KE)).toEqual({});
  });

  it('takes the income in major units, with separators, and refuses what the currency cannot hold', () => {
    expect(parseIncome('45,000', 'KES')).toEqual({ value: 4_500_000 });
    expect(parseIncome(' 1 500.5 ', 'KES')).toEqual({ value: 150_050 });
    expect(parseIncome('', 'KES')).toEqual({ value: null });
    expect(parseIncome('-5', 'KES')).toEqual({ error: 'Monthly income cannot be negative' });
    expect(parseIncome('10.001', 'KES')).toEqual({
      error: 'Monthly income can have at most 2 decimals in KES',
    });
    expect(parseIncome('1.5', 'UGX')).toEqual({ error: 'Monthly income cannot have decimals in UGX' });
    expect(validateCustomerForm({ ...valid, monthlyIncome: 'lots' }, KE).monthlyIncome).toBe(
      'Monthly income must be a decimal number such as 12.50',
    );
  });

  it('sends every field given on create, and only what changed (with the version) on edit', () => {
    expect(
      toCreateBody(
        {
          ...valid,
          email: ' A@B.CO ',
          gender: 'female',
          monthlyIncome: '450',
          consents: { ...valid.consents, sms: true },
        },
        KE,
      ),
    ).toEqual({
      firstName: 'Amina',
      lastName: 'Otieno',
      phone: '0712 345 678',
      email: 'A@B.CO',
      gender: 'female',
      monthlyIncome: 45_000,
      language: 'en',
      consents: { sms: true, whatsapp: false, email: false, marketing: false, dataProcessing: false },
    });
    const customer = makeCustomer();
    const unchanged = valuesFromCustomer(customer);
    expect(unchanged.monthlyIncome).toBe('45000.00');
    expect(toUpdateBody({ ...unchanged, phone: '0712 345 678' }, customer, KE)).toEqual({ version: 1 });
    expect(
      toUpdateBody(
        {
          ...unchanged,
          region: '',
          nationalId: '1234 5678',
          monthlyIncome: '50000',
          consents: { ...unchanged.consents, sms: false, marketing: true },
        },
        customer,
        KE,
      ),
    ).toEqual({
      version: 1,
      region: null,
      monthlyIncome: 5_000_000,
      consents: { sms: false, marketing: true },
    });
    // Tags as typed: commas or spaces, any case, each once; the same tags again are no change.
    expect(toUpdateBody({ ...unchanged, tags: 'Fund-A, vip  fund-a' }, customer, KE)).toEqual({
      version: 1,
      tags: ['fund-a', 'vip'],
    });
    const tagged = { ...customer, tags: ['fund-a', 'vip'] };
    expect(toUpdateBody({ ...unchanged, tags: 'fund-a,vip' }, tagged, KE)).toEqual({ version: 1 });
    expect(toUpdateBody({ ...unchanged, tags: '' }, tagged, KE)).toEqual({ version: 1, tags: [] });
  });

  it('recognises a duplicate refusal and the customer its details name', () => {
    const customer = { customerId: 'existing-id', accountNumber: 'C-000123', name: 'Amina Otieno' };
    const message = 'This phone number already belongs to Amina Otieno (C-000123)';
    const error = new ApiError(409, JSON.stringify({ code: 'DUPLICATE_PHONE', message, details: customer }));
    expect(duplicateOf(error)).toEqual({ field: 'phone', message, customer });
    // The message is for people: without details there is no one to link to.
    expect(duplicateOf(new ApiError(409, JSON.stringify({ code: 'DUPLICATE_PHONE', message })))).toBeNull();
    expect(duplicateOf(new ApiError(409, '{"code":"VERSION_CONFLICT","message":"x"}'))).toBeNull();
  });
});

describe('new customer page', () => {
  it('shows a message under each missing field and sends nothing', async () => {
    const calls = stubApi(agent);
    renderWithProviders(<CustomerNewPage />, { path: '/customers/new' });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('button-save-customer'));
    expect(await screen.findByTestId('error-customer-firstName')).toHaveTextContent('First name is required');
    expect(screen.getByTestId('error-customer-lastName')).toHaveTextContent('Last name is required');
    expect(screen.getByTestId('error-customer-phone')).toHaveTextContent('Phone number is required');
    expect(screen.getByTestId('input-first-name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('input-first-name')).toHaveAccessibleDescription('First name is required');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('checks the phone when leaving the field and shows the number as it will be saved', async () => {
    stubApi(agent);
    renderWithProviders(<CustomerNewPage />, { path: '/customers/new' });
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('input-phone'), '12345');
    await user.tab();
    expect(await screen.findByTestId('error-customer-phone')).toHaveTextContent('Enter a valid phone number');
    await user.clear(screen.getByTestId('input-phone'));
    await user.type(screen.getByTestId('input-phone'), '0712345678');
    await waitFor(() => expect(screen.queryByTestId('error-customer-phone')).not.toBeInTheDocument());
    expect(screen.getByText('Saved as +254 712 345678')).toBeInTheDocument();
  });

  it('names the customer who already has the phone and links to them; shows server field errors', async () => {
    let attempt = 0;
    const calls = stubApi(agent, ({ method, url }) => {
      if (method === 'POST' && url === '/api/customers') {
        attempt += 1;
        if (attempt === 1) {
          const message = 'This phone number already belongs to Grace Wanjiku (C-000123)';
          return apiError(409, {
            code: 'DUPLICATE_PHONE',
            message,
            errors: [{ field: 'phone', message }],
            details: { customerId: 'existing-id', accountNumber: 'C-000123', name: 'Grace Wanjiku' },
          });
        }
        if (attempt === 2) {
          const message = 'Choose an active staff member as the assigned agent';
          return apiError(400, {
            code: 'VALIDATION',
            message,
            errors: [{ field: 'assignedAgentId', message }],
          });
        }
        return jsonResponse(makeCustomer({ id: 'new-id' }), 201);
      }
      return undefined;
    });
    const { history } = renderWithProviders(<CustomerNewPage />, { path: '/customers/new' });
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('input-first-name'), 'Amina');
    await user.type(screen.getByTestId('input-last-name'), 'Otieno');
    await user.type(screen.getByTestId('input-phone'), '0712 345 678');
    await user.click(screen.getByTestId('checkbox-consent-dataProcessing'));
    await user.click(screen.getByTestId('button-save-customer'));

    expect(await screen.findByTestId('error-customer-phone')).toHaveTextContent(
      'This phone number already belongs to Grace Wanjiku (C-000123)',
    );
    const link = await screen.findByTestId('link-duplicate-customer');
    expect(link).toHaveTextContent('Open Grace Wanjiku (C-000123)');
    expect(link).toHaveAttribute('href', '/customers/existing-id');
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toMatchObject({
      firstName: 'Amina',
      lastName: 'Otieno',
      phone: '0712 345 678',
      assignedAgentId: agent.id,
      consents: { dataProcessing: true, sms: false },
    });

    await user.clear(screen.getByTestId('input-phone'));
    await user.type(screen.getByTestId('input-phone'), '0722 000 111');
    await user.click(screen.getByTestId('button-save-customer'));
    expect(await screen.findByTestId('error-customer-assignedAgentId')).toHaveTextContent(
      'Choose an active staff member as the assigned agent',
    );
    expect(screen.queryByTestId('link-duplicate-customer')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('button-save-customer'));
    await waitFor(() => expect(history).toContain('/customers/new-id'));
  });

  it('tells a viewer that adding customers needs another role', async () => {
    stubApi(viewer);
    renderWithProviders(<CustomerNewPage />, { path: '/customers/new' });
    expect(await screen.findByTestId('card-customers-write-required')).toHaveTextContent(
      'You cannot add customers',
    );
    expect(screen.queryByTestId('form-customer')).not.toBeInTheDocument();
  });
});

describe('edit customer form', () => {
  it('shows when each consent was given, sends only the changes, and explains a version conflict', async () => {
    const customer = makeCustomer();
    let patches = 0;
    const calls = stubApi(agent, ({ method }) => {
      if (method !== 'PATCH') return undefined;
      patches += 1;
      return patches === 1
        ? apiError(409, { code: 'VERSION_CONFLICT', message: 'This customer was changed by someone else' })
        : jsonResponse({ ...customer, region: 'Mombasa', version: 2 });
    });
    const onSaved = vi.fn();
    renderWithProviders(
      <CustomerForm
        customer={customer}
        context={KE}
        user={agent}
        onSaved={onSaved}
        onCancel={() => undefined}
      />,
    );
    const user = userEvent.setup();
    expect(screen.getByTestId('text-consent-status-sms')).toHaveTextContent(/^Given 10 Jan 2026/);
    expect(screen.getByTestId('text-consent-status-whatsapp')).toHaveTextContent('Not given');
    await user.click(screen.getByTestId('checkbox-consent-whatsapp'));
    expect(screen.getByTestId('text-consent-status-whatsapp')).toHaveTextContent(
      'Will be recorded as given when you save',
    );
    await user.clear(screen.getByTestId('input-region'));
    await user.type(screen.getByTestId('input-region'), 'Mombasa');
    await user.click(screen.getByTestId('button-save-customer'));

    expect(await screen.findByTestId('alert-version-conflict')).toHaveTextContent(
      'Someone else saved a change',
    );
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      version: 1,
      region: 'Mombasa',
      consents: { whatsapp: true },
    });
    await user.click(screen.getByTestId('button-save-customer'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ version: 2 })));
  });
});

describe('assigned agent choices', () => {
  it('offers an administrator the active staff who can hold customers: agents and above, never a viewer', async () => {
    const admin = { ...agent, id: '1a2b3c4d-0000-4000-8000-00000000a009', role: 'admin' as const };
    const staff = (id: string, firstName: string, role: string, active = true) => ({
      id,
      email: `${firstName.toLowerCase()}@example.com`,
      firstName,
      lastName: 'Staff',
      role,
      isOwner: false,
      active,
      createdAt: '2026-01-01T00:00:00.000Z',
      lastLoginAt: null,
      twoFactorEnabled: false,
    });
    stubApi(admin, ({ url }) =>
      url === '/api/users'
        ? jsonResponse([
            staff('1a2b3c4d-0000-4000-8000-0000000000b1', 'Agnes', 'agent'),
            staff('1a2b3c4d-0000-4000-8000-0000000000b2', 'Victor', 'viewer'),
            staff('1a2b3c4d-0000-4000-8000-0000000000b3', 'Mona', 'manager'),
            staff('1a2b3c4d-0000-4000-8000-0000000000b4', 'Lena', 'agent', false),
          ])
        : undefined,
    );
    renderWithProviders(<CustomerNewPage />, { path: '/customers/new' });
    const select = await screen.findByTestId('select-assigned-agent');
    await waitFor(() => expect(select).toHaveTextContent('Agnes Staff'));
    const options = [...select.querySelectorAll('option')].map((option) => option.textContent);
    expect(options).toEqual([
      'Nobody yet',
      'Joseph Kamau (you)',
      'Agnes Staff · Agent',
      'Mona Staff · Manager',
    ]);
  });
});
