import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { JOBS } from '../../src/server/jobs/registry';
import { projectPath } from '../../src/server/paths';

/**
 * The test template is keyed by the migrations' content and the job queue it carries (pg-boss's
 * version, the registered jobs), so it is rebuilt exactly when they change.
 */
export function testTemplatePath(): string {
  const directory = projectPath('src/db/migrations');
  const hash = createHash('sha256');
  for (const name of readdirSync(directory)
    .filter((file) => file.endsWith('.sql'))
    .sort()) {
    hash.update(name).update(readFileSync(path.join(directory, name)));
  }
  const boss = JSON.parse(readFileSync(projectPath('node_modules/pg-boss/package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(boss.version).update(JOBS.map((job) => job.name).join(','));
  return projectPath(`.tmp/pglite-template-${hash.digest('hex').slice(0, 16)}.tar.gz`);
}
