import type { APIRequestContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { activeContract, api, joinStaff, registerOwner } from './support/book';
import { accessibilityViolations, screenshot } from './support/browser';
import { manager, type Person } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * Recoveries in a real browser against the built app: a collector asks for the repossession of a
 * contract's device from the contract page; a manager approves it on /collections and records the
 * recovery (checked field by field, then confirmed); the contract reads repossessed and the device
 * returned. The book is set up through the API, as origination has its own browser tests.
 */
const suite = startBrowserSuite({ database: 'postgres' });

const collector: Person = {
  firstName: 'Cynthia',
  lastName: 'Njeri',
  email: 'cynthia@example.com',
  password: 'collector passphrase 1',
};

let contractId = '';
let contractNumber = '';
let deviceId = '';

/** The owner, a manager and a collector, and an active contract. */
async function setUpBook(): Promise<void> {
  const { session, admin } = await registerOwner(suite);
  const contexts: APIRequestContext[] = [];
  let managerRequest: APIRequestContext | undefined;
  for (const [person, role] of [
    [manager, 'manager'],
    [collector, 'collector'],
  ] as const) {
    const context = await joinStaff(suite, admin, person, role);
    contexts.push(context.request);
    if (role === 'manager') managerRequest = context.request;
  }
  ({ contractId, contractNumber, deviceId } = await activeContract(
    admin,
    await api(managerRequest as APIRequestContext),
    { controlKind: 'none', serialNumber: 'TS20-0042' },
  ));
  await session.context.close();
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
