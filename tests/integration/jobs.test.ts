import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshArrearsJob } from '../../src/server/modules/contracts/delinquency';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { waitForRuns } from '../support/jobs';

describe.each(DATABASE_KINDS)('background jobs on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
    const started = performance.now();
    await t.app.jobs.start();
    console.log(kind, 'jobs start ms', performance.now() - started);
  });
  afterAll(() => t.close());

  it('runs a registered job sent on demand and records the run with its counts', async () => {
    const started = performance.now();
    expect(await t.app.jobs.send(refreshArrearsJob, {})).toBeTruthy();
    const [run] = await waitForRuns(
      t.app.ctx.db,
      refreshArrearsJob.name,
      (runs) => runs[0]?.state === 'completed',
    );
    console.log(kind, 'run ms', performance.now() - started);
    expect(run).toMatchObject({ trigger: 'demand', attempt: 1, counts: { changed: 0 }, error: null });
  });
});
