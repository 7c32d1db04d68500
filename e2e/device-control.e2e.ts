import type { APIRequestContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, PHONE, screenshot } from './support/browser';
import { owner } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * Device control in a real browser against the built app: the fleet by lock state, a bulk lock of
 * two lock-API phones after a confirmation that insists on a reason, and the command log showing
 * each command delivered by the simulator with its attempt.
 */
const suite = startBrowserSuite({ database: 'postgres' });

async function post(request: APIRequestContext, url: string, data: unknown) {
  const { csrfToken } = (await (await request.get('/api/csrf-token')).json()) as { csrfToken: string };
  const response = await request.post(url, { headers: { 'x-csrf-token': csrfToken }, data });
  if (response.status() !== 201)
    throw new Error(`POST ${url}: ${response.status()} ${await response.text()}`);
  return response.json();
}

describe('device control page', () => {
  it('shows the fleet, bulk locks two phones with a reason, and logs each attempt', async () => {
    const first = await suite.open();
    expect((await first.context.request.post('/api/register', { data: owner })).status()).toBe(201);
    await first.context.close();

    const { page, context, errors } = await suite.openAs(owner, undefined, '/');
    const model = await post(context.request, '/api/device-models', {
      make: 'Samsung',
      model: 'Galaxy A15 Knox',
      category: 'smartphone',
      retailPrice: 1_500_000,
      controlKind: 'lock_api',
    });
    const units = [
      await post(context.request, '/api/devices', { serialNumber: 'KNOX-E2E-1', modelId: model.id }),
      await post(context.request, '/api/devices', { serialNumber: 'KNOX-E2E-2', modelId: model.id }),
    ];

    await page.goto('/device-control');
    // The cards count the units with customers by lock state; the stock is counted under them.
    await page.getByTestId('count-lock_api-status-in_stock').waitFor();
    expect(await page.getByTestId('count-lock_api-unknown').textContent()).toContain('0');
    expect(await page.getByTestId('count-lock_api-status-in_stock').textContent()).toBe('In stock 2');
    await page.getByTestId('count-lock_api-status-in_stock').click();
    for (const unit of units) await page.getByTestId(`checkbox-unit-${unit.id}`).check();
    expect(await page.getByTestId('text-selected-count').textContent()).toBe('2 selected');

    await page.getByTestId('button-bulk-lock').click();
    await page.getByTestId('dialog-bulk').waitFor();
    expect(await page.getByTestId('text-bulk-units').textContent()).toBe('KNOX-E2E-1, KNOX-E2E-2');
    await page.getByTestId('button-confirm-bulk').click();
    await page.getByTestId('error-bulk-reason').waitFor();
    expect(await page.getByTestId('error-bulk-reason').textContent()).toBe('Give the reason');
    await page.getByTestId('input-bulk-reason').fill('Shop audit: phones not presented');
    await page.getByTestId('button-confirm-bulk').click();
    await page.getByTestId('dialog-bulk').waitFor({ state: 'detached' });

    // The delivery job is woken at once; the simulator acknowledges and the log shows it.
    await page.getByTestId('tab-log').click();
    await page
      .locator('[data-testid^="row-command-"][data-state="acknowledged"]')
      .nth(1)
      .waitFor({ timeout: 30_000 });
    const rows = page.locator('[data-testid^="row-command-"]');
    expect(await rows.count()).toBe(2);
    await rows.first().getByTestId('button-expand-command').click();
    await page.getByTestId('row-attempt-1').waitFor();
    expect(await page.getByTestId('row-attempt-1').getByTestId('text-attempt-outcome').textContent()).toBe(
      'Acknowledged',
    );
    expect(await page.getByTestId('row-attempt-1').textContent()).toContain('Simulator');

    // The units are locked, in the fleet and on the unit's own page. The log kept the fleet's
    // counts current while it followed the deliveries, so the tab shows them at once (the counts'
    // own ten-second refresh would miss this wait).
    await page.getByTestId('tab-fleet').click();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="count-lock_api-status-in_stock"]')?.textContent ===
        'In stock 2 (2 locked)',
      undefined,
      { timeout: 5_000 },
    );
    await page.goto(`/devices/${units[0].id}`);
    await page.getByTestId('card-device-commands').waitFor();
    expect(await page.getByTestId('text-lock-state').textContent()).toBe('Locked');
    expect(await page.getByTestId('table-device-commands').textContent()).toContain('Shop audit');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goto('/device-control?tab=log');
    await page.locator('[data-testid^="row-command-"]').first().waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    // On a phone each command keeps its state in view; its unit and kind go under its time.
    await page.setViewportSize(PHONE);
    const newest = page.locator('[data-testid^="row-command-"]').first();
    const state = await newest.getByTestId('badge-command-state').boundingBox();
    expect((state?.x ?? 0) + (state?.width ?? PHONE.width + 1)).toBeLessThanOrEqual(PHONE.width);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, without what the phone hides
    expect(await newest.locator('td').nth(1).innerText()).toMatch(/·/);
    await screenshot(page, 'device-control-log-phone');
    expect(errors).toEqual([]);
  });
});
