import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

import { projectPath } from '../../src/server/paths';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** A context's cookies and local storage, as Playwright saves them (a signed-in session). */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export function assertBuilt(): void {
  if (!existsSync(projectPath('dist/server/main.js')) || !existsSync(projectPath('dist/web/index.html'))) {
    throw new Error('The browser suite runs against the build: run "npm run build" first (npm test does).');
  }
}

/**
 * Debian's Chromium (Playwright's own download does not work here): its headless shell when
 * installed (package chromium-headless-shell), as Playwright itself runs headless tests. It is the
 * same Blink without the full browser around it: the browser suite takes a fifth less CPU with it.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const CHROMIUM_EXECUTABLE =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A context that fails the test on any uncaught page error or console error it did not expect.
 * Its person asks for reduced motion, which the app honours (WCAG 2.3.3: dialogs, menus and toasts
 * come and go at once), so no action waits for an element to stop moving: the files take an
 * eighth less time. public-pages.e2e.ts checks both preferences in contexts of its own.
 */
export async function newContext(
  browser: Browser,
  baseURL: string,
  viewport = DESKTOP,
  storageState?: StorageState,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL,
    viewport,
    locale: 'en-US',
    storageState,
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return { context, page, errors };
}

/** The WCAG 2.1 A and AA rules. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

type AxeWindow = { axe?: typeof axe };

/**
 * Serious and critical axe violations on the current page (WCAG 2.1 A and AA rules), from
 * axe-core run in the page itself. axe is put in the page once per document (a client-side
 * navigation keeps it) and asked for violations only, returned already summarised. The
 * @axe-core/playwright runner injected its 500 KB source twice per scan and finished every scan in
 * a new blank page: the 17 scans of shell-services.e2e.ts took 28 s of its 118 s, and take 10 s
 * this way. The app has no frames, so the page's own document is all there is to check.
 *
 * A colour transition under way (the theme just switched, a selected card fading in) gives axe a
 * half-faded colour to measure, reported as a contrast failure that is gone a moment later (seen
 * on /settings in dark): the scan waits for the page's finite animations to end first. Spinners
 * run forever and are not waited for; a page still animating after 5 s is scanned as it is.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  if (!(await page.evaluate(() => Boolean((window as AxeWindow).axe)))) await page.evaluate(axe.source);
  return await page.evaluate(async (tags) => {
    const results = await ((window as AxeWindow).axe as typeof axe).run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(' | ')}`,
      );
  }, AXE_TAGS);
}

/**
 * A full-page picture of what the test sees, in test-results/e2e, when E2E_SCREENSHOTS is set
 * (`E2E_SCREENSHOTS=1 npm run test:e2e`): for a person reviewing the pages. Nothing reads them, and
 * the suite's ninety cost about 30 s of its worker time (0.3-0.4 s each), so `npm test` skips them.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  const directory = projectPath('test-results/e2e');
  mkdirSync(directory, { recursive: true });
  await page.screenshot({ path: path.join(directory, `${name}.png`), fullPage: true });
}
