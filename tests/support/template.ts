import { templateKey } from '../../src/db/template';
import { JOBS } from '../../src/server/jobs/registry';
import { projectPath } from '../../src/server/paths';

/**
 * The test template is keyed by the migrations' content and the job queue it carries (pg-boss's
 * version, the registered jobs), so it is rebuilt exactly when they change.
 */
export function testTemplatePath(): string {
  return projectPath(`.tmp/pglite-template-${templateKey(JOBS.map((job) => job.name))}.tar.gz`);
}
