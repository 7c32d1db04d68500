import { jobEndpoints } from '../../../contracts/jobs';
import type { AppInstance } from '../../app';
import { actorOf, writeAudit } from '../../audit';
import { AppError, notFound, unprocessable } from '../../errors';
import { describeSchedule } from '../../jobs/definition';
import { recentRuns } from '../../jobs/runs';
import { route } from '../../route';
import { withTransaction } from '../../transaction';

/** /admin/jobs: the registered background jobs and their recent runs. Administrators only. */
export async function jobRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;

  route(app, jobEndpoints.runs, { access: 'admin.jobs', tags: ['jobs'] }, async (request) => ({
    jobs: app.jobs.definitions.map((definition) => ({
      name: definition.name,
      description: definition.description,
      schedule: describeSchedule(definition.schedule),
    })),
    runs: await recentRuns(ctx.db, request.query),
  }));

  route(app, jobEndpoints.runNow, { access: 'admin.jobs', tags: ['jobs'] }, async (request) => {
    const definition = app.jobs.definitions.find((job) => job.name === request.params.name);
    if (!definition) throw notFound(`No background job is called ${request.params.name}`);
    if (!definition.payload.safeParse({}).success)
      throw unprocessable(`${definition.name} needs a payload; it cannot be run from here`);
    if (!app.jobs.running)
      throw new AppError(
        503,
        'JOBS_STOPPED',
        'Background jobs are not running on this server; try again shortly',
      );
    const id = await app.jobs.send(definition, {}, 'demand');
    await withTransaction(ctx, (tx) =>
      writeAudit(tx.tx, actorOf(request), {
        action: 'job.run',
        entityType: 'job',
        entityId: definition.name,
        after: { queued: id !== null },
      }),
    );
    return { queued: id !== null };
  });
}
