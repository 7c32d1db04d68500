import { existsSync } from 'node:fs';
import { openDatabase, pgliteExists } from '../db/client';
import { migrate } from '../db/migrate';
import { BUILD_TEMPLATE, readTemplate } from '../db/template';
import { buildApp } from './app';
import { sealLegacyAuditRows } from './audit-sealer';
import { loadConfig } from './config';
import { loadDemoBook } from './demo/load';
import { ensureDemoTemplate } from './demo/template';
import { formatCredentials, resetDemoPasswords } from './demo/users';
import { loadAppSecret } from './secrets';

/**
 * Start order: listen first (so /api/health answers 503 at once), then migrate, load the demo
 * book when asked, and only then report ready.
 */
async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const say = (message: string) => console.log(message);
  // A new embedded database is made from a template (with DEMO_DATA the demo's: the book is there
  // at once). Only a new one reads it: unpacking it took a third of a second of every restart.
  const newEmbedded = !config.DATABASE_URL && !pgliteExists(config.DATA_DIR);
  const embeddedDemo = config.DEMO_DATA && newEmbedded;
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    template: newEmbedded
      ? readTemplate(embeddedDemo ? (await ensureDemoTemplate(say)).dump : BUILD_TEMPLATE)
      : undefined,
  });
  const app = await buildApp({
    config,
    database,
    appSecret: loadAppSecret(config.APP_SECRET, config.DATA_DIR),
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const applied = await migrate(database);
  if (applied.length) app.log.info({ applied }, 'migrations applied');
  // The demo book from its template (decision 025): whole before the app reports ready.
  const demoLoaded = config.DEMO_DATA && (await loadDemoBook(app.ctx, () => ensureDemoTemplate(say)));
  // Rows chained before the keyed hash (decision 016), and the demo book's, are sealed before
  // anything is written.
  await sealLegacyAuditRows(app.ctx.db);
  if (demoLoaded) {
    const credentials = await resetDemoPasswords(app.ctx, {
      seedEmpty: false,
      reason: 'demo book loaded: first passwords',
    });
    app.log.info('demo book loaded from its template');
    process.stdout.write(`${formatCredentials(credentials)}\n`);
  }
  app.readiness.ready = true;
  // Background work starts once the app answers; the arrears figures and risk scores are refreshed
  // at every start (then kept current by their keys) as before.
  if (config.JOBS)
    app.jobs
      .start()
      .then(() => app.jobs.sendKeptCurrent('start'))
      .catch((error: unknown) => app.log.error({ err: error }, 'job queue failed to start'));
  const where = database.kind === 'pglite' ? `embedded database in ${config.DATA_DIR}` : 'PostgreSQL';
  app.log.info(
    `ready on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT} (${where})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
