import { describe, expect, it } from 'vitest';
import { EOD_STEPS } from '../src/contracts/close-of-business';
import { accessibilityViolations } from './support/browser';
import { owner } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * Close of business in a real browser against the built app: the owner opens
 * /admin/close-of-business, runs a close for the business date after confirming it, and sees the
 * run with its eight steps; the dashboard then shows the portfolio cards from the date's snapshot.
 */
const suite = startBrowserSuite({ database: 'postgres' });

describe('close of business page', () => {
  it('runs a close for the business date and shows its steps', async () => {
    const first = await suite.open();
    expect((await first.context.request.post('/api/register', { data: owner })).status()).toBe(201);
    await first.context.close();

    const { page, errors } = await suite.openAs(owner, undefined, '/');
    await page.goto('/admin/close-of-business');
    // The input holds the business date once the runs are read (the daily job may have closed
    // yesterday already: a fresh server starts it).
    await page.waitForFunction(() =>
      /^\d{4}-\d{2}-\d{2}$/.test(
        (document.querySelector('[data-testid="input-eod-date"]') as HTMLInputElement | null)?.value ?? '',
      ),
    );
    const date = await page.getByTestId('input-eod-date').inputValue();

    await page.getByTestId('button-run-eod').click();
    await page.getByTestId('dialog-confirm').waitFor();
    await page.getByTestId('button-confirm').press('Enter');

    await page.getByTestId(`status-eod-${date}`).waitFor();
    expect(await page.getByTestId(`status-eod-${date}`).textContent()).toBe('completed');
    for (const step of EOD_STEPS) await page.getByTestId(`row-step-${date}-${step}`).waitFor();
    expect(await page.getByTestId(`row-step-${date}-reminders`).textContent()).toContain(
      'reminders before due',
    );
    expect(await accessibilityViolations(page)).toEqual([]);

    // The dashboard's cards now read the date's snapshot, each linking to the list behind it.
    await page.goto('/');
    await page.getByTestId('section-kpis').waitFor();
    expect(await page.getByTestId('value-kpi-par30').textContent()).toBe('0%');
    expect(await page.getByTestId('value-kpi-queue').textContent()).toBe('0');
    expect(await page.getByTestId('sparkline').count()).toBe(7);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('card-kpi-locked').click();
    // The units of live contracts, as the figure counts them (returned units stay locked in stock).
    await page.waitForURL(/\/devices\?lockState=locked&status=assigned/);
    expect(await page.getByTestId('select-filter-unit-status').inputValue()).toBe('assigned');
    expect(await page.getByTestId('select-filter-unit-lock').inputValue()).toBe('locked');
    expect(errors).toEqual([]);
  });
});
