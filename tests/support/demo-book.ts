import { openDatabase } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { readTemplate } from '../../src/db/template';
import { loadDemoBook } from '../../src/server/demo/load';
import { type DemoTemplate, ensureDemoTemplate } from '../../src/server/demo/template';
import { startTestApp, type TestApp } from './app';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases';

/**
 * The app's demo template (decision 025): built once per change of its code, by `npm test`'s
 * background build or the first file that needs it, and kept (dist/) for the next run and starts.
 */
export function demoTemplate(): Promise<DemoTemplate> {
  return ensureDemoTemplate(() => {});
}

/**
 * A fresh database holding the demo book, as a start makes it: on PGlite opened from the
 * template's dump, on PostgreSQL a new migrated database the template's rows are copied into
 * when the app loads the book.
 */
export async function demoBookDatabase(kind: DatabaseKind, template: DemoTemplate): Promise<TestDatabase> {
  if (kind === 'postgres') return createTestDatabase(kind);
  const database = await openDatabase({ dataDir: 'memory://', template: readTemplate(template.dump) });
  await migrate(database);
  return { database, url: undefined, drop: () => database.close() };
}

/**
 * A test app on the demo book, loaded as a start loads it (dates brought to
 * today, re-keyed), instead of living its year of closes in each test: built once, loaded into
 * each database kind.
 */
export async function startDemoBookApp(kind: DatabaseKind): Promise<TestApp> {
  const template = await demoTemplate();
  const db = await demoBookDatabase(kind, template);
  const t = await startTestApp(kind, { shared: db });
  if (!(await loadDemoBook(t.app.ctx, async () => template))) throw new Error('the demo book did not load');
  return {
    ...t,
    close: async () => {
      await t.close();
      await db.drop();
    },
  };
}
