import { z } from 'zod';
import { endpoint, idParams } from './endpoint';

/** A metrics request is at most this long (a request of a day's history fits many times over). */
export const METRICS_MAX_BYTES = 256 * 1024;

/**
 * The answer to a device (OpenPAYGO Metrics, condensed names): the tokens issued after its
 * token count, its active-until time or seconds left when it asked, and the answer's signature.
 */
export const metricsAnswerSchema = z.object({
  tkl: z.array(z.string()).optional(),
  auts: z.number().int().optional(),
  asl: z.number().int().optional(),
  a: z.string(),
});
export type MetricsAnswer = z.infer<typeof metricsAnswerSchema>;

const readingValues = z.record(z.string(), z.unknown());

export const deviceMetricsRequestSchema = z.object({
  id: z.string(),
  receivedAt: z.string(),
  collectedAt: z.string(),
  requestCount: z.number().int().nullable(),
  requestTimestamp: z.number().int().nullable(),
  authMethod: z.string(),
  data: readingValues,
  /** History steps, each with its time (ISO). */
  history: z.array(z.object({ at: z.string(), values: readingValues })),
  tokensSent: z.number().int(),
});
export type DeviceMetricsRequest = z.infer<typeof deviceMetricsRequestSchema>;

export const deviceMetricsSchema = z.object({
  /** The newest value of each metric, with when it was read. */
  latest: z.array(z.object({ name: z.string(), value: z.unknown(), at: z.string() })),
  /** The newest requests first (at most 20). */
  requests: z.array(deviceMetricsRequestSchema),
});
export type DeviceMetrics = z.infer<typeof deviceMetricsSchema>;

export const deviceMetricsEndpoints = {
  /**
   * POST /api/openpaygo/device_data (the specification's /device_data): a device's signed request,
   * as raw JSON text (its numbers are signed as written). Public: the signature is the check.
   */
  receive: endpoint({
    method: 'POST',
    path: '/api/openpaygo/device_data',
    body: z
      .string({ error: 'Send the metrics request as JSON' })
      .max(METRICS_MAX_BYTES, 'The request is too large'),
    response: metricsAnswerSchema,
    status: 201,
  }),
  /** The usage a unit reported: latest readings and its recent requests. */
  list: endpoint({
    method: 'GET',
    path: '/api/devices/:id/metrics',
    params: idParams('device'),
    response: deviceMetricsSchema,
  }),
};
