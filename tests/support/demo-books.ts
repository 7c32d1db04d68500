import type { PortfolioSize } from '../../src/server/demo/portfolio';

/**
 * The demo books the suite loads (decision 047): the app's own template, and the assistant's
 * 30-contract book. `npm test` builds them in the background from its start
 * (`scripts/build-suite-templates.ts`), and the files that load them run last (`sequencer.ts`), so
 * no worker sits for minutes waiting on a build.
 */
export const ASSISTANT_BOOK: PortfolioSize = { customers: 30, devices: 40, contracts: 30 };

/** The books, the app's first (`undefined`: its full size). */
export const SUITE_DEMO_BOOKS: ReadonlyArray<PortfolioSize | undefined> = [undefined, ASSISTANT_BOOK];

/** The test files that load one of them. */
export const DEMO_BOOK_FILES = [
  'tests/integration/demo-template.test.ts',
  'tests/integration/assistant.test.ts',
];
