import { jobEndpoints } from '../../../contracts/jobs';
import type { AppInstance } from '../../app';
import { describeSchedule } from '../../jobs/definition';
import { recentRuns } from '../../jobs/runs';
import { route } from '../../route';

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
}
