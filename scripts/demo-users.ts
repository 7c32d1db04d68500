// `npm run demo:users`: prints the demo users again with new passwords (they are stored hashed,
// so the old ones cannot be shown). See resetDemoPasswords in src/server/demo/users.ts.
import { existsSync } from 'node:fs';
import { openDatabase } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { BUILD_TEMPLATE, readTemplate } from '../src/db/template';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { loadDemoBook } from '../src/server/demo/load';
import { ensureDemoTemplate } from '../src/server/demo/template';
import { formatCredentials, resetDemoPasswords } from '../src/server/demo/users';
import { loadAppSecret } from '../src/server/secrets';

if (existsSync('.env')) process.loadEnvFile('.env');
const config = loadConfig();

// The embedded database takes one process at a time: a second one writing beside a running app
// could corrupt it. PostgreSQL has no such limit.
if (!config.DATABASE_URL) {
  const running = await fetch(`http://localhost:${config.PORT}/api/health`, {
    signal: AbortSignal.timeout(1000),
  }).then(
    () => true,
    () => false,
  );
  if (running) {
    console.error(
      `The app is running on port ${config.PORT} with the embedded database: stop it first, then run this again.`,
    );
    process.exit(1);
  }
}

const database = await openDatabase({
  url: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: 1,
  template: readTemplate(BUILD_TEMPLATE),
});
try {
  await migrate(database);
  const app = await buildApp({
    config,
    database,
    appSecret: loadAppSecret(config.APP_SECRET, config.DATA_DIR),
    logger: false,
  });
  // An empty database gets the demo book as at a first start, then its users' passwords.
  if (config.DEMO_DATA)
    await loadDemoBook(app.ctx, () => ensureDemoTemplate((message) => console.log(message)));
  const credentials = await resetDemoPasswords(app.ctx, { seedEmpty: config.DEMO_DATA });
  await app.close();
  if (credentials.length) console.log(formatCredentials(credentials));
  else console.log('This database has no demo users (<role>@demo.example.com); nothing was changed.');
} finally {
  await database.close();
}
