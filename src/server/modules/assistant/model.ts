import { z } from 'zod';
import { FREQUENCIES } from '../../../domain';
import type { AppContext } from '../../context';
import { answerJson, outboundRequest } from '../../outbound-http';
import type { Intent, ParsedQuery } from './intent';

const unit = z.enum(['installments', 'days', 'weeks', 'months']);
const intentSchema: z.ZodType<Intent> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('installment'),
    amount: z.number().int().positive(),
    frequency: z.enum(FREQUENCIES as ['daily', 'weekly', 'monthly']).optional(),
    direction: z.enum(['increase', 'decrease']).optional(),
  }),
  z.object({ kind: z.literal('apr'), apr: z.number().min(0).max(1000) }),
  z.object({
    kind: z.literal('service_discount'),
    percent: z.number().gt(0).max(100),
    days: z.number().int().min(1).max(3660),
  }),
  z.object({
    kind: z.literal('term'),
    mode: z.enum(['to', 'by']),
    count: z.number().int().min(-3660).max(3660),
    unit,
  }),
  z.object({ kind: z.literal('payment_holiday'), count: z.number().int().min(1).max(366), unit }),
  z.object({ kind: z.literal('payoff'), date: z.iso.date().optional() }),
  z.object({ kind: z.literal('par'), days: z.number().int().min(0).max(365) }),
  z.object({ kind: z.literal('collection_rate') }),
  z.object({ kind: z.literal('overdue_count') }),
  z.object({ kind: z.literal('top_risks') }),
  z.object({ kind: z.literal('unknown') }),
]) as z.ZodType<Intent>;

const modelAnswer = z.object({
  intent: intentSchema,
  contractNumber: z
    .string()
    .regex(/^CT-\d{6,9}$/)
    .optional(),
  confidence: z.number().min(0).max(1),
});

function instructions(currency: string): string {
  return [
    "You map a lender staff member's question about a device-financing portfolio to ONE intent, as JSON.",
    'Answer with a JSON object {"intent": {...}, "contractNumber"?: "CT-000123", "confidence": 0..1} and nothing else.',
    'Intents:',
    `{"kind":"installment","amount":<integer minor units of ${currency}>,"frequency"?:"daily"|"weekly"|"monthly","direction"?:"increase"|"decrease"} - a new payment amount (only when the question gives it in ${currency}; otherwise unknown);`,
    '{"kind":"apr","apr":<percent>}; {"kind":"service_discount","percent":<1-100>,"days":<integer>};',
    '{"kind":"term","mode":"to"|"by","count":<integer, negative to shorten>,"unit":"installments"|"days"|"weeks"|"months"};',
    '{"kind":"payment_holiday","count":<integer>,"unit":"installments"|"days"|"weeks"|"months"};',
    '{"kind":"payoff","date"?:"YYYY-MM-DD"} (needs contractNumber); {"kind":"par","days":<integer>};',
    '{"kind":"collection_rate"}; {"kind":"overdue_count"}; {"kind":"top_risks"}; {"kind":"unknown"}.',
    'Use only numbers that appear in the question. If unsure, answer {"intent":{"kind":"unknown"},"confidence":0}.',
  ].join('\n');
}

/**
 * Asks the configured OpenAI-compatible endpoint to map free text to an intent. Returns null when
 * none is configured, on any failure or timeout, or when the answer is not a valid intent: the
 * assistant then keeps its own (low-confidence) reading.
 */
export async function mapWithModel(
  ctx: AppContext,
  query: string,
  currency: string,
): Promise<ParsedQuery | null> {
  const { AI_BASE_URL, AI_API_KEY, AI_MODEL, AI_TIMEOUT_MS } = ctx.config;
  if (!AI_BASE_URL) return null;
  try {
    const response = await outboundRequest(`${AI_BASE_URL.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(AI_API_KEY ? { authorization: `Bearer ${AI_API_KEY}` } : {}),
      },
      body: JSON.stringify({
        model: AI_MODEL,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: instructions(currency) },
          { role: 'user', content: query },
        ],
      }),
      timeoutMs: AI_TIMEOUT_MS,
    });
    if (!response.ok) {
      ctx.log.warn({ status: response.status }, 'assistant model endpoint refused the request');
      return null;
    }
    const body = answerJson<{ choices?: Array<{ message?: { content?: string } }> }>(response);
    const content = body?.choices?.[0]?.message?.content;
    const parsed = modelAnswer.safeParse(JSON.parse(content ?? 'null'));
    if (!parsed.success || parsed.data.intent.kind === 'unknown') return null;
    return {
      intent: parsed.data.intent,
      ...(parsed.data.contractNumber ? { contractNumber: parsed.data.contractNumber } : {}),
      // A model's reading is never as certain as an exact match of the parser.
      confidence: Math.min(parsed.data.confidence, 0.8),
      assumptions: ['Interpreted with the language model; the figures come from the finance engine'],
    };
  } catch (error) {
    ctx.log.warn({ err: error }, 'assistant model endpoint failed');
    return null;
  }
}
