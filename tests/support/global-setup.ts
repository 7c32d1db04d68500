import { existsSync } from 'node:fs';
import { writeTemplate } from '../../src/db/template';
import { prepareJobQueue } from '../../src/server/jobs/queue';
import { JOBS } from '../../src/server/jobs/registry';
import { testTemplatePath } from './template';

/** Once per test run: a migrated PGlite dump that every test database starts from (saves initdb per file). */
export default async function setup(): Promise<void> {
  const file = testTemplatePath();
  if (!existsSync(file)) await writeTemplate(file, (database) => prepareJobQueue(database, JOBS));
}
