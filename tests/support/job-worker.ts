// A second app instance in a process of its own, for the crash test: it starts the test jobs'
// queue on DATABASE_URL, sends one job that hangs here (JOB_WORKER_HANGS=true), and waits to be killed.
import { openDatabase } from '../../src/db/client';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { JobQueue } from '../../src/server/jobs/queue';
import { hangsInWorkerJob } from './jobs';

const config = loadConfig({ ...process.env, NODE_ENV: 'test', DEMO_DATA: 'false', LOG_LEVEL: 'silent' });
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: 'unused', poolSize: 2 });
const app = await buildApp({
  config,
  database,
  appSecret: 'test-secret-that-is-at-least-32-characters-long',
  logger: false,
});
const queue = new JobQueue(app.ctx, [hangsInWorkerJob], { pollingSeconds: 0.5 });
await queue.start();
await queue.send(hangsInWorkerJob, {});
process.stdout.write('sent\n');
