// `npm test` runs this beside the checks, at low priority (decision 047): the demo books the suite
// loads, built one after another while the other steps leave a core idle. A book already built
// for this code is skipped; a test that needs a book still building waits for its files.
import { ensureDemoTemplate } from '../src/server/demo/template';
import { SUITE_DEMO_BOOKS } from '../tests/support/demo-books';

for (const size of SUITE_DEMO_BOOKS) await ensureDemoTemplate((message) => console.log(message), size);
