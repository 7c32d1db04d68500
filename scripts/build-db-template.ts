// Dumps a migrated empty PGlite database into dist/, so the first `npm start` skips initdb.
import { BUILD_TEMPLATE, writeTemplate } from '../src/db/template';

const started = Date.now();
await writeTemplate(BUILD_TEMPLATE);
console.log(`built ${BUILD_TEMPLATE} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
