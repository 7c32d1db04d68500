import { randomBytes } from 'node:crypto';
import type { Contract } from '../../src/contracts/contracts';
import type { TestApp, TestClient } from './app';
import { multipart, SAMPLE_FILES } from './multipart';

type DeviceControlKind = 'none' | 'openpaygo' | 'lock_api';

/** Sets the organisation's country, currency and time zone through the settings API (as an admin). */
export async function setOrganisation(
  admin: TestClient,
  change: {
    country?: string;
    currency?: string;
    timeZone?: string;
    incomeBands?: [number, number, number] | null;
  },
): Promise<void> {
  const current = (await admin.get('/api/settings/organisation')).json<Record<string, unknown>>();
  const { updatedAt: _updatedAt, ...settings } = current;
  const response = await admin.request('PUT', '/api/settings/organisation', { ...settings, ...change });
  if (response.statusCode !== 200) throw new Error(`Organisation update failed: ${response.body}`);
}

let counter = 0;
const next = () => {
  counter += 1;
  return counter;
};

/** A valid Kenyan mobile number, different on every call (national format: 07xxxxxxxx). */
export function nextKenyanPhone(): string {
  return `07${String(10_000_000 + ((next() * 7_919 + process.pid) % 89_999_999)).slice(0, 8)}`;
}

export function e164Kenyan(national: string): string {
  return `+254${national.slice(1)}`;
}

function expectStatus(response: { statusCode: number; body: string }, status: number, what: string): void {
  if (response.statusCode !== status) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
}

/**
 * A customer whose KYC is verified through the API: created and documented by `agent`, the ID
 * and selfie verified by `reviewer` (another person, as the four-eyes rule needs).
 */
export async function verifiedCustomer(
  _t: TestApp,
  agent: TestClient,
  reviewer: TestClient,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; accountNumber: string; [key: string]: unknown }> {
  const created = await agent.post('/api/customers', {
    firstName: 'Verified',
    lastName: `Customer ${next()}`,
    phone: e164Kenyan(nextKenyanPhone()),
    monthlyIncome: 60_000,
    ...fields,
  });
  expectStatus(created, 201, 'create customer');
  const customer = created.json();
  for (const [type, data] of [
    ['id_front', SAMPLE_FILES.jpeg],
    ['selfie', SAMPLE_FILES.png],
  ] as const) {
    const uploaded = await agent.post(
      `/api/customers/${customer.id}/documents`,
      undefined,
      multipart({ type }, [{ name: `${type}.bin`, data }]),
    );
    expectStatus(uploaded, 201, `upload ${type}`);
    const review = await reviewer.post(
      `/api/customers/${customer.id}/documents/${uploaded.json().document.id}/review`,
      {
        decision: 'verify',
      },
    );
    expectStatus(review, 200, `verify ${type}`);
  }
  const verified = (await agent.get(`/api/customers/${customer.id}`)).json();
  if (verified.kyc?.status !== 'verified')
    throw new Error(`KYC not verified: ${JSON.stringify(verified.kyc)}`);
  return verified;
}

/** A unit in stock of a new smartphone model (no remote control), priced as asked (default 1,500.00). */
export async function deviceInStock(
  manager: TestClient,
  prices: { retailPrice?: number; costPrice?: number; control?: DeviceControlKind } = {},
): Promise<{ id: string; serialNumber: string; model: { id: string }; [key: string]: unknown }> {
  const n = next();
  const control = prices.control ?? 'none';
  const model = await manager.post('/api/device-models', {
    make: 'Fixture',
    model: `Phone ${n}-${process.pid}`,
    category: 'smartphone',
    retailPrice: prices.retailPrice ?? 150_000,
    ...(prices.costPrice === undefined ? {} : { costPrice: prices.costPrice }),
    controlKind: control,
  });
  expectStatus(model, 201, 'create device model');
  const device = await manager.post('/api/devices', {
    serialNumber: `FX-${process.pid}-${n}`,
    modelId: model.json().id,
    ...(control === 'openpaygo'
      ? { control: { kind: 'openpaygo', secretKey: randomBytes(16).toString('hex') } }
      : {}),
  });
  expectStatus(device, 201, 'create device');
  return device.json();
}

/** The plan every origination fixture offers (its code aside), for API and browser tests alike. */
export const MONTHLY_PHONE_PLAN = {
  name: 'Monthly phone plan',
  frequency: 'monthly',
  allowedTerms: [4, 6, 12],
  apr: 15,
  interestMethod: 'declining',
  minDepositPercent: 10,
  installmentMultiple: 100,
} as const;

/**
 * An active monthly plan: 15 % APR declining, terms 4, 6 or 12, deposit at least 10 %, instalments
 * in multiples of 1.00 (the Fineract reference case A).
 */
export async function activePlan(
  manager: TestClient,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; [key: string]: unknown }> {
  const created = await manager.post('/api/service-plans', {
    code: `PLAN-${next()}-${process.pid}`,
    ...MONTHLY_PHONE_PLAN,
    ...overrides,
  });
  expectStatus(created, 201, 'create plan');
  const activated = await manager.post(`/api/service-plans/${created.json().id}/activate`);
  expectStatus(activated, 200, 'activate plan');
  return activated.json();
}

/** Who originates in tests: an agent makes, a manager approves, a second manager reviews KYC. */
export interface OriginationStaff {
  agent: TestClient;
  manager: TestClient;
  reviewer: TestClient;
}

/**
 * A draft contract (Fineract case A: 1,500.00 device, 250.00 deposit, four months at 15 %) over a
 * new verified customer, a device in stock and a new active plan; `overrides` change the request.
 */
export async function draftContract(
  t: TestApp,
  staff: OriginationStaff,
  overrides: Record<string, unknown> = {},
  control: DeviceControlKind = 'none',
): Promise<{
  contract: Contract;
  customer: Awaited<ReturnType<typeof verifiedCustomer>>;
  device: Awaited<ReturnType<typeof deviceInStock>>;
  plan: Awaited<ReturnType<typeof activePlan>>;
}> {
  const customer = await verifiedCustomer(t, staff.agent, staff.reviewer);
  const device = await deviceInStock(staff.manager, { retailPrice: 150_000, costPrice: 90_000, control });
  const plan = await activePlan(staff.manager);
  const created = await staff.agent.post('/api/contracts', {
    customerId: customer.id,
    deviceId: device.id,
    planId: plan.id,
    deposit: 25_000,
    term: 4,
    ...overrides,
  });
  expectStatus(created, 201, 'create contract');
  return { contract: created.json(), customer, device, plan };
}

/** A draft contract submitted by the agent and approved by the manager, waiting for its deposit. */
export async function approvedContract(
  t: TestApp,
  staff: OriginationStaff,
  control: DeviceControlKind = 'none',
): Promise<Contract> {
  const { contract } = await draftContract(t, staff, {}, control);
  expectStatus(await staff.agent.post(`/api/contracts/${contract.id}/submit`), 200, 'submit contract');
  expectStatus(await staff.manager.post(`/api/contracts/${contract.id}/approve`), 200, 'approve contract');
  return contract;
}

/**
 * An active contract (case A: 1,250.00 financed over four months at 15 %, instalments 320.00 from
 * a month after today), its deposit taken in cash and activated by the manager.
 */
export async function activeContract(
  t: TestApp,
  staff: OriginationStaff,
  control: DeviceControlKind = 'none',
): Promise<Contract> {
  const contract = await approvedContract(t, staff, control);
  expectStatus(
    await staff.agent.post(`/api/contracts/${contract.id}/deposit`, { amount: 25_000, channel: 'cash' }),
    201,
    'take deposit',
  );
  expectStatus(await staff.manager.post(`/api/contracts/${contract.id}/activate`), 200, 'activate contract');
  const active = await staff.manager.get(`/api/contracts/${contract.id}`);
  expectStatus(active, 200, 'read contract');
  return active.json();
}
