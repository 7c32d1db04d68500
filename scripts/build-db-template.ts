// Dumps a migrated empty PGlite database (with the job queue installed) into dist/, so the first
// `npm start` skips initdb and pg-boss's DDL.
import { BUILD_TEMPLATE, writeTemplate } from '../src/db/template';
import { prepareJobQueue } from '../src/server/jobs/queue';
import { JOBS } from '../src/server/jobs/registry';

const started = Date.now();
await writeTemplate(BUILD_TEMPLATE, (database) => prepareJobQueue(database, JOBS));
console.log(`built ${BUILD_TEMPLATE} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
