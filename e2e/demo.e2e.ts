import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, PHONE, screenshot } from './support/browser';
import { owner, register } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * The public financing demo on a phone (390 x 844) against the built app: a visitor walks from a
 * device to the unlock code; then the owner renames a device in /admin/demo-editor, publishes it,
 * and a signed-out visitor sees the new name on /demo.
 */

const suite = startBrowserSuite();

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())?.trim();
const heading = (page: Page) => text(page, 'text-step-heading');
const next = (page: Page) => page.getByTestId('button-demo-next').click();

describe('financing demo in Chromium on a phone', () => {
  it('walks a visitor from choosing a device to the unlock code, and starts again', async () => {
    const { context, page, errors } = await suite.open(PHONE);
    await page.goto('/');
    await page.getByTestId('link-demo').click();
    await page.getByTestId('step-device').waitFor();
    expect(await heading(page)).toBe('Choose a device');
    expect(await accessibilityViolations(page)).toEqual([]);
    // Nothing is chosen yet: Next waits.
    expect(await page.getByTestId('button-demo-next').isDisabled()).toBe(true);

    await page.getByTestId('choice-device-solar-kit').click();
    await screenshot(page, 'demo-phone-1-device');
    await next(page);
    await page.getByTestId('step-plan').waitFor();
    // The keyboard works too: Space picks the focused plan, Enter moves on.
    await page.getByTestId('radio-choice-plan-weekly').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');

    await page.getByTestId('step-schedule').waitFor();
    await expect.poll(() => text(page, 'text-demo-instalment')).toMatch(/^\$\d/);
    expect(await text(page, 'text-demo-term')).toBe('52');
    expect(await text(page, 'text-demo-deposit')).toBe('$52.50');
    expect(await text(page, 'text-apr-disclosure')).toContain('APR 30%');
    // On a phone the schedule waits behind its summary.
    await page.getByTestId('button-demo-schedule').click();
    await page.getByTestId('card-schedule-1').waitFor();
    await screenshot(page, 'demo-phone-2-schedule');
    await next(page);

    await page.getByTestId('step-kyc').waitFor();
    expect(await text(page, 'text-simulation-note')).toContain('Simulation');
    await next(page);
    await page.getByTestId('error-demo-name').waitFor();
    expect(await page.getByTestId('error-demo-phone').isVisible()).toBe(true);
    await page.getByTestId('input-demo-name').fill('Amina Visitor');
    await page.getByTestId('input-demo-phone').fill('+254 712 345 678');
    await next(page);

    await page.getByTestId('step-payment').waitFor();
    expect(await text(page, 'text-demo-payment-amount')).toBe('$52.50');
    await page.getByTestId('button-demo-pay').click();
    await page.getByTestId('card-demo-receipt').waitFor();
    expect(await text(page, 'text-demo-receipt')).toMatch(/^DEMO-[0-9A-F]{8}$/);
    await screenshot(page, 'demo-phone-3-receipt');
    await next(page);

    await page.getByTestId('step-unlock').waitFor();
    const code = await text(page, 'text-demo-unlock-code');
    expect(code).toMatch(/^\d{3} \d{3} \d{3}$/);
    expect(await text(page, 'text-demo-sms')).toContain(code);
    expect(await text(page, 'text-demo-sms')).toContain('7 days');
    // The SMS shows where it would go without repeating the whole number.
    expect(await page.getByTestId('step-unlock').textContent()).toContain('•••• 678');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'demo-phone-4-unlock');
    // Nothing overflows the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // Back goes one step at a time; Start again clears everything.
    await page.getByTestId('button-demo-back').click();
    await page.getByTestId('step-payment').waitFor();
    await next(page);
    await page.getByTestId('button-demo-restart').click();
    await page.getByTestId('step-device').waitFor();
    expect(await page.getByTestId('button-demo-next').isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets the owner rename a device in the editor, publish it, and visitors see it live', async () => {
    const { context, page, errors } = await suite.open(PHONE);
    await register(page, owner);
    await page.goto('/admin/demo-editor');
    await page.getByTestId('input-device-0-name').waitFor();
    expect(await text(page, 'text-draft-status')).toContain('built-in demo');
    expect(await page.getByTestId('button-publish').isDisabled()).toBe(true);

    // A wrong field is named before anything is sent.
    await page.getByTestId('input-device-0-name').fill('');
    await page.getByTestId('button-save-draft').click();
    await page.getByTestId('error-device-0-name').waitFor();
    expect(await text(page, 'error-device-0-name')).toBe('Name is required');

    await page.getByTestId('input-device-0-name').fill('Kito Phone Z');
    expect(await page.getByTestId('badge-unsaved').isVisible()).toBe(true);
    await page.getByTestId('button-save-draft').click();
    await expect.poll(() => text(page, 'text-draft-status')).toContain('Saved');
    await page.getByTestId('badge-unsaved').waitFor({ state: 'detached' });
    await screenshot(page, 'demo-editor-phone-saved');

    // Not live until published.
    const visitor = await suite.open(PHONE);
    await visitor.page.goto('/demo');
    await visitor.page.getByTestId('step-device').waitFor();
    expect(await visitor.page.getByTestId('step-device').textContent()).not.toContain('Kito Phone Z');

    // The owner previews the draft.
    const preview = await context.newPage();
    await preview.goto('/demo?preview=draft');
    await preview.getByTestId('banner-demo-preview').waitFor();
    await expect.poll(() => text(preview, 'text-device-name-phone')).toBe('Kito Phone Z');
    await preview.close();

    await page.getByTestId('button-publish').click();
    await page.getByTestId('dialog-confirm').waitFor();
    await page.getByTestId('button-confirm').click();
    await page.getByTestId('dialog-confirm').waitFor({ state: 'detached' });
    await expect.poll(() => text(page, 'text-draft-status')).toContain('version 1, which is live');

    await page.getByTestId('tab-history').click();
    await expect.poll(() => text(page, 'status-version-1')).toBe('Live');
    await screenshot(page, 'demo-editor-phone-history');

    await visitor.page.reload();
    await expect.poll(() => text(visitor.page, 'text-device-name-phone')).toBe('Kito Phone Z');
    await screenshot(visitor.page, 'demo-phone-published');
    expect(errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
    await context.close();
  });
});
