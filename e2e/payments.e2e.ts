import type { APIRequestContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { activeContract, api, joinStaff, registerOwner } from './support/book';
import { accessibilityViolations, DESKTOP, PHONE, screenshot } from './support/browser';
import { agent, expectPath, manager, type Person } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * Money in, in a real browser against the built app: an agent posts a cash payment from the
 * contract page through the allocation preview and lands on its receipt; a finance user asks for
 * its reversal, is told (and refused) that a second person must approve, and another finance user
 * approves it in their own browser, after which the receipt reads REVERSED. The book is set up
 * through the API, as origination has its own browser tests.
 */
const suite = startBrowserSuite({ database: 'postgres' });

const financeA: Person = {
  firstName: 'Fiona',
  lastName: 'Achieng',
  email: 'fiona@example.com',
  password: 'finance passphrase 1',
};
const financeB: Person = {
  firstName: 'Brian',
  lastName: 'Otieno',
  email: 'brian@example.com',
  password: 'finance passphrase 2',
};

let contractId = '';
let contractNumber = '';
let receiptPath = '';

/** The owner, the invited staff, and an active contract (customer, OpenPAYGO phone, plan). */
async function setUpBook(): Promise<void> {
  const { session, admin } = await registerOwner(suite);
  const clients: Record<string, APIRequestContext> = {};
  for (const [person, role] of [
    [manager, 'manager'],
    [agent, 'agent'],
    [financeA, 'finance'],
    [financeB, 'finance'],
  ] as const) {
    const context = await joinStaff(suite, admin, person, role);
    clients[role === 'finance' ? person.email : role] = context.request;
  }
  ({ contractId, contractNumber } = await activeContract(
    admin,
    await api(clients.manager as APIRequestContext),
    { controlKind: 'openpaygo', serialNumber: 'TS20-0001' },
  ));
  await session.context.close();
  for (const client of Object.values(clients)) await client.dispose();
}

async function tab(page: Page, name: string) {
  await page.getByTestId(`tab-${name}`).click();
}

describe('payment processing in Chromium', () => {
  it('posts a cash payment from the contract page through the preview and shows its receipt', async () => {
    await setUpBook();
    const { page, errors, context } = await suite.openAs(agent);
    await page.goto(`/contracts/${contractId}`);
    await page.getByTestId('link-record-payment').click();
    await expectPath(page, '/payment-processing');
    await page.getByTestId('card-payment-contract').getByText(contractNumber).waitFor();
    expect(await page.getByTestId('select-payment-method').locator('option').allTextContents()).toEqual([
      'Cash',
    ]);
    await page.getByTestId('input-payment-amount').fill('400');
    await page.getByTestId('table-preview').waitFor();
    await page.getByTestId('text-preview-paid-through').waitFor();
    await screenshot(page, 'payments-post');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('button-post-payment').click();
    await expectPath(page, /^\/payment-processing\/receipts\/[0-9a-f-]{36}$/);
    receiptPath = new URL(page.url()).pathname;
    await expect.poll(() => page.getByTestId('text-receipt-amount').textContent()).toBe('$400.00');
    expect(await page.getByTestId('text-receipt-number').textContent()).toMatch(/^R-/);
    await page.getByTestId('card-payment-token').waitFor();
    expect(await page.getByTestId('table-receipt-allocation').locator('tbody tr').count()).toBeGreaterThan(1);
    // An agent does not correct payments.
    expect(await page.getByTestId('button-reverse-payment').count()).toBe(0);
    await screenshot(page, 'payments-receipt');
    expect(await accessibilityViolations(page)).toEqual([]);
    const pdf = await context.request.get(
      (await page.getByTestId('link-receipt-pdf').getAttribute('href')) ?? '',
    );
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // The payment is on the list and on the contract page, with the statement.
    await page.goto('/payment-processing');
    await tab(page, 'payments');
    await page.getByTestId('table-payments').getByText('$400.00').waitFor();
    await screenshot(page, 'payments-list');
    // On a phone the row keeps its amount and status in view, who paid under the receipt.
    await page.setViewportSize(PHONE);
    const amount = page.getByTestId('table-payments').getByText('$400.00');
    await expect.poll(async () => (await amount.boundingBox())?.width ?? 0).toBeGreaterThan(0);
    const box = await amount.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    const paid = page.getByTestId('table-payments').locator('tbody tr').filter({ hasText: '$400.00' });
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, without what the phone hides
    const row = await paid.innerText();
    expect(row).toMatch(/Posted/);
    expect(row).toMatch(new RegExp(contractNumber));
    await screenshot(page, 'payments-list-phone');
    await page.setViewportSize(DESKTOP);
    await page.goto(`/contracts/${contractId}`);
    await page.getByTestId('card-contract-payments').getByText('$400.00').waitFor();
    expect(await page.getByTestId('link-statement').getAttribute('href')).toBe(
      `/api/contracts/${contractId}/statement.pdf`,
    );
    await screenshot(page, 'payments-contract');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reverses with maker-checker: one finance user asks, is refused as approver, another approves', async () => {
    const maker = await suite.openAs(financeA);
    await maker.page.goto(receiptPath);
    await maker.page.getByTestId('button-reverse-payment').click();
    await maker.page.getByTestId('input-reverse-reason').fill('Counterfeit notes found at banking');
    await maker.page.getByTestId('button-confirm-reverse').click();
    await maker.page.getByTestId('card-correction-requested').waitFor();

    await maker.page.goto('/payment-processing?tab=reversals');
    const row = maker.page.locator('[data-testid^="row-correction-"]').first();
    await row.getByText('You asked for this').waitFor();
    await screenshot(maker.page, 'payments-reversals');
    expect(await accessibilityViolations(maker.page)).toEqual([]);
    await row.locator('[data-testid^="button-approve-"]').click();
    await maker.page.getByTestId('button-confirm-approve').click();
    await maker.page.getByTestId('dialog-approve').getByRole('alert').waitFor();
    expect(await maker.page.getByTestId('dialog-approve').getByRole('alert').textContent()).toMatch(
      /another|second|own/i,
    );
    await maker.page.getByTestId('dialog-approve').getByRole('button', { name: 'Cancel' }).click();

    const checker = await suite.openAs(financeB);
    await checker.page.goto('/payment-processing?tab=reversals');
    const pending = checker.page.locator('[data-testid^="row-correction-"]').first();
    await pending.getByText('Counterfeit notes found at banking').waitFor();
    expect(await pending.getByText('You asked for this').count()).toBe(0);
    await pending.locator('[data-testid^="button-approve-"]').click();
    await checker.page.getByTestId('input-decision-note').fill('Bank confirmed');
    await checker.page.getByTestId('button-confirm-approve').click();
    await checker.page.getByTestId('empty-corrections').waitFor();
    await checker.page.getByTestId('switch-show-decided').click();
    await checker.page
      .locator('[data-testid^="badge-correction-"][data-status="approved"]')
      .first()
      .waitFor();

    await checker.page.goto(receiptPath);
    await expect
      .poll(() => checker.page.getByTestId('badge-payment-status').getAttribute('data-status'))
      .toBe('reversed');
    await checker.page.getByTestId('card-reversed').waitFor();
    // The receipt keeps the correction: who asked and why, who approved, with the note.
    const entry = checker.page.locator('[data-testid^="entry-correction-"]').first();
    expect(await entry.getAttribute('data-status')).toBe('approved');
    await entry.getByText('Counterfeit notes found at banking').waitFor();
    await entry.getByText('Asked by Fiona Achieng', { exact: false }).waitFor();
    await entry.getByText('Approved by Brian Otieno', { exact: false }).waitFor();
    await entry.getByText('Bank confirmed', { exact: false }).waitFor();
    await screenshot(checker.page, 'payments-receipt-reversed');
    expect(await accessibilityViolations(checker.page)).toEqual([]);
    expect(maker.errors).toEqual([]);
    expect(checker.errors).toEqual([]);
    await maker.context.close();
    await checker.context.close();
  });

  it('requests an M-Pesa payment from the contract page and sees the simulator pay it', async () => {
    const { page, errors, context } = await suite.openAs(agent);
    await page.goto(`/contracts/${contractId}`);
    await page.getByTestId('button-request-mpesa').click();
    const dialog = page.getByTestId('dialog-mpesa-push');
    expect(await dialog.getByTestId('input-push-phone').inputValue()).toBe('+254712345678');
    const due = await dialog.getByTestId('input-push-amount').inputValue();
    expect(Number(due)).toBeGreaterThan(0);
    // Each field is checked before anything is sent.
    await dialog.getByTestId('input-push-phone').fill('');
    await dialog.getByTestId('input-push-amount').fill('12.50');
    await dialog.getByTestId('button-push-review').click();
    await dialog.getByText('Enter the phone number to ask').waitFor();
    await dialog.getByText('M-Pesa takes whole amounts: leave out the cents').waitFor();
    await screenshot(page, 'payments-mpesa-form');
    // The organisation is in the US: a Kenyan number without its country code is the server's refusal.
    await dialog.getByTestId('input-push-phone').fill('0712 345 678');
    await dialog.getByTestId('input-push-amount').fill('150');
    await dialog.getByTestId('button-push-review').click();
    await dialog.getByTestId('button-push-send').click();
    await dialog.getByText(/Enter a valid phone number: a US number/).waitFor();
    await dialog.getByTestId('input-push-phone').fill('+254 712 345 678');
    await dialog.getByTestId('button-push-review').click();
    expect(await dialog.getByTestId('text-push-confirm').textContent()).toBe(
      `Ask +254 712 345 678 to pay $150.00 on ${contractNumber}?`,
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByTestId('button-push-send').click();
    // The simulator answers after its delay; the dialog follows the push from pending to paid.
    await expect
      .poll(() => dialog.getByTestId('status-push').getAttribute('data-state'), { timeout: 15_000 })
      .toBe('paid');
    await screenshot(page, 'payments-mpesa-paid');
    await dialog.getByTestId('link-push-receipt').click();
    await expectPath(page, /^\/payment-processing\/receipts\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId('text-receipt-amount').textContent()).toBe('$150.00');
    await page.getByTestId('card-receipt').getByText('Mobile money (M-Pesa)').waitFor();
    await page.getByTestId('empty-receipt-corrections').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
