import type { APIRequestContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_FILES } from '../tests/support/multipart';
import { accessibilityViolations, PHONE, screenshot } from './support/browser';
import { manager, owner } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * The customer portal on a phone (390 × 844) against the built app: the customer signs in with
 * the code staff can read in the outbox, reads the schedule, pays now through the M-Pesa
 * simulator and sees the new unlock code the payment bought. The book is set up through the API.
 */
const suite = startBrowserSuite({ MPESA_SIMULATOR_DELAY_MS: '200' });
const CUSTOMER_PHONE = '+254712345678';

/** JSON calls with the context's cookies and a CSRF token, as the browser app makes them. */
async function api(request: APIRequestContext) {
  const { csrfToken } = (await (await request.get('/api/csrf-token')).json()) as { csrfToken: string };
  const call = async (method: 'post' | 'get', url: string, data?: unknown, status = 0) => {
    const response = await request[method](url, {
      headers: { 'x-csrf-token': csrfToken },
      ...(data === undefined ? {} : { data }),
    });
    const expected = status || (method === 'post' ? 201 : 200);
    if (response.status() !== expected)
      throw new Error(`${method} ${url}: ${response.status()} ${await response.text()}`);
    return response.json();
  };
  return {
    csrfToken,
    post: (url: string, data?: unknown, status?: number) => call('post', url, data, status),
    get: (url: string) => call('get', url),
  };
}

/** The owner (who reads the outbox), a manager who approves, and an active OpenPAYGO contract. */
async function setUpBook(): Promise<{ owner: Awaited<ReturnType<typeof api>>; contractNumber: string }> {
  const ownerSession = await suite.open();
  const request = ownerSession.context.request;
  expect((await request.post('/api/register', { data: owner })).status()).toBe(201);
  const admin = await api(request);
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
    phone: CUSTOMER_PHONE,
    monthlyIncome: 60_000,
    consents: { sms: true },
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
    controlKind: 'openpaygo',
  });
  const device = await admin.post('/api/devices', {
    serialNumber: 'TS20-0101',
    modelId: model.id,
    control: { kind: 'openpaygo', secretKey: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' },
  });
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
  return { owner: admin, contractNumber: contract.number };
}

describe('customer portal on a phone in Chromium', () => {
  it('signs in with the code from the outbox, shows the schedule, pays now and shows the new token', async () => {
    const book = await setUpBook();
    const { page, errors, context } = await suite.open(PHONE);
    await page.goto('/customer');
    await page.getByLabel('Phone number').fill('+254 712 345 678');
    await screenshot(page, 'customer-portal-sign-in');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('button-send-code').click();
    await page.getByTestId('text-code-sent').waitFor();

    // Development: the code is in the outbox, which staff may read.
    const outbox = await book.owner.get(`/api/outbox?recipient=${encodeURIComponent(CUSTOMER_PHONE)}`);
    const code = (outbox.items as Array<{ body: string }>)
      .map((item) => /\b(\d{6})\b is your .* sign-in code/.exec(item.body)?.[1])
      .find(Boolean);
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('6-digit code').fill(code ?? '');
    await page.getByTestId('button-portal-sign-in').click();
    await page.getByTestId('text-portal-greeting').getByText('Hello, Amina').waitFor();

    const number = book.contractNumber;
    const card = page.getByTestId(`card-contract-${number}`);
    await card.waitFor();
    expect(await page.getByTestId(`text-next-due-${number}`).textContent()).toMatch(/by \d+ \w{3} \d{4}/);
    await page.getByTestId(`details-schedule-${number}`).locator('summary').click();
    expect(await page.getByTestId(`details-schedule-${number}`).locator('tbody tr').count()).toBe(4);
    const firstToken = await page.getByTestId(`text-token-${number}`).textContent();
    expect(firstToken).toMatch(/^\d{3} \d{3} \d{3}/);
    await screenshot(page, 'customer-portal-contract');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Pay now: the simulator answers as the customer's phone would, and the page follows it live.
    await page.getByTestId(`button-pay-now-${number}`).click();
    await page.getByTestId(`text-pay-status-${number}`).getByText('Check your phone').waitFor();
    await page.getByTestId(`text-pay-status-${number}`).getByText('received').waitFor({ timeout: 15_000 });
    await expect
      .poll(() => page.getByTestId(`text-token-${number}`).textContent(), { timeout: 10_000 })
      .not.toBe(firstToken);
    expect(await page.getByTestId(`text-token-days-${number}`).textContent()).toMatch(
      /Adds \d+ days? of use/,
    );
    await page.getByTestId(`details-payments-${number}`).locator('summary').click();
    const receipt = page
      .getByTestId(`details-payments-${number}`)
      .getByRole('link', { name: /Receipt/ })
      .first();
    const pdf = await context.request.get((await receipt.getAttribute('href')) ?? '');
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await screenshot(page, 'customer-portal-paid');

    // The assistant answers from the customer's own account.
    await page.getByTestId('section-chat').locator('summary').click();
    await page.getByTestId('input-chat').fill('What is my balance?');
    await page.getByTestId('button-chat-send').click();
    await page.getByTestId('list-chat').getByText(number).waitFor();
    await page.getByTestId('section-preferences').locator('summary').click();
    await page.getByTestId('checkbox-consent-sms').waitFor();
    expect(await page.getByTestId('checkbox-consent-sms').isChecked()).toBe(true);
    await screenshot(page, 'customer-portal-chat-preferences');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
