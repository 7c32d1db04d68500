import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, PHONE, screenshot } from './support/browser';
import { owner } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * Investor codes and the investor portal in a real browser against the built app (issue 16): the
 * owner issues a code in /admin/investor-codes (shown once, in a dialog), then an investor signs
 * in with it on a phone, sees the figures of the latest close and downloads the PDF report.
 */
const suite = startBrowserSuite({ database: 'postgres' });

describe('investor portal', () => {
  it('issues a code, signs an investor in on a phone, shows the figures and downloads the report', async () => {
    const first = await suite.open();
    expect((await first.context.request.post('/api/register', { data: owner })).status()).toBe(201);
    await first.context.close();

    const { page, errors } = await suite.openAs(owner, undefined, '/');
    // A close of the business date, so there are figures to show (an empty book's zeros).
    const { csrfToken } = (await (await page.request.get('/api/csrf-token')).json()) as { csrfToken: string };
    const { businessDate } = (await (await page.request.get('/api/business-date')).json()) as {
      businessDate: string;
    };
    const closed = await page.request.post('/api/eod/run', {
      data: { businessDate },
      headers: { 'x-csrf-token': csrfToken },
    });
    expect(closed.status(), await closed.text()).toBe(200);

    await page.goto('/admin/investor-codes');
    await page.getByTestId('text-investor-codes-empty').waitFor();
    await page.getByTestId('input-investor-code-label').fill('Acme Capital');
    await page.getByTestId('button-issue-code').click();
    await page.getByTestId('dialog-investor-code').waitFor();
    const code = await page.getByTestId('text-investor-code').inputValue();
    expect(code.replaceAll('-', '').length).toBeGreaterThanOrEqual(20);
    await screenshot(page, 'investor-codes-issued');
    await page.getByTestId('button-investor-code-done').click();
    await page.getByTestId('dialog-investor-code').waitFor({ state: 'hidden' });
    const row = page.locator('[data-testid^="row-investor-code-"]');
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain(`…${code.slice(-4)}`);
    expect(await row.textContent()).toContain('Active');
    // The code itself is never shown again.
    expect(await page.content()).not.toContain(code);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);

    const investor = await suite.open(PHONE);
    const phone = investor.page;
    await phone.goto('/investor');
    await phone.getByTestId('input-investor-code').fill(code.toLowerCase());
    await phone.getByTestId('button-investor-sign-in').click();
    await phone.getByTestId('card-investor-disbursed').waitFor();
    expect(await phone.getByTestId('text-investor-scope').textContent()).toContain('Acme Capital');
    expect(await phone.getByTestId('text-investor-scope').textContent()).toContain(businessDate);
    for (const figure of ['outstanding', 'collected', 'par30', 'collection-rate'])
      expect(await phone.getByTestId(`value-investor-${figure}`).textContent()).toMatch(/\d/);
    // The charts load on their own, after the figures.
    await phone.getByTestId('chart-par-trend').waitFor();
    // Nothing overflows a 390 px screen sideways.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(phone, 'investor-portal-phone');
    expect(await accessibilityViolations(phone)).toEqual([]);

    const [download] = await Promise.all([
      phone.waitForEvent('download'),
      phone.getByTestId('link-report-pdf').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^investor-report-.*\.pdf$/);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');

    await phone.getByTestId('button-investor-sign-out').click();
    await phone.getByTestId('input-investor-code').waitFor();
    expect((await phone.request.get('/api/investor/summary')).status()).toBe(401);
    expect(investor.errors).toEqual([]);
  });
});
