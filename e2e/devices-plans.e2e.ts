import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, PHONE, screenshot } from './support/browser';
import { expectPath, owner, register } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * The inventory and the service plans in a real browser against the built app: the device
 * catalogue (create, edit, deactivate), units (the IMEI check, OpenPAYGO settings), a CSV import
 * with a bad row, a status change in the history, an OpenPAYGO token, and a plan's whole life
 * (APR cap, draft, activation, a new version, retirement); axe scans and screenshots, desktop and phone.
 */
const SECRET_KEY = '0123456789abcdef0123456789abcdef';

const suite = startBrowserSuite();
/** The plan version the plan test ends on. */
let planPath = '/service-plans';

const toastText = (page: Page, text: string) => page.getByTestId('toast').getByText(text, { exact: true });

/** The id at the end of the current address (/devices/:id, /service-plans/:id). */
const idInPath = (page: Page) => new URL(page.url()).pathname.split('/').at(-1) ?? '';

async function expectNoViolations(page: Page) {
  expect(await accessibilityViolations(page)).toEqual([]);
}

describe('devices and service plans in Chromium', () => {
  it('registers the owner and sets an APR cap of 60%', async () => {
    const { context, page, errors } = await suite.open();
    await register(page, owner);
    const status = await page.evaluate(async () => {
      const { csrfToken } = await (await fetch('/api/csrf-token')).json();
      const current = await (await fetch('/api/settings/organisation')).json();
      const { updatedAt: _updatedAt, ...body } = current;
      const response = await fetch('/api/settings/organisation', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        body: JSON.stringify({ ...body, aprCap: 60 }),
      });
      return response.status;
    });
    expect(status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('builds the catalogue: create, edit with per-field errors, deactivate with confirmation', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto('/devices?tab=models');
    await page.getByTestId('empty-models').waitFor();

    const createModel = async (fields: {
      make: string;
      model: string;
      category: string;
      sku: string;
      price: string;
      control: string;
    }) => {
      await page.getByTestId('button-new-model').click();
      const dialog = page.getByTestId('dialog-model');
      await dialog.getByTestId('input-model-make').fill(fields.make);
      await dialog.getByTestId('input-model-model').fill(fields.model);
      await dialog.getByTestId('select-model-category').selectOption(fields.category);
      await dialog.getByTestId('input-model-sku').fill(fields.sku);
      await dialog.getByTestId('input-model-retail-price').fill(fields.price);
      await dialog.getByTestId('select-model-control').selectOption(fields.control);
      await dialog.getByTestId('button-save-model').click();
      await toastText(page, 'Model created').waitFor();
      await expect.poll(() => dialog.count()).toBe(0);
    };

    // Empty fields are named before anything is sent.
    await page.getByTestId('button-new-model').click();
    await page.getByTestId('button-save-model').click();
    await page.getByText('Make is required').waitFor();
    await page.getByText('Retail price is required').waitFor();
    await expectNoViolations(page);
    await screenshot(page, 'devices-model-form-errors');
    await page.getByTestId('button-cancel-model').click();

    await createModel({
      make: 'Tecno',
      model: 'Spark 20',
      category: 'smartphone',
      sku: 'TEC-SP20',
      price: '150.00',
      control: 'lock_api',
    });
    await createModel({
      make: 'SunKing',
      model: 'Home 120',
      category: 'solar_home_system',
      sku: 'SK-H120',
      price: '80',
      control: 'openpaygo',
    });
    await createModel({
      make: 'Nokia',
      model: '105',
      category: 'smartphone',
      sku: 'NOK-105',
      price: '20',
      control: 'none',
    });

    // A duplicate SKU is refused by the server, under its field.
    await page.getByTestId('button-new-model').click();
    const dialog = page.getByTestId('dialog-model');
    await dialog.getByTestId('input-model-make').fill('Tecno');
    await dialog.getByTestId('input-model-model').fill('Spark 30');
    await dialog.getByTestId('select-model-category').selectOption('smartphone');
    await dialog.getByTestId('input-model-sku').fill('TEC-SP20');
    await dialog.getByTestId('input-model-retail-price').fill('180');
    await dialog.getByTestId('select-model-control').selectOption('lock_api');
    await dialog.getByTestId('button-save-model').click();
    expect(await dialog.getByTestId('error-model-sku').textContent()).toBe(
      'SKU TEC-SP20 already belongs to Tecno Spark 20',
    );
    await dialog.getByTestId('button-cancel-model').click();

    // Edit a price.
    const tecno = page.locator('[data-testid^="row-models-"]', { hasText: 'Tecno Spark 20' });
    await tecno.locator('[data-testid^="button-edit-model-"]').click();
    await dialog.getByTestId('input-model-retail-price').fill('160');
    await dialog.getByTestId('button-save-model').click();
    await toastText(page, 'Model saved').waitFor();
    await expect.poll(() => tecno.textContent()).toContain('$160.00');

    // Deactivate, with a confirmation.
    const nokia = page.locator('[data-testid^="row-models-"]', { hasText: 'Nokia 105' });
    await nokia.locator('[data-testid^="button-toggle-model-"]').click();
    await page
      .getByTestId('dialog-confirm')
      .getByText('No new units of this model can be received')
      .waitFor();
    await expectNoViolations(page);
    await page.getByTestId('button-confirm').click();
    await toastText(page, 'Model deactivated').waitFor();
    await expect.poll(() => nokia.textContent()).toContain('Inactive');

    // Filters live in the address bar, next to the tab.
    await page.getByTestId('select-filter-model-active').selectOption('false');
    await expect.poll(() => new URL(page.url()).search).toBe('?tab=models&active=false');
    await expect.poll(() => page.locator('[data-testid^="row-models-"]').count()).toBe(1);
    await page.getByTestId('button-clear-models').click();
    await expect.poll(() => page.locator('[data-testid^="row-models-"]').count()).toBe(3);
    expect(new URL(page.url()).search).toBe('?tab=models');
    await expectNoViolations(page);
    await screenshot(page, 'devices-models');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('adds units (IMEI check, OpenPAYGO key) and imports a CSV file with a bad row', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto('/devices');
    await page.getByTestId('empty-units').waitFor();

    await page.getByTestId('button-add-unit').click();
    const dialog = page.getByTestId('dialog-add-unit');
    const modelSelect = dialog.getByTestId('select-unit-model');
    // The deactivated model is not offered.
    expect(await modelSelect.locator('option', { hasText: 'Nokia 105' }).count()).toBe(0);
    await modelSelect.selectOption({ label: 'Tecno Spark 20 · Smartphone · TEC-SP20' });
    await dialog.getByTestId('input-unit-serial').fill('SN-0001');
    await dialog.getByTestId('input-unit-imei').fill('490154203237517');
    await dialog.getByTestId('button-save-unit').click();
    expect(await dialog.getByTestId('error-unit-imei').textContent()).toBe('IMEI check digit is wrong');
    await expectNoViolations(page);
    await screenshot(page, 'devices-add-unit-imei');
    await dialog.getByTestId('input-unit-imei').fill('490154203237518');
    await dialog.getByTestId('button-save-unit').click();
    await expectPath(page, /^\/devices\/[0-9a-f-]{36}$/);
    expect(await page.getByTestId('text-serial').textContent()).toBe('SN-0001');
    expect(await page.getByTestId('text-imei').textContent()).toBe('490154203237518');

    // The same IMEI again: the server says which unit has it.
    await page.goto('/devices');
    await page.getByTestId('button-add-unit').click();
    await modelSelect.selectOption({ label: 'Tecno Spark 20 · Smartphone · TEC-SP20' });
    await dialog.getByTestId('input-unit-serial').fill('SN-0009');
    await dialog.getByTestId('input-unit-imei').fill('490154203237518');
    await dialog.getByTestId('button-save-unit').click();
    await expect
      .poll(() => dialog.getByTestId('error-unit-imei').textContent())
      .toContain('IMEI 490154203237518 already belongs to Tecno Spark 20 unit SN-0001');

    // An OpenPAYGO unit needs its key, which is write-only.
    await modelSelect.selectOption({ label: 'SunKing Home 120 · Solar home system · SK-H120' });
    await dialog.getByTestId('input-unit-serial').fill('SK-0001');
    await dialog.getByTestId('input-unit-imei').fill('');
    const key = dialog.getByTestId('input-unit-secret-key');
    expect(await key.getAttribute('type')).toBe('password');
    await dialog.getByTestId('button-save-unit').click();
    expect(await dialog.getByTestId('error-unit-secret-key').textContent()).toBe(
      'OpenPAYGO units need their secret key',
    );
    await key.fill(SECRET_KEY);
    await dialog.getByTestId('button-save-unit').click();
    await expectPath(page, /^\/devices\/[0-9a-f-]{36}$/);
    await page.getByTestId('card-openpaygo').waitFor();
    expect(await page.content()).not.toContain(SECRET_KEY);

    // Import: a bad row is shown with its row number; nothing is imported until the file is right.
    await page.goto('/devices');
    await page.getByTestId('button-import-units').click();
    const importer = page.getByTestId('dialog-import-units');
    const file = (rows: string[]) => ({
      name: 'units.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['serial_number,model_sku,imei', ...rows].join('\n')),
    });
    await importer
      .getByTestId('input-import-file')
      .setInputFiles(file(['SN-0002,TEC-SP20,356938035643809', 'SN-0003,TEC-SP20,123']));
    const errorRow = importer.getByTestId('row-import-error-3');
    await errorRow.waitFor();
    expect(await errorRow.textContent()).toContain('imei');
    expect(await errorRow.textContent()).toContain('IMEI must be 15 digits');
    expect(await importer.getByTestId('text-import-summary').textContent()).toContain(
      '2 rows in the file, 1 ready to import, 1 problem to fix',
    );
    expect(await importer.getByTestId('button-import-run').isDisabled()).toBe(true);
    await expectNoViolations(page);
    await screenshot(page, 'devices-import-errors');
    await importer
      .getByTestId('input-import-file')
      .setInputFiles(file(['SN-0002,TEC-SP20,356938035643809', 'SN-0003,TEC-SP20,']));
    await importer.getByRole('button', { name: 'Import 2 units' }).click();
    expect(await importer.getByTestId('text-import-imported').textContent()).toBe(
      '2 units imported into stock.',
    );
    await importer.getByTestId('button-import-close').click();

    // The list: 4 units, searched and filtered on the server.
    await expect.poll(() => page.getByTestId('text-range-units').textContent()).toBe('1–4 of 4');
    await page.getByTestId('input-search-units').fill('SN-0003');
    await expect.poll(() => page.locator('[data-testid^="row-units-"]').count()).toBe(1);
    await page.getByTestId('button-clear-units').click();
    await page.getByTestId('select-filter-unit-category').selectOption('solar_home_system');
    await expect.poll(() => page.locator('[data-testid^="row-units-"]').count()).toBe(1);
    expect(new URL(page.url()).search).toBe('?category=solar_home_system');
    await page.getByTestId('button-clear-units').click();
    await page.getByTestId('sort-units-serial').click();
    await expect
      .poll(() => page.locator('[data-testid^="row-units-"]').first().textContent())
      .toContain('SK-0001');
    expect(await page.getByTestId('link-export-units').getAttribute('href')).toContain('format=csv');
    await expectNoViolations(page);
    await screenshot(page, 'devices-units');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('changes a unit’s status with a reason and shows it in the history', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto('/devices?q=SN-0001');
    await page.locator('[data-testid^="row-units-"] a', { hasText: 'SN-0001' }).click();
    await expectPath(page, /^\/devices\/[0-9a-f-]{36}$/);
    const select = page.getByTestId('select-status-target');
    await select.waitFor();
    const options = await select.locator('option').allTextContents();
    expect(options).toEqual(['Choose…', 'Reserved', 'Lost', 'Written off']);
    await page.getByTestId('button-change-status').click();
    await page.getByText('Choose the new status').waitFor();
    await select.selectOption('reserved');
    await page.getByTestId('input-status-reason').fill('Held for a walk-in customer');
    await page.getByTestId('button-change-status').click();
    await toastText(page, 'Status changed').waitFor();
    await expect.poll(() => page.getByTestId('badge-device-status').textContent()).toBe('Reserved');
    const history = page.getByTestId('table-status-history');
    await expect.poll(() => history.locator('tbody tr').count()).toBe(2);
    expect(await history.locator('tbody tr').first().textContent()).toContain('Held for a walk-in customer');
    expect(await history.locator('tbody tr').first().textContent()).toContain(
      `${owner.firstName} ${owner.lastName}`,
    );
    expect(await page.getByTestId('text-device-contract').textContent()).toContain('none');
    await expectNoViolations(page);
    await screenshot(page, 'device-detail-status');

    // A bad address is a clear not-found page.
    await page.goto('/devices/00000000-0000-4000-8000-000000000000');
    await page.getByTestId('card-not-found').waitFor();
    await page.goto('/devices/not-an-id');
    await page.getByTestId('card-not-found').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('issues OpenPAYGO tokens and lists them', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto('/devices?q=SK-0001');
    await page.locator('[data-testid^="row-units-"] a', { hasText: 'SK-0001' }).click();
    await page.getByTestId('card-openpaygo').waitFor();
    await page.getByTestId('text-tokens-empty').waitFor();
    await page.getByTestId('button-issue-token').click();
    await page.getByText('Add time needs the number of days').waitFor();
    await page.getByTestId('input-token-days').fill('30');
    await page.getByTestId('button-issue-token').click();
    const token = page.getByTestId('text-issued-token');
    await token.waitFor();
    const digits = (await token.getAttribute('data-token')) ?? '';
    expect(digits).toMatch(/^\d{9}$/);
    const rows = page.locator('[data-testid^="row-token-"]');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Add time');
    expect(await rows.first().textContent()).toContain(`${owner.firstName} ${owner.lastName}`);
    expect((await rows.first().textContent())?.replaceAll(' ', '')).toContain(digits);

    await page.getByTestId('select-token-type').selectOption('SET_TIME');
    await page.getByTestId('input-token-days').fill('7');
    await page.getByTestId('button-issue-token').click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.getByTestId('text-token-count').textContent()).not.toBe('0');
    expect(await page.content()).not.toContain(SECRET_KEY);
    await expectNoViolations(page);
    await screenshot(page, 'device-detail-openpaygo');

    const phone = await suite.openAs(owner, PHONE);
    await phone.page.goto(new URL(page.url()).pathname);
    await phone.page.getByTestId('card-openpaygo').waitFor();
    await phone.page.locator('[data-testid^="row-token-"]').first().waitFor();
    await expectNoViolations(phone.page);
    await screenshot(phone.page, 'device-detail-phone');
    await phone.page.goto('/devices');
    await phone.page.locator('[data-testid^="row-units-"]').first().waitFor();
    await screenshot(phone.page, 'devices-units-phone');
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates a plan (the APR cap refused, with its message) and activates it', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto('/service-plans');
    await page.getByTestId('empty-plans').waitFor();
    await page.getByTestId('button-new-plan').click();
    await expectPath(page, '/service-plans/new');
    await page.getByTestId('input-plan-code').fill('phone-12m');
    await page.getByTestId('input-plan-name').fill('Phone, 12 months');
    await page.getByTestId('input-plan-terms').fill('6, 12');
    await page.getByTestId('input-plan-apr').fill('80');
    await page.getByTestId('input-plan-deposit-percent').fill('10');
    await page.getByTestId('input-plan-service-fee').fill('1.50');
    await page.getByTestId('select-plan-late-fee-kind').selectOption('flat');
    await page.getByTestId('input-plan-late-fee-value').fill('2');
    await page.getByTestId('input-plan-lock-after').fill('7');
    await page.getByTestId('input-plan-default-after').fill('3');
    await page.getByLabel('Smartphone', { exact: true }).check();
    await page.getByTestId('button-save-plan').click();
    expect(await page.getByTestId('error-plan-apr').textContent()).toBe(
      "APR 80% is above the organisation's cap of 60%",
    );
    expect(await page.getByTestId('error-plan-default-after').textContent()).toBe(
      'Default after days must not be before lock after days',
    );
    await expectNoViolations(page);
    await screenshot(page, 'plan-form-errors');
    await page.getByTestId('input-plan-apr').fill('36');
    await page.getByTestId('input-plan-default-after').fill('90');
    await expect.poll(() => page.getByTestId('text-preview-payment').textContent()).toMatch(/^\$\d+\.\d\d$/);
    await page.getByTestId('button-save-plan').click();
    await toastText(page, 'Draft plan created').waitFor();
    await expectPath(page, /^\/service-plans\/[0-9a-f-]{36}$/);
    expect(await page.getByTestId('badge-plan-status').textContent()).toBe('Draft');
    expect(await page.getByTestId('text-plan-code').textContent()).toBe('PHONE-12M');

    await page.getByTestId('button-activate-plan').click();
    await page.getByTestId('button-confirm').click();
    await toastText(page, 'Plan activated').waitFor();
    await expect.poll(() => page.getByTestId('badge-plan-status').textContent()).toBe('Active');
    await expectNoViolations(page);
    await screenshot(page, 'plan-detail-active');
    planPath = new URL(page.url()).pathname;
    expect(errors).toEqual([]);
    await context.close();
  });

  it('edits the active plan into version 2, activates it, then retires it', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto(planPath);
    const v1 = idInPath(page);
    // Editing the active version makes version 2, a draft.
    await page.getByTestId('button-edit-plan').click();
    expect(await page.getByTestId('text-new-version-note').textContent()).toContain(
      'Saving creates version 2 as a draft',
    );
    await page.getByTestId('input-plan-apr').fill('30');
    await page.getByTestId('button-save-plan').click();
    await toastText(page, 'Version 2 saved as a draft').waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/service-plans/') && !url.pathname.endsWith(v1));
    await expect.poll(() => page.getByTestId('text-plan-version').textContent()).toBe('version 2');
    expect(await page.getByTestId('badge-plan-status').textContent()).toBe('Draft');
    expect(await page.getByTestId('text-plan-apr').textContent()).toBe('30%');
    const versions = page.getByTestId('table-plan-versions');
    expect(await versions.getByTestId('row-version-1').textContent()).toContain('Active');
    expect(await versions.getByTestId('row-version-2').textContent()).toContain('Draft');
    expect(await page.getByTestId('text-plan-status-note').textContent()).toContain(
      'Activating it retires version 1',
    );
    await expectNoViolations(page);
    await screenshot(page, 'plan-detail-version-2');

    // The list shows the newest version of each plan; every version on request.
    await page.goto('/service-plans');
    await expect.poll(() => page.locator('[data-testid^="row-plans-"]').count()).toBe(1);
    await page.getByTestId('select-filter-plan-versions').selectOption('true');
    await expect.poll(() => page.locator('[data-testid^="row-plans-"]').count()).toBe(2);
    await page.getByTestId('select-filter-plan-status').selectOption('active');
    await expect.poll(() => page.locator('[data-testid^="row-plans-"]').count()).toBe(1);
    await expectNoViolations(page);
    await screenshot(page, 'plans-list');
    await page.locator('[data-testid^="row-plans-"] a').first().click();
    await expectPath(page, `/service-plans/${v1}`);

    // Version 1 links to the draft; activating version 2 retires version 1.
    await page.getByTestId('link-version-2').click();
    await page.getByTestId('button-activate-plan').click();
    expect(await page.getByTestId('dialog-confirm').textContent()).toContain(
      'Version 1, active now, will be retired',
    );
    await page.getByTestId('button-confirm').click();
    await toastText(page, 'Plan activated').waitFor();
    await expect.poll(() => versions.getByTestId('row-version-1').textContent()).toContain('Retired');

    await page.getByTestId('button-retire-plan').click();
    await page.getByTestId('button-confirm').click();
    await toastText(page, 'Plan retired').waitFor();
    await expect.poll(() => page.getByTestId('badge-plan-status').textContent()).toBe('Retired');
    expect(await page.getByTestId('button-activate-plan').count()).toBe(0);
    planPath = new URL(page.url()).pathname;
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits the plan pages on a phone', async () => {
    const { context, page, errors } = await suite.openAs(owner, PHONE);
    await page.goto(planPath);
    await page.getByTestId('card-plan-terms').waitFor();
    await expectNoViolations(page);
    await screenshot(page, 'plan-detail-phone');
    await page.goto('/service-plans');
    await page.locator('[data-testid^="row-plans-"]').first().waitFor();
    await screenshot(page, 'plans-list-phone');
    await page.goto('/service-plans/new');
    await page.getByTestId('form-plan').waitFor();
    await expectNoViolations(page);
    await screenshot(page, 'plan-form-phone');
    expect(errors).toEqual([]);
    await context.close();
  });
});
