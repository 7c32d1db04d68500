import { z } from 'zod';
import { endpoint } from './endpoint';

/** Seed section 7 and API.md: POST /api/ai/analyze. */
export const analyzeBody = z.strictObject({
  query: z
    .string({ error: 'query is required' })
    .trim()
    .min(1, 'Ask a question')
    .max(500, 'At most 500 characters'),
});

export const analysisSchema = z.object({
  /** One or two sentences: what the answer is, never a list of figures. */
  summary: z.string(),
  /** Beyond the seed: the figures behind the summary, one line each, shown on request. */
  details: z.array(z.string()),
  impacts: z.object({
    /** Days by which the last due date moves earlier (negative: later). */
    termReduction: z.number().int(),
    /** Interest saved by customers, in minor units of `currency` (negative: more interest). */
    interestSavings: z.number().int(),
  }),
  /** 0..1: how fully the question was understood. */
  confidence: z.number().min(0).max(1),
  /** Beyond the seed: the currency of money figures, what was assumed, and what else can be asked. */
  currency: z.string(),
  assumptions: z.array(z.string()),
  suggestions: z.array(z.string()),
});
export type Analysis = z.infer<typeof analysisSchema>;

/** /api/ai: the Finance AI Assistant. */
export const assistantEndpoints = {
  analyze: endpoint({
    method: 'POST',
    path: '/api/ai/analyze',
    body: analyzeBody,
    response: analysisSchema,
  }),
};
