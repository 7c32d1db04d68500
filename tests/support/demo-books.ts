import type { PortfolioSize } from '../../src/server/demo/portfolio';

/**
 * The demo books the suite loads (decision 047), each with the test file that loads it: both load
 * the app's own template (`size` undefined: its full size), so it is built once. `npm test` builds
 * them in the background from its start (`scripts/build-suite-templates.ts`), and those files run
 * last (`sequencer.ts`), so no worker sits for minutes waiting on a build.
 */
export const SUITE_DEMO_BOOKS: ReadonlyArray<{ file: string; size: PortfolioSize | undefined }> = [
  { file: 'tests/integration/demo-template.test.ts', size: undefined },
  { file: 'tests/integration/assistant.test.ts', size: undefined },
];
