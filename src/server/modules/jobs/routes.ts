import { jobRunsPageSchema, jobRunsQuery } from '../../../contracts/jobs';
import type { AppInstance } from '../../app';
import { describeSchedule } from '../../jobs/definition';
import { recentRuns } from '../../jobs/runs';

/** /admin/jobs: the registered background jobs and their recent runs. Administrators only. */
export async function jobRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['jobs'];

  app.get(
    '/api/jobs/runs',
    {
      config: { access: 'admin.jobs' },
      schema: { tags, querystring: jobRunsQuery, response: { 200: jobRunsPageSchema } },
    },
    async (request) => ({
      jobs: app.jobs.definitions.map((definition) => ({
        name: definition.name,
        description: definition.description,
        schedule: describeSchedule(definition.schedule),
      })),
      runs: await recentRuns(ctx.db, request.query),
    }),
  );
}
