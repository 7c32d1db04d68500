import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { DEMO_BOOK_FILES } from './tests/support/demo-books';
import DemoBooksLastSequencer from './tests/support/sequencer';

const alias = { '@': path.resolve('src') };

/** The server through app.inject, on PGlite and on PostgreSQL when TEST_DATABASE_URL is set. */
const integration = {
  environment: 'node' as const,
  globalSetup: ['tests/support/global-setup.ts'],
  // Files share their worker's modules instead of importing the whole server again each (about
  // 1.5 s per file): every file starts its own app and database, and none mocks a module or
  // leaves a global changed.
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/**
 * Five projects, all run by `npm test`:
 * - unit: pure code (finance engine, helpers) in Node;
 * - web: React components in jsdom;
 * - integration: the server through app.inject on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set;
 * - integration-books: the integration files that load the demo book, after the others;
 * - e2e: the built app in Debian's Chromium through playwright-core.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    // Two files at once in every project (Vitest's default leaves one of the two cores idle): an
    // integration file waits on its database as much as it computes, so the integration suite
    // takes 4.9 min instead of 7.8 on this machine.
    maxWorkers: 2,
    // `VITEST_TIMINGS=file.json npm test` also writes every file's and test's duration there, to
    // see where the suite's time goes (decision 040).
    ...(process.env.VITEST_TIMINGS
      ? { reporters: ['default', ['json', { outputFile: process.env.VITEST_TIMINGS }]] as const }
      : {}),
    // The files that load a demo book last in their group: `npm test` builds the books meanwhile.
    sequence: { sequencer: DemoBooksLastSequencer },
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', environment: 'node', include: ['src/**/*.test.ts'], exclude: ['src/web/**'] },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/test/setup.ts'],
          // Files share their worker; the setup file gives each fresh app modules (decision 040).
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: [...DEMO_BOOK_FILES],
          ...integration,
        },
      },
      {
        resolve: { alias },
        test: {
          // The integration files that load the app's demo book, which `npm test` builds in the
          // background from its start (decision 047): in the browser files' group (below), last
          // there, by when it is built. Last among the integration files they still waited for it,
          // both workers idle for two to three minutes on a slow evening (decision 057).
          name: 'integration-books',
          include: [...DEMO_BOOK_FILES],
          ...integration,
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.ts'],
          // The PostgreSQL template the files on PostgreSQL copy their database from.
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page's data can take seconds on a loaded CI machine: expect.poll waits as a user would
          // (its one-second default failed a CI run), and still fails loudly on a wrong answer.
          expect: { poll: { timeout: 10_000 } },
          // Each file starts its own server on a fresh data directory and its own Chromium; after
          // the other projects, so browsers and servers do not compete with them.
          sequence: { groupOrder: 1 },
          // Files share their worker's modules (playwright-core, axe-core and the app's contracts
          // are imported once per worker, not per file): each file's state is its own server and
          // browser, started and stopped by its startBrowserSuite.
          isolate: false,
        },
      },
    ],
  },
});
