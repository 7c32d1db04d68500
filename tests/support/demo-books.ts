/**
 * The test files that load the app's demo book (decision 047). `npm test` builds the book in the
 * background from its start (`scripts/build-suite-templates.ts`), and these files run last
 * (`sequencer.ts`), so no worker sits for minutes waiting on the build.
 */
export const DEMO_BOOK_FILES: readonly string[] = [
  'tests/integration/demo-template.test.ts',
  'tests/integration/assistant.test.ts',
];
