import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

import { type RunningServer, startServer } from '../../tests/support/server-process';
import { assertBuilt, DESKTOP, launchBrowser, newContext, type StorageState } from './browser';
import { type FileDatabase, fileDatabase, type ServerDatabase } from './database';
import { type Person, signedInOrSignInPage, signIn } from './session';

/** One browser context and its first page, with the page errors it has seen. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/** The running app and browser of one test file, and the ways its tests open a page on it. */
export interface BrowserSuite {
  /** The Chromium every context of this file lives in (for a bare context a test builds itself). */
  readonly browser: Browser;
  /** The built server's address. */
  readonly url: string;
  /** A fresh context at this size (desktop unless told), signed out. */
  open(viewport?: typeof DESKTOP): Promise<BrowserSession>;
  /**
   * A fresh context signed in as this person, landed on `landing`. The file's first one signs in
   * through the form; later ones carry on that session, as a person's returning browser does (a
   * sign-in costs two page loads and a password hash: 2 s a test). A session that has ended (signed
   * out, password changed) is signed in again through the form.
   */
  openAs(
    who: Pick<Person, 'email' | 'password'>,
    viewport?: typeof DESKTOP,
    landing?: string,
  ): Promise<BrowserSession>;
}

/** How a browser file's server runs. */
export interface BrowserSuiteOptions {
  /** Added to the server's environment (a webhook token, business-date control). */
  env?: Record<string, string>;
  /** Where its data lives (`e2e/support/database.ts`): the embedded database unless told. */
  database?: ServerDatabase;
}

/**
 * Every browser test file's set-up, declared once: before its tests the built server starts on a
 * fresh database (no demo data, so the first person to register becomes the owner) and Chromium
 * launches; after them both stop. Call it at the top of the file; the tests share one app, in
 * order, as a person using it would.
 */
export function startBrowserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let database: FileDatabase | undefined;

  beforeAll(async () => {
    assertBuilt();
    // Side by side: Chromium launches while the server opens its database. Each is kept as soon
    // as it is up, so afterAll stops it even when the other failed.
    const [started, launched] = await Promise.allSettled([
      fileDatabase(options.database ?? 'embedded')
        .then((made) => {
          database = made;
          return startServer({ DEMO_DATA: 'false', ...options.env, ...made.env });
        })
        .then((running) => {
          server = running;
        }),
      launchBrowser().then((running) => {
        browser = running;
      }),
    ]);
    for (const result of [started, launched]) if (result.status === 'rejected') throw result.reason;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
  });

  const running = () => {
    if (!server || !browser) throw new Error('The browser suite is used before its beforeAll has run.');
    return { server, browser };
  };

  const open = (viewport = DESKTOP, state?: StorageState) =>
    newContext(running().browser, running().server.url, viewport, state);
  const sessions = new Map<string, StorageState>();

  return {
    get browser() {
      return running().browser;
    },
    get url() {
      return running().server.url;
    },
    open,
    async openAs(who, viewport = DESKTOP, landing = '/') {
      const saved = sessions.get(who.email);
      const session = await open(viewport, saved);
      if (saved) {
        await session.page.goto(landing);
        if ((await signedInOrSignInPage(session.page)) === 'signed-in') return session;
      }
      await signIn(session.page, who, landing);
      sessions.set(who.email, await session.context.storageState());
      return session;
    },
  };
}
