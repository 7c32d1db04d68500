import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Signing in and out the way a person does, shared by every browser test: through the forms,
 * waiting for the page the app lands on and for the signed-in shell.
 */
export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** The owner each file registers first, and the agent and the manager they invite. */
export const owner: Person = {
  firstName: 'Grace',
  lastName: 'Owino',
  email: 'grace@example.com',
  password: 'owner passphrase 1',
};
export const agent: Person = {
  firstName: 'Joseph',
  lastName: 'Kamau',
  email: 'joseph@example.com',
  password: 'agent passphrase 1',
};
export const manager: Person = {
  firstName: 'Peter',
  lastName: 'Mwangi',
  email: 'peter@example.com',
  password: 'manager passphrase 1',
};

/** Waits until the address bar shows the path (or one matching the pattern), and says so. */
export async function expectPath(page: Page, path: string | RegExp): Promise<void> {
  const matches = (pathname: string) => (typeof path === 'string' ? pathname === path : path.test(pathname));
  await page.waitForURL((url) => matches(url.pathname));
  expect(matches(new URL(page.url()).pathname)).toBe(true);
}

/** The profile menu on desktop, the More menu on a phone: whichever this size shows. */
const SHELL = '[data-testid="button-profile-menu"]:visible, [data-testid="button-more-menu"]:visible';

/** Waits for the signed-in shell. */
export async function signedInShell(page: Page): Promise<void> {
  await page.locator(SHELL).first().waitFor();
}

/** Waits for the signed-in shell or the sign-in form, whichever the page shows, and says which. */
export async function signedInOrSignInPage(page: Page): Promise<'signed-in' | 'sign-in'> {
  await page.locator(`${SHELL}, [data-testid="input-password"]:visible`).first().waitFor();
  return (await page.locator(SHELL).count()) > 0 ? 'signed-in' : 'sign-in';
}

/** Signs in through /login and waits for the landing page (the dashboard unless a preference says otherwise). */
export async function signIn(
  page: Page,
  who: Pick<Person, 'email' | 'password'>,
  landing = '/',
): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('input-email').fill(who.email);
  await page.getByTestId('input-password').fill(who.password);
  await page.getByTestId('button-submit').click();
  await expectPath(page, landing);
  await signedInShell(page);
}

/** Registers through /register (the first user becomes the owner) and waits for the dashboard. */
export async function register(page: Page, who: Person): Promise<void> {
  await page.goto('/register');
  await page.getByTestId('input-first-name').fill(who.firstName);
  await page.getByTestId('input-last-name').fill(who.lastName);
  await page.getByTestId('input-email').fill(who.email);
  await page.getByTestId('input-password').fill(who.password);
  await page.getByTestId('input-confirm-password').fill(who.password);
  await page.getByTestId('button-submit').click();
  await expectPath(page, '/');
}
