import { z } from 'zod';
import { endpoint } from './endpoint';

/** Readiness: 200 `ok` once migrations have run; until then 503 `starting`. */
export const healthSchema = z.object({ status: z.enum(['ok', 'starting']) });

export const healthEndpoints = {
  get: endpoint({ method: 'GET', path: '/api/health', response: healthSchema, alsoStatus: 503 }),
};
