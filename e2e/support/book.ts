import type { APIRequestContext, BrowserContext } from 'playwright-core';
import { expect } from 'vitest';
import { SAMPLE_FILES } from '../../tests/support/multipart';
import { MONTHLY_PHONE_PLAN } from '../../tests/support/origination';
import { owner, type Person } from './session';
import type { BrowserSession, BrowserSuite } from './suite';

/**
 * A book set up through the API, as browser tests that are not about origination start from it:
 * the owner registered, staff invited, and an active contract (a KYC-verified customer, a device,
 * an active monthly plan, the deposit paid).
 */

/** JSON calls with the context's cookies and a CSRF token, as the browser app makes them. */
export async function api(request: APIRequestContext) {
  const { csrfToken } = (await (await request.get('/api/csrf-token')).json()) as { csrfToken: string };
  const call = async (method: 'post' | 'put' | 'get', url: string, data?: unknown, status?: number) => {
    const response = await request[method](url, {
      headers: { 'x-csrf-token': csrfToken },
      ...(data === undefined ? {} : { data }),
    });
    const expected = status ?? (method === 'post' ? 201 : 200);
    if (response.status() !== expected)
      throw new Error(`${method} ${url}: ${response.status()} ${await response.text()}`);
    return response.json();
  };
  return {
    request,
    csrfToken,
    post: (url: string, data?: unknown, status?: number) => call('post', url, data, status),
    put: (url: string, data?: unknown, status?: number) => call('put', url, data, status),
    get: (url: string) => call('get', url),
  };
}

export type Api = Awaited<ReturnType<typeof api>>;

/** Registers the owner (the first person, on a fresh server) in a fresh context. */
export async function registerOwner(suite: BrowserSuite): Promise<{ session: BrowserSession; admin: Api }> {
  const session = await suite.open();
  const request = session.context.request;
  expect((await request.post('/api/register', { data: owner })).status()).toBe(201);
  return { session, admin: await api(request) };
}

/** Invites a person with this role and registers them in a context of their own (the caller ends it). */
export async function joinStaff(
  suite: BrowserSuite,
  admin: Api,
  person: Person,
  role: string,
): Promise<BrowserContext> {
  const invite = await admin.post('/api/invites', { email: person.email, role });
  const context = await suite.browser.newContext({ baseURL: suite.url });
  const joined = await context.request.post('/api/register', {
    data: { ...person, inviteToken: invite.token },
  });
  expect(joined.status(), await joined.text()).toBe(201);
  return context;
}

/** The OpenPAYGO secret of the test devices controlled by tokens. */
const OPENPAYGO_KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

export interface ContractSetUp {
  /** Fields of the customer beside (or instead of) Amina Wanjiru's name, phone and income. */
  customer?: Record<string, unknown>;
  /** How the device is controlled: an OpenPAYGO device gets its secret key. */
  controlKind: 'openpaygo' | 'lock_api' | 'none';
  serialNumber: string;
  /** Fields of the monthly plan beside the usual ones (lockAfterDays). */
  plan?: Record<string, unknown>;
}

/**
 * An active contract: the customer (their ID and selfie uploaded by `admin`, verified by
 * `approver`), a Tecno Spark 20, the PHONE-M plan, a 4-month contract submitted by `admin`,
 * approved by `approver`, its 25,000 deposit paid in cash and activated by `approver`.
 */
export async function activeContract(admin: Api, approver: Api, setUp: ContractSetUp) {
  const customer = await admin.post('/api/customers', {
    firstName: 'Amina',
    lastName: 'Wanjiru',
    phone: '+254712345678',
    monthlyIncome: 60_000,
    ...setUp.customer,
  });
  for (const [type, buffer, mimeType] of [
    ['id_front', SAMPLE_FILES.jpeg, 'image/jpeg'],
    ['selfie', SAMPLE_FILES.png, 'image/png'],
  ] as const) {
    const uploaded = await admin.request.post(`/api/customers/${customer.id}/documents`, {
      headers: { 'x-csrf-token': admin.csrfToken },
      multipart: { type, file: { name: `${type}.bin`, mimeType, buffer } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const { document } = (await uploaded.json()) as { document: { id: string } };
    await approver.post(
      `/api/customers/${customer.id}/documents/${document.id}/review`,
      { decision: 'verify' },
      200,
    );
  }
  const model = await admin.post('/api/device-models', {
    make: 'Tecno',
    model: 'Spark 20',
    category: 'smartphone',
    retailPrice: 150_000,
    costPrice: 90_000,
    controlKind: setUp.controlKind,
  });
  const device = await admin.post('/api/devices', {
    serialNumber: setUp.serialNumber,
    modelId: model.id,
    ...(setUp.controlKind === 'openpaygo'
      ? { control: { kind: 'openpaygo', secretKey: OPENPAYGO_KEY } }
      : {}),
  });
  const plan = await admin.post('/api/service-plans', {
    code: 'PHONE-M',
    ...MONTHLY_PHONE_PLAN,
    ...setUp.plan,
  });
  await admin.post(`/api/service-plans/${plan.id}/activate`, undefined, 200);
  const contract = await admin.post('/api/contracts', {
    customerId: customer.id,
    deviceId: device.id,
    planId: plan.id,
    deposit: 25_000,
    term: 4,
  });
  await admin.post(`/api/contracts/${contract.id}/submit`, undefined, 200);
  await approver.post(`/api/contracts/${contract.id}/approve`, undefined, 200);
  await admin.post(`/api/contracts/${contract.id}/deposit`, { amount: 25_000, channel: 'cash' });
  await approver.post(`/api/contracts/${contract.id}/activate`, undefined, 200);
  return {
    customerId: customer.id as string,
    deviceId: device.id as string,
    contractId: contract.id as string,
    contractNumber: contract.number as string,
  };
}
