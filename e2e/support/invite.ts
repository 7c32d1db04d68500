import type { Page } from 'playwright-core';

import { expectPath, type Person } from './session';
import type { BrowserSuite } from './suite';

/**
 * Invites a person the way an admin does and has them join the way they would: the admin's page
 * creates the invite on /admin/users (?tab=invites opens that tab, as the palette's "New invite"
 * and a tutorial do), and a fresh browser context opens the link, fills in the person and lands
 * signed in on the dashboard. The visitor's context is closed again.
 */
export async function inviteThroughBrowser(
  suite: BrowserSuite,
  admin: Page,
  who: Person,
  role: string,
): Promise<void> {
  await admin.goto('/admin/users?tab=invites');
  await admin.getByTestId('input-invite-email').fill(who.email);
  await admin.getByTestId('select-invite-role').click();
  await admin.getByRole('option', { name: role }).click();
  await admin.getByTestId('button-create-invite').click();
  const inviteUrl = new URL(await admin.getByTestId('text-invite-url').inputValue());

  const visitor = await suite.open();
  await visitor.page.goto(inviteUrl.pathname + inviteUrl.search);
  await visitor.page.getByTestId('text-invite-role').waitFor();
  await visitor.page.getByTestId('input-first-name').fill(who.firstName);
  await visitor.page.getByTestId('input-last-name').fill(who.lastName);
  await visitor.page.getByTestId('input-password').fill(who.password);
  await visitor.page.getByTestId('input-confirm-password').fill(who.password);
  await visitor.page.getByTestId('button-submit').click();
  await expectPath(visitor.page, '/');
  await visitor.context.close();
}
