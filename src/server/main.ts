import { existsSync } from 'node:fs';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { BUILD_TEMPLATE, readTemplate } from '../db/template';
import { buildApp } from './app';
import { sealLegacyAuditRows } from './audit-sealer';
import { loadConfig } from './config';
import { seedDemoPortfolio } from './demo/portfolio';
import { formatCredentials, seedDemoUsers } from './demo/users';
import { refreshArrearsJob } from './modules/contracts/delinquency';
import { loadAppSecret } from './secrets';

/**
 * Start order: listen first (so /api/health answers 503 at once), then migrate, seed demo data
 * when asked, and only then report ready.
 */
async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    template: readTemplate(BUILD_TEMPLATE),
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
  // Rows chained before the keyed hash (decision 016) are sealed before anything is written.
  await sealLegacyAuditRows(app.ctx.db);
  if (config.DEMO_DATA) {
    const credentials = await seedDemoUsers(app.ctx);
    if (credentials.length) process.stdout.write(`${formatCredentials(credentials)}\n`);
  }
  app.readiness.ready = true;
  // Background work starts once the app answers; the arrears figures and risk scores are refreshed
  // at every start (then kept current by their keys) as before.
  const jobs = app.jobs
    .start()
    .then(() => app.jobs.sendKeptCurrent('start'))
    .catch((error: unknown) => app.log.error({ err: error }, 'job queue failed to start'));
  if (config.DEMO_DATA) {
    // Built in the background so the app answers at once; a later start finds it there and skips.
    seedDemoPortfolio(app.ctx, { shouldStop: () => stopping, log: (message) => app.log.info(message) })
      .then(async (built) => {
        await jobs;
        if (built && app.jobs.running) await app.jobs.send(refreshArrearsJob, {}, 'demand');
      })
      .catch((error: unknown) => {
        if (!stopping) app.log.error({ err: error }, 'demo portfolio failed');
      });
  }
  const where = database.kind === 'pglite' ? `embedded database in ${config.DATA_DIR}` : 'PostgreSQL';
  app.log.info(
    `ready on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT} (${where})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
