import { z } from 'zod';
import { endpoint } from './endpoint';

/** Readiness: `ok` once migrations have run; until then the route answers 503 `{ status: 'starting' }`. */
export const healthSchema = z.object({ status: z.literal('ok') });

export const healthEndpoints = {
  get: endpoint({ method: 'GET', path: '/api/health', response: healthSchema }),
};
