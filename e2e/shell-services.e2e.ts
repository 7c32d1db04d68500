import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Tutorial } from '../src/contracts/help';
import { totp } from '../src/server/modules/auth/totp';
import { accessibilityViolations, DESKTOP, PHONE, screenshot } from './support/browser';
import { inviteThroughBrowser } from './support/invite';
import { agent, expectPath, owner, register, signedInShell, signIn } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * The shell services in a real browser against the built app: notifications from real events
 * (an invite used, a role changed), marking read and clearing; Ctrl+K search and the other
 * shortcuts; a tutorial taken to the end; every tutorial target present on its page; two-factor
 * enrolment and sign-in with a code and a recovery code; the audit trail; preferences (theme,
 * landing page) and organisation settings; axe scans of the new screens in both themes.
 */

const suite = startBrowserSuite();

async function signOut(page: Page) {
  await page.getByTestId('button-profile-menu').click();
  await page.getByTestId('button-logout').click();
  await expectPath(page, '/login');
}

/** The bell visible at this size (top bar on desktop, bottom bar on phones). */
const bell = (page: Page) =>
  page
    .locator(
      '[data-testid="button-notifications"]:visible, [data-testid="button-notifications-mobile"]:visible',
    )
    .first();
/** A toast's text (Radix also copies it into a live region for screen readers). */
const toastText = (page: Page, text: string) => page.getByTestId('toast').getByText(text, { exact: true });
const badge = (page: Page) =>
  page.locator(
    '[data-testid="badge-unread-count"]:visible, [data-testid="badge-unread-count-mobile"]:visible',
  );

describe('shell services in Chromium', () => {
  it('registers the owner, who is notified when an invite is used; the agent when their role changes', async () => {
    const { context, page, errors } = await suite.open();
    await register(page, owner);
    expect(await badge(page).count()).toBe(0);

    await inviteThroughBrowser(suite, page, agent, 'Agent');

    // The count is polled every 30 s; a new page load asks at once.
    await page.goto('/');
    await expect.poll(() => badge(page).textContent()).toBe('1');
    await bell(page).click();
    const panel = page.getByTestId('panel-notifications');
    const item = panel.locator('[data-testid^="button-notification-"]', {
      hasText: 'Joseph Kamau joined as Agent',
    });
    await item.waitFor();
    expect(await panel.textContent()).toContain('success');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'services-notifications-open');
    // Clicking marks it read, follows its link and closes the dropdown.
    await item.click();
    await expectPath(page, '/admin/users');
    await expect.poll(() => panel.count()).toBe(0);
    await expect.poll(() => badge(page).count()).toBe(0);

    // Two role changes: two notifications for the agent.
    for (const role of ['Collector', 'Finance']) {
      const row = page.locator('[data-testid^="row-user-"]', { hasText: agent.email });
      await row.locator('[data-testid^="select-role-"]').click();
      await page.getByRole('option', { name: role, exact: true }).click();
      await toastText(page, `${agent.firstName} ${agent.lastName} is now ${role}.`).waitFor();
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets the agent mark all as read and clear all, on a phone', async () => {
    const { context, page, errors } = await suite.openAs(agent, PHONE);
    await expect.poll(() => badge(page).textContent()).toBe('2');
    await bell(page).click();
    const panel = page.getByTestId('panel-notifications');
    await panel.getByTestId('list-notifications').waitFor();
    expect(await panel.locator('[data-read="false"]').count()).toBe(2);
    expect(await panel.getByText('Your role was changed to Finance').count()).toBe(1);
    const height = await panel
      .getByTestId('scroll-notifications')
      .evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBe(300);
    await screenshot(page, 'services-notifications-phone');
    await panel.getByTestId('button-mark-all-read').click();
    await expect.poll(() => panel.locator('[data-read="false"]').count()).toBe(0);
    await expect.poll(() => badge(page).count()).toBe(0);
    await panel.getByTestId('button-clear-all').click();
    await toastText(page, 'Notifications Cleared').waitFor();
    await toastText(page, 'All notifications have been cleared successfully.').waitFor();
    await panel.getByText('No notifications').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('searches with Ctrl+K, goes home with Ctrl+D and opens help with Ctrl+?', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto('/settings');
    await page.getByTestId('card-preferences').waitFor();
    await page.keyboard.press('Control+k');
    const search = page.getByTestId('input-command-search');
    await search.fill('audit');
    await page.getByRole('option', { name: /Audit trail/ }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await expectPath(page, '/admin/audit');
    expect(await page.getByTestId('dialog-command-palette').count()).toBe(0);

    await page.keyboard.press('Control+d');
    await expectPath(page, '/');
    await page.keyboard.press('Control+Shift+Slash');
    await page.getByTestId('dialog-help-centre').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('dialog-help-centre').count()).toBe(0);

    // The top-bar button opens the same search; actions run from it too.
    await page.getByTestId('button-command-palette').click();
    await search.fill('new invite');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/admin/users' && url.search === '?tab=invites');
    await page.getByTestId('input-invite-email').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('takes a tutorial to the end, after which its card shows 100%', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.getByTestId('button-settings-menu').click();
    await page.getByTestId('menu-settings').getByTestId('nav-help-tutorial').click();
    await expectPath(page, '/help-tutorial');
    const dialog = page.getByTestId('dialog-help-centre');
    await dialog.getByTestId('card-tutorial-search-and-shortcuts').waitFor();
    expect(await dialog.getByTestId('text-tutorial-progress-search-and-shortcuts').textContent()).toBe(
      'Not started',
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'services-help-centre');
    await dialog.getByTestId('tab-help-features').click();
    await dialog.getByTestId('section-whats-new').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByTestId('tab-help-quick').click();
    await dialog.getByTestId('section-shortcuts').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByTestId('tab-help-tutorials').click();
    await dialog.getByTestId('button-start-tutorial-search-and-shortcuts').click();

    const player = page.getByTestId('panel-tutorial-player');
    await player.waitFor();
    expect(await dialog.count()).toBe(0);
    const steps = ['Step 1 of 3', 'Step 2 of 3', 'Step 3 of 3'];
    for (const [index, label] of steps.entries()) {
      expect(await player.getByTestId('text-tutorial-step-count').textContent()).toBe(label);
      // Each step's element is highlighted on its page.
      await page.getByTestId('tutorial-highlight').waitFor();
      if (index === 1) await expectPath(page, '/help');
      if (index === 0) await screenshot(page, 'services-tutorial-player');
      await player.getByTestId('button-tutorial-next').click();
      if (index < steps.length - 1)
        await expect
          .poll(() => player.getByTestId('text-tutorial-step-count').textContent())
          .toBe(steps[index + 1]);
    }
    await toastText(page, 'Tutorial Completed! 🎉').waitFor();
    await toastText(page, 'You\'ve completed "Search and keyboard shortcuts". Great job!').waitFor();
    expect(await player.count()).toBe(0);
    expect(await page.evaluate(() => window.localStorage.getItem('hasSeenTutorial'))).toBe('true');

    await page.goto('/tutorials');
    await expect
      .poll(() => page.getByTestId('text-tutorial-progress-search-and-shortcuts').textContent())
      .toBe('100% complete');
    expect(await page.getByTestId('icon-tutorial-complete-search-and-shortcuts').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('finds every tutorial step’s target on its page', { timeout: 180_000 }, async () => {
    const { context, page, errors } = await suite.openAs(owner);
    const response = await page.request.get('/api/tutorials');
    expect(response.status()).toBe(200);
    const tutorials = (await response.json()) as Tutorial[];
    expect(tutorials.length).toBeGreaterThanOrEqual(10);
    // Each page once, then every target named on it.
    const byPath = new Map<string, string[]>();
    for (const tutorial of tutorials) {
      for (const step of tutorial.steps) {
        if (!step.target) continue;
        const path = step.path ?? '/';
        byPath.set(path, [...(byPath.get(path) ?? []), `${tutorial.id}/${step.id}|${step.target}`]);
      }
    }
    const missing: string[] = [];
    for (const [path, entries] of byPath) {
      await page.goto(path);
      await signedInShell(page);
      for (const entry of entries) {
        const [name, target] = entry.split('|') as [string, string];
        try {
          await page.locator(target).first().waitFor({ state: 'attached', timeout: 5_000 });
        } catch {
          missing.push(`${name}: ${target} on ${path}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('enrols two-factor sign-in, then signs in with a code and with a recovery code', async () => {
    const { context, page, errors } = await suite.openAs(agent);
    await page.goto('/profile');
    await page.getByTestId('button-2fa-setup').click();
    await page.getByTestId('img-2fa-qr').waitFor();
    const secret = (await page.getByTestId('text-2fa-secret').getAttribute('data-secret')) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await page.getByTestId('text-2fa-secret').textContent())?.replace(/\s/g, '')).toBe(secret);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('input-2fa-code').fill('000000');
    await page.getByTestId('button-2fa-enable').click();
    await page.getByTestId('error-two-factor-code').waitFor();
    await page.getByTestId('input-2fa-code').fill(totp(secret, new Date()));
    await page.getByTestId('button-2fa-enable').click();
    await page.getByTestId('list-recovery-codes').waitFor();
    const codes = (await page.getByTestId('list-recovery-codes').locator('li').allTextContents()).map((c) =>
      c.trim(),
    );
    expect(codes).toHaveLength(10);
    await screenshot(page, 'services-recovery-codes');
    await page.getByTestId('button-recovery-codes-done').click();
    expect(await page.getByTestId('badge-2fa-status').textContent()).toBe('On');
    await signOut(page);

    // The code used to enrol cannot be replayed: use the next time step (within the allowed drift).
    await page.getByTestId('input-email').fill(agent.email);
    await page.getByTestId('input-password').fill(agent.password);
    await page.getByTestId('button-submit').click();
    await page.getByTestId('input-totp').waitFor();
    await page.getByTestId('input-totp').fill(totp(secret, new Date(Date.now() + 30_000)));
    await page.getByTestId('button-submit').click();
    await expectPath(page, '/');
    await signedInShell(page);
    await signOut(page);

    await page.getByTestId('input-email').fill(agent.email);
    await page.getByTestId('input-password').fill(agent.password);
    await page.getByTestId('button-submit').click();
    await page.getByTestId('input-totp').fill(codes[0] ?? '');
    await page.getByTestId('button-submit').click();
    await expectPath(page, '/');
    await page.goto('/profile');
    await page.getByText('9 of 10 recovery codes left.').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists the audit trail, shows an entry’s changes and verifies the chain', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto('/admin/audit');
    await page.getByTestId('table-audit').waitFor();
    await page.getByTestId('input-audit-action').fill('user.update');
    await page.getByTestId('button-audit-apply').click();
    await expect.poll(() => page.locator('[data-testid^="row-audit-"]').count()).toBe(2);
    await page.locator('[data-testid^="button-audit-details-"]').first().click();
    const detail = page.getByTestId('dialog-audit-detail');
    await detail.getByTestId('table-audit-diff').waitFor();
    expect(await detail.locator('tr[data-changed="true"]').first().textContent()).toContain('role');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('button-verify-chain').click();
    await page.getByTestId('text-chain-ok').waitFor();
    expect(await page.getByTestId('text-last-hash').textContent()).toMatch(/[0-9a-f]{64}/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('tab-usage').click();
    await page.getByTestId('table-usage-sections').waitFor();
    expect(await page.getByTestId('table-usage-people').textContent()).toContain(owner.email);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('saves preferences and organisation settings; profile and settings pass axe in both themes', {
    timeout: 180_000,
  }, async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page, errors } = await suite.openAs(owner, viewport);
      const suffix = viewport === DESKTOP ? 'desktop' : 'phone';
      for (const theme of ['light', 'dark'] as const) {
        await page.goto('/settings');
        await page.getByTestId(`radio-theme-${theme}`).check();
        await expect
          .poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')))
          .toBe(theme === 'dark');
        await page.getByTestId('card-organisation').getByTestId('input-org-name').waitFor();
        expect(await accessibilityViolations(page), `/settings ${theme} ${suffix}`).toEqual([]);
        await screenshot(page, `services-settings-${theme}-${suffix}`);
        await page.goto('/profile');
        await page.getByTestId('list-sessions').waitFor();
        expect(await accessibilityViolations(page), `/profile ${theme} ${suffix}`).toEqual([]);
        await screenshot(page, `services-profile-${theme}-${suffix}`);
      }
      expect(errors).toEqual([]);
      await context.close();
    }

    const { context, page, errors } = await suite.openAs(owner);
    // The dark theme chosen above followed the owner to this new browser.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')))
      .toBe(true);
    await page.goto('/settings');
    await page.getByTestId('radio-theme-light').check();
    await page.getByTestId('select-landing-page').click();
    await page.getByRole('option', { name: 'Collections' }).click();
    await page.getByTestId('text-preferences-saved').waitFor();

    // Organisation: a field error from the shared schema, then a save.
    const name = page.getByTestId('input-org-name');
    await name.fill('');
    await name.blur();
    await page.getByTestId('error-org-name').waitFor();
    expect(await page.getByTestId('error-org-name').textContent()).toBe('Name is required');
    await name.fill('Jua Solar Credit');
    await page.getByTestId('input-org-bucket-0').fill('9');
    await page.getByTestId('input-org-bucket-0').blur();
    await page.getByText('Bucket bounds must increase').waitFor();
    await page.getByTestId('input-org-bucket-0').fill('1');
    await page.getByTestId('select-org-time-zone').click();
    await page.getByTestId('select-org-time-zone-search').fill('nairobi');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('select-org-time-zone').textContent()).toContain('Africa/Nairobi');
    await page.getByTestId('button-save-organisation').click();
    await toastText(page, 'Organisation settings saved').waitFor();
    await signOut(page);

    // The chosen landing page replaces the dashboard after signing in.
    await signIn(page, owner, '/collections');
    await page.goto('/settings');
    await page.getByTestId('select-landing-page').click();
    await page.getByRole('option', { name: 'Dashboard' }).click();
    await page.getByTestId('text-preferences-saved').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
