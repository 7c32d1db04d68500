/**
 * The test files that load the app's demo book (decision 047). `npm test` builds the book in the
 * background from its start (`scripts/build-suite-templates.ts`), and these files are a project of
 * their own (`integration-books` in `vitest.config.ts`) run with the browser files, last among them
 * (`sequencer.ts`), so no worker sits for minutes waiting on the build (decision 057).
 */
export const DEMO_BOOK_FILES: readonly string[] = [
  'tests/integration/demo-template.test.ts',
  'tests/integration/assistant.test.ts',
];
