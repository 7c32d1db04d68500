import { describe, expect, it } from 'vitest';
import { accessibilityViolations, DESKTOP, PHONE, screenshot } from './support/browser';
import { startBrowserSuite } from './support/suite';

/**
 * The three public pages of issue 16 (customer portal, investor portal, financing demo) as a
 * stranger meets them, signed out, on a phone and on a desktop: they load without errors, fit the
 * screen, and have no serious or critical axe violations; the landing page links to each.
 */
const suite = startBrowserSuite();

const PAGES = [
  { path: '/customer', name: 'customer-portal' },
  { path: '/investor', name: 'investor-portal' },
  { path: '/demo', name: 'demo' },
] as const;

describe('public pages', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    const size = viewport === PHONE ? 'phone' : 'desktop';
    for (const { path, name } of PAGES) {
      it(`${path} on a ${size}: loads, fits, and has no serious accessibility violations`, async () => {
        const { context, page, errors } = await suite.open(viewport);
        await page.goto(path, { waitUntil: 'networkidle' });
        await page.locator('main h1').first().waitFor();
        expect(await page.getByTestId('text-area-status').count(), 'still a placeholder').toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        expect(await accessibilityViolations(page)).toEqual([]);
        await screenshot(page, `public-${name}-${size}`);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }

  it('links the landing page to the calculator, the demo and both portals', async () => {
    const { context, page, errors } = await suite.open(PHONE);
    for (const { path } of [...PAGES, { path: '/calculator' }]) {
      await page.goto('/', { waitUntil: 'networkidle' });
      await page.locator(`main a[href="${path}"]`).first().click();
      await page.waitForURL((url) => url.pathname === path);
      await page.locator('main h1').first().waitFor();
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves nothing for a visitor who asks for reduced motion, and animates for one who does not', async () => {
    const transition = async (reducedMotion: 'reduce' | 'no-preference') => {
      const context = await suite.browser.newContext({ baseURL: suite.url, reducedMotion });
      const page = await context.newPage();
      await page.goto('/', { waitUntil: 'networkidle' });
      const link = page.locator('main a[href="/calculator"]').first();
      const seconds = await link.evaluate((element) =>
        Math.max(
          ...getComputedStyle(element)
            .transitionDuration.split(',')
            .map((d) => Number.parseFloat(d)),
        ),
      );
      await context.close();
      return seconds;
    };
    expect(await transition('reduce')).toBeLessThan(0.001);
    expect(await transition('no-preference')).toBeGreaterThan(0.05);
  });
});
