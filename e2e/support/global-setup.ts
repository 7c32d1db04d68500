import type { TestProject } from 'vitest/node';
import { ensurePostgresTemplate } from '../../tests/support/global-setup';
import { postgresTemplateName } from '../../tests/support/template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PostgreSQL database a browser file's own is copied from; '' without PostgreSQL. */
    postgresTemplate: string;
  }
}

/**
 * Once per run of the browser suite: when TEST_DATABASE_URL is set, the migrated PostgreSQL
 * template the integration files copy (built here if the run has none yet), so the files that run
 * their server on PostgreSQL start it on a copy (`e2e/support/database.ts`).
 */
export default async function setup({ provide }: TestProject): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) await ensurePostgresTemplate(adminUrl);
  provide('postgresTemplate', adminUrl ? postgresTemplateName() : '');
}
