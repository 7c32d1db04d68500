import { templateKey } from '../../src/db/template';
import { JOBS } from '../../src/server/jobs/registry';
import { projectPath } from '../../src/server/paths';

/**
 * The test template is keyed by the migrations' content and the job queue it carries (pg-boss's
 * version, the registered jobs), so it is rebuilt exactly when they change.
 */
export function testTemplatePath(): string {
  return projectPath(`.tmp/pglite-template-${testTemplateKey()}.tar.gz`);
}

/** The PostgreSQL database every migrated test database is copied from, under the same key. */
export function postgresTemplateName(): string {
  return `t_template_${testTemplateKey()}`;
}

let key: string | undefined;
function testTemplateKey(): string {
  key ??= templateKey(JOBS.map((job) => job.name));
  return key;
}
