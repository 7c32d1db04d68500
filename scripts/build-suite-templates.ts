// `npm test` runs this beside the checks and the tests, at low priority (decision 047): the demo
// book the suite's book files load (`tests/support/demo-books.ts`), the app's own. A book already
// built for this code is skipped; a test that needs it while it is being built waits for its files.
import { ensureDemoTemplate } from '../src/server/demo/template';

await ensureDemoTemplate((message) => console.log(message));
