// `npm test` runs this beside the checks and the tests, at low priority (decision 047): the demo
// books the suite loads, one after another. A book already built for this code is skipped; a test
// that needs a book still being built waits for its files.
import { ensureDemoTemplate } from '../src/server/demo/template';
import { SUITE_DEMO_BOOKS } from '../tests/support/demo-books';

// Each size once (several files may load one book).
const sizes = new Map(SUITE_DEMO_BOOKS.map(({ size }) => [JSON.stringify(size ?? null), size]));
for (const size of sizes.values()) await ensureDemoTemplate((message) => console.log(message), size);
