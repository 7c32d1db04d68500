import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { jobRuns } from '../../src/db/schema';
import { SYSTEM_ACTOR } from '../../src/server/audit';
import { maintainDatabaseJob } from '../../src/server/jobs/maintain-database';
import { pruneJobRunsJob } from '../../src/server/jobs/prune';
import { JobQueue } from '../../src/server/jobs/queue';
import { closeOfBusinessJob } from '../../src/server/modules/close-of-business/job';
import { refreshArrearsJob } from '../../src/server/modules/contracts/delinquency';
import { organisation, updateOrganisation } from '../../src/server/organisation';
import { withTransaction } from '../../src/server/transaction';
import { startTestApp, type TestApp } from '../support/app';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/databases';
import { eventually, everyMinuteJob, hangsInWorkerJob, runsOf, waitForRuns } from '../support/jobs';

describe.each(DATABASE_KINDS)('background jobs on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
    await t.app.jobs.start();
  });
  afterAll(() => t.close());

  it('runs a registered job sent on demand and records the run with its counts', async () => {
    expect(await t.app.jobs.send(refreshArrearsJob, {})).toBeTruthy();
    const runs = await waitForRuns(t.app.ctx.db, refreshArrearsJob.name, (found) => found.length === 1);
    expect(runs[0]).toMatchObject({
      trigger: 'demand',
      attempt: 1,
      state: 'completed',
      counts: { changed: 0 },
    });
  });

  it('runs a job now when an admin asks, audited; refuses an unknown job and anyone but an admin', async () => {
    const admin = await t.signedIn('admin');
    const before = (await runsOf(t.app.ctx.db, refreshArrearsJob.name)).length;
    const asked = await admin.post(`/api/jobs/${refreshArrearsJob.name}/run`);
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ queued: true });
    const runs = await waitForRuns(
      t.app.ctx.db,
      refreshArrearsJob.name,
      (found) => found.length === before + 1,
    );
    expect(runs[0]).toMatchObject({ trigger: 'demand', state: 'completed' });
    const audit = await admin.get('/api/audit?action=job.run');
    expect(audit.json().rows[0]).toMatchObject({ entityType: 'job', entityId: refreshArrearsJob.name });
    expect((await admin.post('/api/jobs/nothing.here/run')).statusCode).toBe(404);
    expect(
      (await (await t.signedIn('manager')).post(`/api/jobs/${refreshArrearsJob.name}/run`)).statusCode,
    ).toBe(403);
  });

  it('prunes runs older than 90 days nightly, keeping recent ones and any still marked running', async () => {
    const { db } = t.app.ctx;
    const old = new Date(t.clock.now().getTime() - 91 * 86_400_000);
    await db.insert(jobRuns).values([
      {
        job: 'old.completed',
        queueJobId: '00000000-0000-4000-8000-0000000000a1',
        trigger: 'schedule',
        attempt: 1,
        state: 'completed',
        startedAt: old,
        finishedAt: old,
        instance: 'x',
      },
      {
        job: 'old.running',
        queueJobId: '00000000-0000-4000-8000-0000000000a2',
        trigger: 'schedule',
        attempt: 1,
        state: 'running',
        startedAt: old,
        instance: 'x',
      },
    ]);
    expect(await pruneJobRunsJob.run(t.app.ctx, {})).toEqual({ deleted: 1 });
    expect(await runsOf(db, 'old.completed')).toHaveLength(0);
    expect(await runsOf(db, 'old.running')).toHaveLength(1);
    expect((await runsOf(db, refreshArrearsJob.name)).length).toBeGreaterThan(0);
  });

  it('vacuums and analyses the embedded database nightly, and leaves PostgreSQL to its autovacuum', async () => {
    const { db } = t.app.ctx;
    // When the table was last vacuumed and analysed by hand, and the planner's count of its rows
    // (-1: never counted, the estimates of an empty table).
    const upkeep = async () => {
      const [row] = await queryRows<{ vacuumed: boolean; analysed: boolean; counted: boolean }>(
        db,
        sql`SELECT s.last_vacuum IS NOT NULL AS vacuumed, s.last_analyze IS NOT NULL AS analysed,
                   c.reltuples >= 0 AS counted
            FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = 'customers'`,
      );
      return row;
    };
    expect(await upkeep()).toMatchObject({ vacuumed: false, analysed: false });
    const done = await maintainDatabaseJob.run(t.app.ctx, {});
    if (kind === 'pglite') {
      expect(done.tables).toBeGreaterThan(50);
      expect(await upkeep()).toEqual({ vacuumed: true, analysed: true, counted: true });
    } else {
      expect(done).toEqual({ tables: 0 });
      expect(await upkeep()).toMatchObject({ vacuumed: false, analysed: false });
    }
    expect(maintainDatabaseJob.schedule).toEqual({ cron: '20 3 * * *' });
  });

  it('runs a job kept current only when what it depends on changes', async () => {
    const { db } = t.app.ctx;
    const count = async () => (await runsOf(db, refreshArrearsJob.name)).length;
    const before = await count();
    // The last run recorded the current key: nothing changed, nothing is sent.
    await t.app.jobs.tick();
    await waitForRuns(db, refreshArrearsJob.name, () => true);
    expect(await count()).toBe(before);

    // The change reaches this instance's organisation cache through the bus: tick until it has.
    const { updatedAt: _, ...current } = await organisation(t.app.ctx, t.app.ctx.db);
    await withTransaction(t.app.ctx, (tx) =>
      updateOrganisation(tx, SYSTEM_ACTOR, {
        ...current,
        delinquencyBuckets: [1, 10, 30, 60, 90],
      }),
    );
    const changed = await eventually(async () => {
      await t.app.jobs.tick();
      const runs = await runsOf(db, refreshArrearsJob.name);
      return runs.length === before + 1 && runs[0]?.state === 'completed' ? runs[0] : undefined;
    }, 'a run for the new buckets');
    expect(changed.trigger).toBe('changed');
  });

  it('runs the close of business when the business date moves (the clock passing midnight)', async () => {
    const { db } = t.app.ctx;
    const before = (await runsOf(db, closeOfBusinessJob.name)).length;
    t.clock.advance(24 * 3600_000);
    await eventually(async () => {
      await t.app.jobs.tick();
      const runs = await runsOf(db, closeOfBusinessJob.name);
      return runs.length > before && runs[0]?.state === 'completed' ? runs[0] : undefined;
    }, 'a close of business for the new day');
  });
});

// Several instances sharing one database is a PostgreSQL deployment (PGlite is one process's own).
describe.runIf(DATABASE_KINDS.includes('postgres'))(
  'background jobs on two instances of one PostgreSQL database',
  () => {
    let shared: TestDatabase;
    let first: TestApp;
    let second: TestApp;
    const queues: JobQueue[] = [];
    beforeAll(async () => {
      shared = await createTestDatabase('postgres');
      first = await startTestApp('postgres', { shared });
      second = await startTestApp('postgres', { shared });
    });
    afterAll(async () => {
      await Promise.all(queues.map((queue) => queue.stop()));
      await first.close();
      await second.close();
      await shared.drop();
    });

    it('runs a scheduled job exactly once per slot, however often each instance ticks', async () => {
      const { db } = first.app.ctx;
      const scheduling = [first, second].map(
        (instance) => new JobQueue(instance.app.ctx, [everyMinuteJob], { pollingSeconds: 0.5 }),
      );
      queues.push(...scheduling);
      await Promise.all(scheduling.map((queue) => queue.start()));
      const start = Date.parse('2026-11-24T10:00:20Z');
      for (const minute of [0, 1, 2]) {
        for (const instance of [first, second]) instance.clock.ms = start + minute * 60_000;
        for (let round = 0; round < 3; round += 1) await Promise.all(scheduling.map((queue) => queue.tick()));
        const runs = await waitForRuns(db, everyMinuteJob.name, (found) => found.length > minute);
        expect(runs).toHaveLength(minute + 1);
      }
      const runs = await runsOf(db, everyMinuteJob.name);
      expect(runs.map((run) => run.slot).sort()).toEqual([
        '2026-11-24T10:00:00.000Z',
        '2026-11-24T10:01:00.000Z',
        '2026-11-24T10:02:00.000Z',
      ]);
      expect(
        runs.every((run) => run.trigger === 'schedule' && run.attempt === 1 && run.state === 'completed'),
      ).toBe(true);
    });

    it('retries a job whose process was killed half-way, and the retry completes', async () => {
      const { db } = first.app.ctx;
      const worker = spawn(process.execPath, ['--import', 'tsx', 'tests/support/job-worker.ts'], {
        env: { ...process.env, DATABASE_URL: shared.url, JOB_WORKER_HANGS: 'true' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      try {
        // The worker process, the only one with a worker for this job yet, sends it and hangs in it.
        await eventually(async () => {
          const runs = await runsOf(db, hangsInWorkerJob.name);
          return (
            runs.some((run) => run.state === 'running' && run.instance.endsWith(`:${worker.pid}`)) ||
            undefined
          );
        }, 'the worker process to run the job');
      } finally {
        worker.kill('SIGKILL');
        if (worker.exitCode === null) await once(worker, 'exit');
      }
      // An instance still up: once the run's expiry passes, its maintenance fails it into a retry,
      // which it then runs to completion. (Its test clock comes back from the scheduling test's minutes.)
      first.clock.ms = Date.now();
      const survivor = new JobQueue(first.app.ctx, [hangsInWorkerJob], {
        pollingSeconds: 0.5,
        maintenanceSeconds: 1,
      });
      queues.push(survivor);
      await survivor.start();
      const runs = await waitForRuns(db, hangsInWorkerJob.name, (found) => found[0]?.state === 'completed');
      expect(runs.map((run) => [run.attempt, run.state])).toEqual([
        [2, 'completed'],
        [1, 'interrupted'],
      ]);
      expect(runs[0]?.counts).toEqual({ done: 1 });
    });
  },
);
