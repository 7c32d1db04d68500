import type { APIRequestContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays } from '../src/domain';
import { type Api, activeContract, api, joinStaff, registerOwner } from './support/book';
import { accessibilityViolations, screenshot } from './support/browser';
import { manager, type Person } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * A collections case worked end to end in a real browser against the built app: a contract falls
 * into arrears (the business date moved past its first due date, the days between closed), a
 * manager assigns the case to a collector from the queue, the collector logs a call with its
 * outcome and a promise to pay for the next business day, and after the close of that day the
 * page shows the promise broken. Two more days unpaid pass the plan's lock-after days: the close
 * locks the phone (a lock-API unit, through the default simulator). The collector then records the
 * arrears from the contract page; the receipt shows the unlock the payment sent, acknowledged, and
 * the phone is unlocked. The book is set up through the API.
 */
const suite = startBrowserSuite({ env: { BUSINESS_DATE_CONTROL: 'true' }, database: 'postgres' });

const collector: Person = {
  firstName: 'Cathy',
  lastName: 'Mwende',
  email: 'cathy@example.com',
  password: 'collector passphrase 1',
};

let contractId = '';
let contractNumber = '';
let admin: Api;

/** The owner, a manager and a collector, and an active monthly contract in arrears. */
async function setUpBook(): Promise<void> {
  ({ admin } = await registerOwner(suite));
  const clients: Record<string, APIRequestContext> = {};
  for (const [person, role] of [
    [manager, 'manager'],
    [collector, 'collector'],
  ] as const) {
    const context = await joinStaff(suite, admin, person, role);
    clients[role] = context.request;
  }
  ({ contractId, contractNumber } = await activeContract(
    admin,
    await api(clients.manager as APIRequestContext),
    {
      customer: { firstName: 'Juma', lastName: 'Kariuki', phone: '+254722000111', region: 'Central' },
      controlKind: 'lock_api',
      serialNumber: 'TS20-0042',
      plan: { lockAfterDays: 7 },
    },
  ));
  // Five days past the first due date: the days between are closed, the case scored.
  const active = await admin.get(`/api/contracts/${contractId}`);
  await admin.put('/api/business-date', { businessDate: addDays(active.firstDueDate, 5) });
  for (const client of Object.values(clients)) await client.dispose();
}

describe('collections in Chromium', () => {
  it('works a case: assignment, a call, a promise broken at the next close, the lock, a payment, the unlock', async () => {
    await setUpBook();

    // The manager finds the case in the queue, reads why it ranks there, and assigns it.
    const desk = await suite.openAs(manager);
    await desk.page.goto('/collections');
    const row = desk.page.getByTestId(`row-case-${contractId}`);
    await row.waitFor();
    expect(await row.textContent()).toContain(contractNumber);
    await desk.page.getByTestId(`score-${contractId}`).locator('summary').click();
    expect(await desk.page.getByTestId(`score-${contractId}`).textContent()).toContain('for 5 days past due');
    await desk.page.getByTestId(`button-assign-${contractId}`).click();
    await desk.page.getByTestId('dialog-assign').waitFor();
    await desk.page.getByTestId('button-submit-assign').click();
    await desk.page.getByText('Choose a collector').waitFor();
    const choice = desk.page.getByTestId('select-assign-collector');
    await expect.poll(() => choice.locator('option').count()).toBeGreaterThan(2);
    const value = await choice.locator('option', { hasText: 'Cathy Mwende' }).getAttribute('value');
    await choice.selectOption(value ?? '');
    await desk.page.getByTestId('button-submit-assign').click();
    await desk.page.getByTestId('dialog-assign').waitFor({ state: 'detached' });
    await expect.poll(() => row.textContent()).toContain('Cathy Mwende');
    expect(await accessibilityViolations(desk.page)).toEqual([]);
    expect(desk.errors).toEqual([]);
    await desk.context.close();

    // The collector works it from their own queue, with the keyboard where a person would.
    const { page, errors, context } = await suite.openAs(collector);
    await page.goto('/collections?tab=mine');
    const mine = page.getByTestId(`row-case-${contractId}`);
    await mine.waitFor();
    await page.getByTestId(`button-log-action-${contractId}`).click();
    await page.getByTestId('dialog-log-action').waitFor();
    await page.getByTestId('button-submit-action').click();
    await page.getByText('Choose the outcome').waitFor();
    await page.getByTestId('select-action-outcome').selectOption('no_answer');
    await page.getByTestId('input-action-note').fill('Phone rang out twice');
    await page.getByTestId('input-action-note').press('Tab');
    await page.getByTestId('button-submit-action').click();
    await page.getByTestId('dialog-log-action').waitFor({ state: 'detached' });

    await page.getByTestId(`button-log-action-${contractId}`).click();
    await page.getByTestId('select-action-kind').selectOption('promise');
    await page.getByTestId('input-promise-amount').fill('abc');
    await page.getByTestId('button-submit-action').click();
    await page.getByText(/The amount must be an amount such as/).waitFor();
    await page.getByTestId('input-promise-amount').fill('50');
    const promised = await page.getByTestId('input-promise-date').inputValue();
    await screenshot(page, 'collections-promise');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('input-promise-amount').press('Enter');
    await page.getByTestId('dialog-log-action').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId(`badge-promise-${contractId}`).textContent()).toBe('Pending');

    // The next business day passes without a payment: its close breaks the promise.
    await admin.put('/api/business-date', { businessDate: addDays(promised, 1) });
    await page.getByTestId('tab-promises').click();
    await page.reload();
    const promises = page.getByTestId('table-promises');
    await promises.waitFor();
    await expect.poll(() => promises.textContent()).toContain('Broken');

    // The contract page shows the case's actions and the broken promise.
    await page.goto(`/contracts/${contractId}`);
    const card = page.getByTestId('card-contract-collections');
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain('Broken');
    expect(await card.textContent()).toContain('Phone rang out twice');
    // The button waits for the action options' query, which may land after the case's card.
    await expect.poll(() => page.getByTestId('button-contract-log-action').count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);

    // Two more days unpaid: DPD passes the plan's seven lock-after days, the close queues a lock
    // and the delivery, woken at once, has the simulator lock the phone.
    await admin.put('/api/business-date', { businessDate: addDays(promised, 3) });
    const lockState = page.getByTestId('text-contract-lock-state');
    await expect
      .poll(
        async () => {
          await page.reload();
          return lockState.textContent();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe('locked');

    // The collector takes the arrears in cash from the contract page: the payment clears them,
    // and the receipt shows the unlock it sent, acknowledged by the device.
    const contract = await admin.get(`/api/contracts/${contractId}`);
    const arrears = (contract.schedule as { dueDate: string; total: number; paid: number }[])
      .filter((row) => row.dueDate < contract.asOf)
      .reduce((sum, row) => sum + row.total - row.paid, 0);
    expect(arrears).toBeGreaterThan(0);
    await page.getByTestId('link-record-payment').click();
    await page.getByTestId('card-payment-contract').getByText(contractNumber).waitFor();
    await page.getByTestId('input-payment-amount').fill((arrears / 100).toFixed(2));
    await page.getByTestId('table-preview').waitFor();
    await page.getByTestId('button-post-payment').click();
    await page.getByTestId('card-payment-command').waitFor();
    expect(await page.getByTestId('card-payment-command').textContent()).toContain('Device unlock');
    await expect
      .poll(() => page.getByTestId('badge-payment-command').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('acknowledged');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('link-command-device').click();
    await page.getByTestId('card-device-commands').waitFor();
    expect(await page.getByTestId('text-lock-state').textContent()).toBe('Unlocked');
    expect(errors).toEqual([]);
    await context.close();
  }, 150_000);
});
