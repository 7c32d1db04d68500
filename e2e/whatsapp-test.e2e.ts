import type { APIRequestContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_FILES } from '../tests/support/multipart';
import { accessibilityViolations } from './support/browser';
import { manager, owner } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * The WhatsApp test page in a real browser against the built app (issue 15 §6): a customer's
 * number asks for the balance through the signed webhook and gets their own figure, then asks for
 * a person, and the hand-off task appears on the dashboard of the customer's agent and on
 * /ai-customer-service. The book is set up through the API, as origination has its own tests.
 */
const suite = startBrowserSuite();

async function api(request: APIRequestContext) {
  const { csrfToken } = (await (await request.get('/api/csrf-token')).json()) as { csrfToken: string };
  const call = async (
    method: 'post' | 'get',
    url: string,
    data?: unknown,
    status = method === 'post' ? 201 : 200,
  ) => {
    const response = await request[method](url, {
      headers: { 'x-csrf-token': csrfToken },
      ...(data === undefined ? {} : { data }),
    });
    if (response.status() !== status)
      throw new Error(`${method} ${url}: ${response.status()} ${await response.text()}`);
    return response.json();
  };
  return {
    csrfToken,
    post: (url: string, data?: unknown, status?: number) => call('post', url, data, status),
    get: (url: string) => call('get', url),
  };
}

const PHONE = '+254712345678';

/** The owner (the customer's agent), a manager to approve, and an active contract. */
async function setUpBook(): Promise<{ contractNumber: string }> {
  const session = await suite.open();
  const request = session.context.request;
  expect((await request.post('/api/register', { data: owner })).status()).toBe(201);
  const admin = await api(request);
  const me = (await admin.get('/api/user')) as { id: string };
  const invite = await admin.post('/api/invites', { email: manager.email, role: 'manager' });
  const managerContext = await suite.browser.newContext({ baseURL: suite.url });
  const joined = await managerContext.request.post('/api/register', {
    data: { ...manager, inviteToken: invite.token },
  });
  expect(joined.status(), await joined.text()).toBe(201);
  const managerApi = await api(managerContext.request);

  const customer = await admin.post('/api/customers', {
    firstName: 'Amina',
    lastName: 'Wanjiru',
    phone: PHONE,
    monthlyIncome: 60_000,
    assignedAgentId: me.id,
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
  const device = await admin.post('/api/devices', { serialNumber: 'TS20-WA-1', modelId: model.id });
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
  await managerContext.close();
  await session.context.close();
  return { contractNumber: contract.number };
}

describe('WhatsApp test page', () => {
  it('asks for the balance, then for a person, and the staff task appears', async () => {
    const { contractNumber } = await setUpBook();
    const { page, errors } = await suite.openAs(owner, undefined, '/');

    await page.goto('/whatsapp-test');
    await page.getByTestId('input-wa-phone').fill(PHONE);
    await page.getByTestId('input-wa-text').fill('Hi, what is my balance?');
    await page.getByTestId('button-wa-send').click();
    await page.getByTestId('wa-result').waitFor();
    expect(await page.getByTestId('text-signature-result').textContent()).toContain('Signature verified');
    const answer = page.getByTestId('list-wa-lines').getByTestId('line-assistant').last();
    await answer.waitFor();
    expect(await answer.textContent()).toContain(`Your balance: ${contractNumber}`);
    expect(await page.getByTestId('json-inbound').textContent()).toContain('whatsapp_business_account');
    expect(await page.getByTestId('json-outbound').textContent()).toContain(
      '"messaging_product": "whatsapp"',
    );
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByTestId('input-wa-text').fill('I want to talk to a person');
    await page.getByTestId('button-wa-send').click();
    await page.getByTestId('list-wa-lines').getByText('I have asked a person from our team').waitFor();

    // The customer's agent (the owner here) sees the task on the dashboard, with the thread a click away.
    await page.goto('/');
    const card = page.getByTestId('card-my-tasks');
    await card.locator('[data-testid^="item-task-"]').first().waitFor();
    expect(await card.textContent()).toContain('The customer asked for a person: Amina');
    await card.locator('[data-testid^="link-task-thread-"]').first().click();
    await page.getByTestId('card-thread').waitFor();
    expect(await page.getByTestId('list-thread-lines').textContent()).toContain('I want to talk to a person');

    await page.goto('/ai-customer-service?tab=tasks');
    await page.locator('[data-testid^="item-task-"]').first().waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
