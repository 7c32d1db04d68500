import type { APIRequestContext, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_FILES } from '../tests/support/multipart';
import { accessibilityViolations, PHONE, screenshot } from './support/browser';
import { documentIdOf, documentRow, uploadDocument } from './support/documents';
import { expectPath, manager, owner } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * Origination in a real browser against the built app, one journey: the owner creates a customer
 * and uploads her KYC documents, the invited manager verifies them, the owner adds an OpenPAYGO
 * phone to the catalogue and stock and creates and activates a plan; then the owner runs the wizard to a contract submitted for approval, is refused as the
 * approver (maker-checker), the manager approves, activation is refused until the deposit is
 * recorded, the deposit is recorded, the contract activates with its first unlock token, the
 * key-facts PDF downloads, and /finance shows the journal and a balanced trial balance.
 */
const suite = startBrowserSuite();
let contractUrl = '';

/** JSON calls with the context's cookies and a CSRF token, as the browser app makes them. */
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

async function pick(page: Page, testId: string, search: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByTestId(`${testId}-search`).fill(search);
  await page.getByRole('option', { name: option }).click();
}

async function confirm(page: Page) {
  await page.getByTestId('dialog-confirm').getByTestId('button-confirm').click();
  await expect.poll(() => page.getByTestId('dialog-confirm').count()).toBe(0);
}

const status = (page: Page) => page.getByTestId('badge-contract-status');
const refusal = (page: Page) => page.getByTestId('text-contract-refusal');

describe('contracts and finance in Chromium', () => {
  let ownerContext: BrowserContext;
  let ownerPage: Page;
  let ownerErrors: string[];

  it('sets up the book in the browser: a customer whose KYC a second person verifies, a device and a plan', async () => {
    ({ context: ownerContext, page: ownerPage, errors: ownerErrors } = await suite.open());
    // The people: an owner and an invited manager (registration has its own browser tests).
    const registered = await ownerContext.request.post('/api/register', { data: owner });
    expect(registered.status()).toBe(201);
    const invite = await (await api(ownerContext.request)).post('/api/invites', {
      email: manager.email,
      role: 'manager',
    });
    const managerSetup = await suite.browser.newContext({ baseURL: suite.url });
    const joined = await managerSetup.request.post('/api/register', {
      data: { ...manager, inviteToken: invite.token },
    });
    expect(joined.status(), await joined.text()).toBe(201);
    await managerSetup.close();

    // The owner creates the customer and uploads her ID and selfie.
    const page = ownerPage;
    await page.goto('/customers/new');
    await page.getByTestId('input-first-name').fill('Amina');
    await page.getByTestId('input-last-name').fill('Wanjiru');
    await page.getByTestId('input-phone').fill('+254712345678');
    await page.getByTestId('input-monthly-income').fill('600');
    await page.getByTestId('button-save-customer').click();
    await expectPath(page, /^\/customers\/[0-9a-f-]{36}$/);
    const customerPath = new URL(page.url()).pathname;
    await page.getByTestId('empty-documents').waitFor();
    for (const [type, name, mimeType, buffer] of [
      ['id_front', 'id-front.jpg', 'image/jpeg', SAMPLE_FILES.jpeg],
      ['selfie', 'selfie.png', 'image/png', SAMPLE_FILES.png],
    ] as const)
      await uploadDocument(page, type, { name, mimeType, buffer });
    await expect.poll(() => page.getByTestId('text-kyc-status').getAttribute('data-status')).toBe('pending');

    // The manager, another person, verifies both.
    const reviewer = await suite.openAs(manager);
    await reviewer.page.goto(customerPath);
    for (const type of ['id_front', 'selfie']) {
      await documentRow(reviewer.page, type).waitFor();
      const id = await documentIdOf(reviewer.page, type);
      await reviewer.page.getByTestId(`button-verify-${id}`).click();
      await expect
        .poll(() => reviewer.page.getByTestId(`text-document-status-${id}`).getAttribute('data-status'))
        .toBe('verified');
    }
    await expect
      .poll(() => reviewer.page.getByTestId('text-kyc-status').getAttribute('data-status'))
      .toBe('verified');
    expect(reviewer.errors).toEqual([]);
    await reviewer.context.close();

    // The owner adds the device model, an OpenPAYGO unit of it, and the plan.
    await page.goto('/devices?tab=models');
    await page.getByTestId('button-new-model').click();
    const modelDialog = page.getByTestId('dialog-model');
    await modelDialog.getByTestId('input-model-make').fill('Tecno');
    await modelDialog.getByTestId('input-model-model').fill('Spark 20');
    await modelDialog.getByTestId('select-model-category').selectOption('smartphone');
    await modelDialog.getByTestId('input-model-sku').fill('TEC-SP20');
    await modelDialog.getByTestId('input-model-retail-price').fill('1,500.00');
    await modelDialog.getByTestId('input-model-cost-price').fill('900.00');
    await modelDialog.getByTestId('select-model-control').selectOption('openpaygo');
    await modelDialog.getByTestId('button-save-model').click();
    await expect.poll(() => modelDialog.count()).toBe(0);

    await page.goto('/devices');
    await page.getByTestId('button-add-unit').click();
    const unitDialog = page.getByTestId('dialog-add-unit');
    await unitDialog
      .getByTestId('select-unit-model')
      .selectOption({ label: 'Tecno Spark 20 · Smartphone · TEC-SP20' });
    await unitDialog.getByTestId('input-unit-serial').fill('TS20-0001');
    await unitDialog.getByTestId('input-unit-secret-key').fill('a1b2c3d4e5f60718293a4b5c6d7e8f90');
    await unitDialog.getByTestId('button-save-unit').click();
    await expectPath(page, /^\/devices\/[0-9a-f-]{36}$/);
    expect(await page.getByTestId('badge-device-status').textContent()).toBe('In stock');

    await page.goto('/service-plans/new');
    await page.getByTestId('input-plan-code').fill('phone-m');
    await page.getByTestId('input-plan-name').fill('Monthly phone plan');
    await page.getByTestId('input-plan-terms').fill('4, 6, 12');
    await page.getByTestId('input-plan-apr').fill('15');
    await page.getByTestId('input-plan-deposit-percent').fill('10');
    await page.getByTestId('input-plan-multiple').fill('1.00');
    await page.getByTestId('button-save-plan').click();
    await expectPath(page, /^\/service-plans\/[0-9a-f-]{36}$/);
    await page.getByTestId('button-activate-plan').click();
    await page.getByTestId('button-confirm').click();
    await expect.poll(() => page.getByTestId('badge-plan-status').textContent()).toBe('Active');
    expect(ownerErrors).toEqual([]);
  });

  it('runs the wizard to a contract submitted for approval', async () => {
    const page = ownerPage;
    await page.goto('/');
    await page.goto('/contracts');
    await page.getByTestId('empty-contracts').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('button-new-contract').click();
    await expectPath(page, '/contracts/new');

    await page.getByTestId('button-wizard-next').click();
    await page.getByText('Choose a customer', { exact: true }).waitFor();
    await pick(page, 'select-customer', 'amina', /Amina Wanjiru/);
    await page.getByTestId('badge-customer-kyc').getByText('KYC verified').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'contracts-wizard-customer');
    await page.getByTestId('button-wizard-next').click();

    await pick(page, 'select-device', 'TS20', /TS20-0001/);
    await expect.poll(() => page.getByTestId('text-cash-price').textContent()).toBe('$1,500.00');
    await page.getByTestId('button-wizard-next').click();

    await pick(page, 'select-plan', 'phone', /PHONE-M/);
    await page.getByTestId('button-wizard-next').click();

    // Keyboard: type the deposit, choose the term, press Enter.
    await page.getByTestId('input-deposit').fill('100');
    await page.getByTestId('select-term').selectOption('4');
    await page.getByTestId('input-deposit').press('Enter');
    await page.getByText('Plan PHONE-M needs a deposit of at least $150.00').waitFor();
    await page.getByTestId('input-deposit').fill('250.00');
    await page.getByTestId('input-deposit').press('Enter');

    await expect.poll(() => page.getByTestId('text-preview-instalment').textContent()).toBe('$322.00');
    expect(await page.getByTestId('text-preview-pattern').textContent()).toContain(
      '3 monthly payments of $322.00, then a last payment of $323.33',
    );
    await page.getByTestId('row-schedule-4').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'contracts-wizard-schedule');

    // Back keeps the values.
    await page.getByTestId('button-wizard-back').click();
    expect(await page.getByTestId('input-deposit').inputValue()).toBe('250.00');
    await page.getByTestId('button-wizard-next').click();
    await page.getByTestId('text-preview-instalment').waitFor();
    await page.getByTestId('button-wizard-next').click();

    await page.getByTestId('list-contract-summary').waitFor();
    expect(await page.getByTestId('checkbox-submit-for-approval').isChecked()).toBe(true);
    await screenshot(page, 'contracts-wizard-submit');
    await page.getByTestId('button-wizard-next').click();
    await expectPath(page, /^\/contracts\/[0-9a-f-]{36}$/);
    contractUrl = new URL(page.url()).pathname;
    await expect.poll(() => status(page).textContent()).toBe('Pending approval');
    expect(ownerErrors).toEqual([]);
  });

  it('refuses the maker as approver; the invited manager approves', async () => {
    const page = ownerPage;
    await page.getByTestId('button-approve').click();
    await confirm(page);
    await expect
      .poll(() => refusal(page).textContent())
      .toBe('You created or submitted this contract; another person must approve it');
    expect(await status(page).textContent()).toBe('Pending approval');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'contracts-detail-maker-refused');

    const { context, page: managerPage, errors } = await suite.openAs(manager);
    await managerPage.goto(contractUrl);
    await managerPage.getByTestId('button-approve').click();
    await confirm(managerPage);
    await expect.poll(() => status(managerPage).textContent()).toBe('Approved');
    expect(await managerPage.getByTestId('check-approved').getAttribute('data-done')).toBe('true');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses activation until the deposit is recorded, then activates with the first token', async () => {
    const page = ownerPage;
    await page.reload();
    await expect.poll(() => status(page).textContent()).toBe('Approved');
    await page.getByTestId('button-activate').click();
    await confirm(page);
    await expect
      .poll(() => refusal(page).textContent())
      .toBe('The deposit of $250.00 is not fully received ($0.00 so far)');

    await page.getByTestId('button-deposit').click();
    const dialog = page.getByTestId('dialog-deposit');
    expect(await dialog.getByTestId('input-deposit-amount').inputValue()).toBe('250.00');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'contracts-deposit-dialog');
    await dialog.getByTestId('input-deposit-reference').fill('CASH-0001');
    await dialog.getByTestId('button-confirm-deposit').click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.getByTestId('check-deposit').getAttribute('data-done')).toBe('true');
    await page.getByText('Ready to activate').waitFor();

    await page.getByTestId('button-activate').click();
    await confirm(page);
    await expect.poll(() => status(page).textContent()).toBe('Active');
    const token = (await page.getByTestId('text-unlock-token').textContent()) ?? '';
    expect(token).toMatch(/^\d{3} \d{3} \d{3}$/);
    await page.getByTestId('list-contract-tokens').getByText(token).waitFor();
    expect(await page.getByTestId('group-contract-actions').count()).toBe(0);
    await page.getByTestId('row-instalment-4').waitFor();
    expect(await page.getByTestId('badge-instalment-1').first().textContent()).toBe('Upcoming');
    await page.getByTestId('event-activated').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'contracts-detail-active');

    const href = (await page.getByTestId('link-key-facts').getAttribute('href')) ?? '';
    expect(href).toBe(`/api${contractUrl}/key-facts.pdf`);
    const pdf = await page.request.get(href);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    await page.goto('/contracts');
    const rows = page.locator('[data-testid^="row-contracts-"]');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Active');
    await page.getByTestId('input-search-contracts').fill('ts20-0001');
    await page.waitForURL((url) => url.search === '?q=ts20-0001');
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByTestId('input-search-contracts').fill('nobody');
    await page.getByTestId('empty-contracts').waitFor();
    await page.getByTestId('button-clear-contracts').click();
    await expect.poll(() => rows.count()).toBe(1);
    const csv = await page.request.get(
      (await page.getByTestId('link-export-contracts').getAttribute('href')) ?? '',
    );
    expect(csv.headers()['content-type']).toMatch(/text\/csv/);
    await screenshot(page, 'contracts-list');
    expect(ownerErrors).toEqual([]);
  });

  it('shows the journal and a balanced trial balance on /finance', async () => {
    const page = ownerPage;
    await page.goto('/finance');
    const entries = page.locator('[data-testid^="card-journal-"]');
    // The unit received into stock, the deposit, the activation.
    await expect.poll(() => entries.count()).toBe(3);
    const journal = (await page.getByTestId('panel-journal').textContent()) ?? '';
    expect(journal).toContain('Stock received: ');
    expect(journal).toContain('Deposit for CT-');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'finance-journal');

    await page.getByTestId('tab-trial-balance').click();
    await page.getByTestId('table-trial-balance').waitFor();
    expect(await page.getByTestId('text-trial-balance-status').getAttribute('data-balanced')).toBe('true');
    expect(await page.getByTestId('text-total-debit').textContent()).toBe(
      await page.getByTestId('text-total-credit').textContent(),
    );
    expect(await page.getByTestId('text-balance-1100').textContent()).toBe('$1,250.00 Dr');
    // The unit came in and went out at its cost: nothing left in inventory, owed to the supplier.
    expect(await page.getByTestId('text-balance-1200').textContent()).toBe('—');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'finance-trial-balance');

    await page.getByTestId('tab-accounts').click();
    await page.getByTestId('row-ledger-account-4000').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // The dark theme passes the same checks.
    await page.getByTestId('button-theme-toggle').first().click();
    await page.goto('/finance?tab=trial-balance');
    await page.getByTestId('table-trial-balance').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goto(contractUrl);
    await page.getByTestId('row-instalment-1').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'contracts-detail-dark');
    await page.goto('/contracts');
    await page.locator('[data-testid^="row-contracts-"]').first().waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(ownerErrors).toEqual([]);
    await ownerContext.close();
  });

  it('works on a phone: list, contract page, wizard and finance; a bad id is not found', async () => {
    const { context, page, errors } = await suite.openAs(owner, PHONE);
    await page.goto('/contracts');
    await page.locator('[data-testid^="row-contracts-"]').first().waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'contracts-list-phone');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);

    await page.goto(contractUrl);
    await page.getByTestId('card-instalment-1').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'contracts-detail-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.goto('/contracts/new');
    await page.getByTestId('text-step-count').waitFor();
    expect(await page.getByTestId('text-step-count').textContent()).toBe('Step 1 of 6: Customer');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'contracts-wizard-phone');

    await page.goto('/finance');
    await page.locator('[data-testid^="card-journal-"]').first().waitFor();
    // A balance card takes the phone's width: a two-column grid cut off seven-figure amounts.
    const cash = await page.getByTestId('card-balance-1000').boundingBox();
    expect(cash?.width ?? 0).toBeGreaterThan(PHONE.width / 2);
    await screenshot(page, 'finance-journal-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.goto('/finance?tab=trial-balance');
    await page.getByTestId('table-trial-balance').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'finance-trial-balance-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.goto('/contracts/00000000-0000-4000-8000-000000000000');
    await page.getByTestId('card-contract-not-found').waitFor();
    await page.goto('/contracts/not-a-contract');
    await page.getByTestId('card-contract-not-found').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
