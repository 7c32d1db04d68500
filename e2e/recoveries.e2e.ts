import type { APIRequestContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_FILES } from '../tests/support/multipart';
import { accessibilityViolations, screenshot } from './support/browser';
import { manager, owner, type Person } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * Recoveries in a real browser against the built app: a collector asks for the repossession of a
 * contract's device from the contract page; a manager approves it on /collections and records the
 * recovery (checked field by field, then confirmed); the contract reads repossessed and the device
 * returned. The book is set up through the API, as origination has its own browser tests.
 */
const suite = startBrowserSuite();

const collector: Person = {
  firstName: 'Cynthia',
  lastName: 'Njeri',
  email: 'cynthia@example.com',
  password: 'collector passphrase 1',
};

async function api(request: APIRequestContext) {
  const { csrfToken } = (await (await request.get('/api/csrf-token')).json()) as { csrfToken: string };
  const post = async (url: string, data?: unknown, status = 201) => {
    const response = await request.post(url, {
      headers: { 'x-csrf-token': csrfToken },
      ...(data === undefined ? {} : { data }),
    });
    if (response.status() !== status)
      throw new Error(`post ${url}: ${response.status()} ${await response.text()}`);
    return response.json();
  };
  return { csrfToken, post };
}

let contractId = '';
let contractNumber = '';
let deviceId = '';

/** The owner, a manager and a collector, and an active contract. */
async function setUpBook(): Promise<void> {
  const ownerSession = await suite.open();
  const request = ownerSession.context.request;
  expect((await request.post('/api/register', { data: owner })).status()).toBe(201);
  const admin = await api(request);
  const contexts: APIRequestContext[] = [];
  let managerRequest: APIRequestContext | undefined;
  for (const [person, role] of [
    [manager, 'manager'],
    [collector, 'collector'],
  ] as const) {
    const invite = await admin.post('/api/invites', { email: person.email, role });
    const context = await suite.browser.newContext({ baseURL: suite.url });
    const joined = await context.request.post('/api/register', {
      data: { ...person, inviteToken: invite.token },
    });
    expect(joined.status(), await joined.text()).toBe(201);
    contexts.push(context.request);
    if (role === 'manager') managerRequest = context.request;
  }
  const managerApi = await api(managerRequest as APIRequestContext);
  const customer = await admin.post('/api/customers', {
    firstName: 'Amina',
    lastName: 'Wanjiru',
    phone: '+254712345678',
    monthlyIncome: 60_000,
  });
  for (const [type, buffer, mimeType] of [
    ['id_front', SAMPLE_FILES.jpeg, 'image/jpeg'],
    ['selfie', SAMPLE_FILES.png, 'image/png'],
  ] as const) {
    const uploaded = await request.post(`/api/customers/${customer.id}/documents`, {
      headers: { 'x-csrf-token': admin.csrfToken },
      multipart: { type, file: { name: `${type}.bin`, mimeType, buffer } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const { document } = (await uploaded.json()) as { document: { id: string } };
    await managerApi.post(
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
    controlKind: 'none',
  });
  const device = await admin.post('/api/devices', { serialNumber: 'TS20-0042', modelId: model.id });
  const plan = await admin.post('/api/service-plans', {
    code: 'PHONE-M',
    name: 'Monthly phone plan',
    frequency: 'monthly',
    allowedTerms: [4, 6, 12],
    apr: 15,
    interestMethod: 'declining',
    minDepositPercent: 10,
    installmentMultiple: 100,
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
  await managerApi.post(`/api/contracts/${contract.id}/approve`, undefined, 200);
  await admin.post(`/api/contracts/${contract.id}/deposit`, { amount: 25_000, channel: 'cash' });
  await managerApi.post(`/api/contracts/${contract.id}/activate`, undefined, 200);
  contractId = contract.id;
  contractNumber = contract.number;
  deviceId = device.id;
  await ownerSession.context.close();
  for (const context of contexts) await context.dispose();
}

describe('recoveries in Chromium', () => {
  it('a collector requests a repossession from the contract page', async () => {
    await setUpBook();
    const { page, errors, context } = await suite.openAs(collector);
    await page.goto(`/contracts/${contractId}`);
    const card = page.getByTestId('card-contract-recoveries');
    await card.getByText('No repossession or write-off asked for.').waitFor();
    await card.getByTestId('button-request-repossession').click();
    const dialog = page.getByTestId('dialog-request-repossession');
    await dialog.getByTestId('table-request-outstanding').waitFor();
    // The reason is checked before anything is sent.
    await dialog.getByTestId('button-confirm-request-repossession').click();
    await dialog.getByText('Give a reason (at least 3 characters)').waitFor();
    await dialog
      .getByTestId('input-repossession-reason')
      .fill('Three instalments missed, customer moved away');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByTestId('button-confirm-request-repossession').click();
    await expect
      .poll(() => card.getByTestId('badge-contract-repossession').getAttribute('data-status'))
      .toBe('requested');
    // One open request at a time: the buttons are gone.
    expect(await card.getByTestId('button-request-repossession').count()).toBe(0);
    expect(await card.getByTestId('button-request-write-off').count()).toBe(0);
    await screenshot(page, 'recoveries-contract-requested');
    // A collector does not decide: no approve button on the queue.
    await page.goto('/collections?tab=repossessions');
    const row = page.locator('[data-testid^="row-repossession-"]').first();
    await row.getByText('You asked for this').waitFor();
    expect(await row.locator('[data-testid^="button-approve-"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a manager approves it on /collections and records the recovery; the contract closes', async () => {
    const { page, errors, context } = await suite.openAs(manager);
    await page.goto('/collections?tab=repossessions');
    const row = page.locator('[data-testid^="row-repossession-"]').first();
    await row.getByText('Three instalments missed, customer moved away').waitFor();
    await screenshot(page, 'recoveries-queue');
    expect(await accessibilityViolations(page)).toEqual([]);
    await row.locator('[data-testid^="button-approve-"]').click();
    await page.getByTestId('input-decision-note').fill('Field team to collect on Monday');
    await page.getByTestId('button-confirm-approve-repossession').click();
    await expect
      .poll(() => row.locator('[data-testid^="badge-repossession-"]').getAttribute('data-status'))
      .toBe('approved');

    await row.locator('[data-testid^="button-recover-"]').click();
    const dialog = page.getByTestId('dialog-recover');
    // Every field is checked before the confirmation step.
    await dialog.getByTestId('button-confirm-recover').click();
    await dialog.getByText('Choose the condition the device came back in').waitFor();
    await dialog.getByText('Enter what the device is worth back in stock (0 if nothing)').waitFor();
    await dialog.getByText('Choose what happens to the rest of the balance').waitFor();
    await dialog.getByTestId('select-recover-condition').selectOption('damaged');
    await dialog.getByTestId('input-recover-notes').fill('Cracked screen, charger missing');
    await dialog.getByTestId('input-recover-value').fill('500');
    await dialog.getByTestId('select-recover-balance').selectOption('write_off');
    await dialog.getByTestId('button-confirm-recover').click();
    await dialog.getByText(/closes as repossessed/).waitFor();
    await screenshot(page, 'recoveries-recover-confirm');
    await dialog.getByTestId('button-confirm-recover').click();
    await expect
      .poll(() => row.locator('[data-testid^="badge-repossession-"]').getAttribute('data-status'))
      .toBe('recovered');
    await row.getByText(/valued \$500\.00/).waitFor();

    await page.goto(`/contracts/${contractId}`);
    await expect
      .poll(() => page.getByTestId('badge-contract-status').getAttribute('data-status'))
      .toBe('repossessed');
    await page
      .getByTestId('list-contract-events')
      .getByText(/Closed by repossession/)
      .waitFor();
    await page.goto(`/devices/${deviceId}`);
    await page
      .getByText(/Repossessed from/)
      .first()
      .waitFor();
    await screenshot(page, 'recoveries-device-returned');
    // The write-offs tab answers with its own (empty) queue.
    await page.goto('/collections?tab=write-offs');
    await page.getByTestId('empty-write-offs').waitFor();
    expect(contractNumber).toMatch(/\S/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
