import { analysisSchema, analyzeBody } from '../../../contracts/assistant';
import type { AppInstance } from '../../app';
import { analyze } from './service';

/** Seed section 7 / API.md: the Finance AI Assistant. */
export async function assistantRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  app.post(
    '/api/ai/analyze',
    {
      config: { access: 'business.read', rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { tags: ['assistant'], body: analyzeBody, response: { 200: analysisSchema } },
    },
    (request) => analyze(ctx, request.body.query),
  );
}
