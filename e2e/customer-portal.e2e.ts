import { describe, expect, it } from 'vitest';
import { type Api, activeContract, api, joinStaff, registerOwner } from './support/book';
import { accessibilityViolations, PHONE, screenshot } from './support/browser';
import { manager } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * The customer portal on a phone (390 × 844) against the built app: the customer signs in with
 * the code staff can read in the outbox, reads the schedule, pays now through the M-Pesa
 * simulator and sees the new unlock code the payment bought. The book is set up through the API.
 */
// The simulator answers after 2 s: the page's pending state ("Check your phone") is then sure to
// show before the payment lands, even on a loaded machine (at 200 ms a full run once missed it).
const suite = startBrowserSuite({ env: { MPESA_SIMULATOR_DELAY_MS: '2000' }, database: 'postgres' });
const CUSTOMER_PHONE = '+254712345678';

/** The owner (who reads the outbox), a manager who approves, and an active OpenPAYGO contract. */
async function setUpBook(): Promise<{ owner: Api; contractNumber: string }> {
  const { admin } = await registerOwner(suite);
  const managerContext = await joinStaff(suite, admin, manager, 'manager');
  const { contractNumber } = await activeContract(admin, await api(managerContext.request), {
    customer: { phone: CUSTOMER_PHONE, consents: { sms: true } },
    controlKind: 'openpaygo',
    serialNumber: 'TS20-0101',
  });
  await managerContext.close();
  return { owner: admin, contractNumber };
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
    // Opened again after a reload, the chat shows the conversation so far.
    await page.reload();
    await page.getByTestId('section-chat').locator('summary').click();
    await page.getByTestId('list-chat').getByText('What is my balance?').waitFor();
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
