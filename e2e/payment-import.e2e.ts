import type { APIRequestContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { activeContract, api, joinStaff, registerOwner } from './support/book';
import { accessibilityViolations, PHONE, screenshot } from './support/browser';
import { expectPath, manager, type Person } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * Money that does not come through the post form, in a real browser against the built app: a
 * finance user imports a bank statement with good and bad rows (the bad ones shown with their
 * problem, the good ones posted on confirm), and matches an M-Pesa payment held in suspense (its
 * BillRefNumber named no contract) to its contract, landing on its receipt.
 */
const CALLBACK_TOKEN = 'e2e-callback-token';
const suite = startBrowserSuite({ env: { MPESA_CALLBACK_TOKEN: CALLBACK_TOKEN }, database: 'postgres' });

const finance: Person = {
  firstName: 'Fiona',
  lastName: 'Achieng',
  email: 'fiona@example.com',
  password: 'finance passphrase 1',
};

let contractNumber = '';

/** The owner, a manager and a finance user, and one active contract. */
async function setUpBook(): Promise<void> {
  const { session, admin } = await registerOwner(suite);
  const clients: APIRequestContext[] = [];
  let managerRequest: APIRequestContext | undefined;
  for (const [person, role] of [
    [manager, 'manager'],
    [finance, 'finance'],
  ] as const) {
    const context = await joinStaff(suite, admin, person, role);
    clients.push(context.request);
    if (role === 'manager') managerRequest = context.request;
  }
  ({ contractNumber } = await activeContract(admin, await api(managerRequest as APIRequestContext), {
    controlKind: 'openpaygo',
    serialNumber: 'TS20-0001',
  }));
  await session.context.close();
  for (const client of clients) await client.dispose();
}

async function openTab(page: Page, name: string) {
  await page.goto('/payment-processing');
  await page.getByTestId(`tab-${name}`).click();
}

describe('statement import and the suspense queue in Chromium', () => {
  it('imports a statement with good and bad rows: the bad ones refused with why, the good ones posted', async () => {
    await setUpBook();
    const { page, errors, context } = await suite.openAs(finance);
    await openTab(page, 'import');
    await page.getByTestId('empty-imports').waitFor();

    // "Loan No" is not a header the server recognises: the contract column is mapped by hand.
    // Received now (an instant, so the organisation's time zone does not matter): after activation.
    const today = `${new Date().toISOString().slice(0, 19)}Z`;
    const csv = [
      'Loan No,Amount,Bank Ref,Value Date',
      `${contractNumber},100.00,BT-E2E-1,${today}`,
      `${contractNumber},50.50,BT-E2E-2,${today}`,
      `CT-NOPE-1,20.00,BT-E2E-3,${today}`,
      `${contractNumber},abc,BT-E2E-4,${today}`,
    ].join('\n');
    await page.getByTestId('input-import-source').fill('equity-bank');
    await page.getByTestId('select-import-method').selectOption('bank_transfer');
    await page.getByTestId('input-import-file').setInputFiles({
      name: 'equity-statement.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await screenshot(page, 'payments-import-upload');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('button-import-upload').click();
    await expectPath(page, '/payment-processing');
    await page.getByTestId('panel-import-preview').waitFor();
    await page.getByTestId('text-import-unmapped').waitFor();
    expect(await page.getByTestId('button-import-confirm').isDisabled()).toBe(true);

    await page.getByTestId('select-mapping-contract').selectOption('Loan No');
    await page.getByTestId('button-import-remap').click();
    await expect.poll(() => page.getByTestId('text-import-valid').textContent()).toBe('2');
    expect(await page.getByTestId('text-import-rows').textContent()).toBe('4');
    expect(await page.getByTestId('text-import-refused').textContent()).toBe('2');
    await page.getByTestId('text-row-issue-4').getByText('No contract matches "CT-NOPE-1"').waitFor();
    expect(await page.getByTestId('text-row-issue-5').textContent()).toMatch(/Bad amount/);
    expect(await page.getByTestId('row-import-line-2').getAttribute('data-status')).toBe('valid');
    expect(await page.getByTestId('link-import-refused').getAttribute('href')).toMatch(
      /^\/api\/payment-imports\/[0-9a-f-]{36}\/refused\.csv$/,
    );
    const refused = await context.request.get(
      (await page.getByTestId('link-import-refused').getAttribute('href')) ?? '',
    );
    expect(refused.status()).toBe(200);
    expect(await refused.text()).toContain('CT-NOPE-1');

    await page.getByTestId('switch-import-errors-only').click();
    await expect.poll(() => page.getByTestId('table-import-rows').locator('tbody tr').count()).toBe(2);
    await screenshot(page, 'payments-import-preview');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByTestId('button-import-confirm').click();
    const dialog = page.getByTestId('dialog-confirm');
    expect(await dialog.textContent()).toContain('Post 2 payments ($150.50)?');
    await dialog.getByTestId('button-confirm').click();
    await page.getByTestId('panel-import-posted').waitFor();
    expect(await page.getByTestId('text-import-posted').textContent()).toMatch(
      /^2 payments posted, \$150\.50/,
    );
    expect(await page.getByTestId('badge-import-status').getAttribute('data-status')).toBe('posted');
    await page.getByTestId('table-imports').getByText('equity-statement.csv').waitFor();
    await screenshot(page, 'payments-import-posted');

    // The posted payments are in the list.
    await page.getByTestId('tab-payments').click();
    await page.getByTestId('table-payments').getByText('BT-E2E-2').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('matches an M-Pesa payment held in suspense to its contract and opens the receipt', async () => {
    const webhook = await suite.browser.newContext({ baseURL: suite.url });
    const confirmation = await webhook.request.post(
      `/api/webhooks/mpesa/c2b/confirmation?token=${CALLBACK_TOKEN}`,
      {
        data: {
          TransactionType: 'Pay Bill',
          TransID: 'QKE2E00001',
          // A time ahead of the server's clock is taken as now (after the contract's activation).
          TransTime: '20991231235959',
          TransAmount: '75.00',
          BusinessShortCode: '600000',
          BillRefNumber: 'WRONG-REF-77',
          MSISDN: '254700000001',
          FirstName: 'Amina',
        },
      },
    );
    expect(confirmation.status(), await confirmation.text()).toBe(200);
    await webhook.close();

    const { page, errors, context } = await suite.openAs(finance);
    await openTab(page, 'suspense');
    const row = page.locator('[data-testid^="row-suspense-"]').filter({ hasText: 'QKE2E00001' });
    await row.locator('[data-testid^="text-suspense-account-"]').getByText('WRONG-REF-77').waitFor();
    expect(await row.textContent()).toContain('$75.00');
    await screenshot(page, 'payments-suspense');
    expect(await accessibilityViolations(page)).toEqual([]);

    // On a phone the row keeps its amount, account and actions in view (no sideways scroll).
    await page.setViewportSize(PHONE);
    const match = row.locator('[data-testid^="button-match-"]');
    await expect.poll(async () => (await match.boundingBox())?.x ?? -1).toBeGreaterThan(0);
    const box = await match.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, without what the phone hides
    expect(await row.locator('td').first().innerText()).toMatch(/\$75\.00[\s\S]*WRONG-REF-77/);
    await screenshot(page, 'payments-suspense-phone');

    await match.click();
    const dialog = page.getByTestId('dialog-match');
    await dialog.getByTestId('button-confirm-match').click();
    await dialog.getByText('Choose the contract this payment is for').waitFor();
    await page.getByTestId('select-match-contract').click();
    await page.getByTestId('select-match-contract-search').fill(contractNumber);
    await page.getByRole('option', { name: new RegExp(contractNumber) }).click();
    await page.getByTestId('input-match-reason').fill('Customer typed the wrong account number');
    await screenshot(page, 'payments-suspense-match');
    await dialog.getByTestId('button-confirm-match').click();
    await page.getByTestId('panel-match-result').getByText(`Matched to ${contractNumber}`).waitFor();
    await page.getByTestId('table-match-allocation').waitFor();
    await page.getByTestId('link-match-receipt').click();
    await expectPath(page, /^\/payment-processing\/receipts\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId('text-receipt-amount').textContent()).toBe('$75.00');
    expect(await page.getByTestId('badge-payment-status').getAttribute('data-status')).toBe('posted');

    await openTab(page, 'suspense');
    await page.getByTestId('empty-suspense').getByText('No payments waiting in suspense').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
