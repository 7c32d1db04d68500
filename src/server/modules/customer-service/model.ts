import { z } from 'zod';
import { CUSTOMER_INTENTS, type CustomerIntent } from '../../../contracts/conversations';
import type { AppContext } from '../../context';
import { answerJson, outboundRequest } from '../../outbound-http';
import { aiEndpointOf, readMessagingSettings } from '../messages/settings';

const answerSchema = z.object({ intent: z.enum(CUSTOMER_INTENTS) });

const INSTRUCTIONS = [
  'You classify a device-financing customer\'s message into ONE intent and answer JSON only: {"intent": "..."}.',
  'Intents: greeting, help, balance (what is owed), next_due (date and amount of the next payment), how_to_pay (paybill, account),',
  'payoff (paying everything off, maybe at a date), token (unlock code), history (past payments), handoff (wants a person), unknown.',
  'Never answer the question itself and never include figures. If unsure, answer {"intent":"unknown"}.',
].join('\n');

/**
 * The optional OpenAI-compatible classifier (issue 15 §5), configured under integrations
 * (`messaging_settings.ai_base_url`): it maps free text to one of the parser's intents and nothing
 * else — it never supplies a figure. Null when none is configured, on any failure or timeout, or
 * for an answer outside the intents: the parser's reading stands. Called outside any transaction.
 */
export async function classifyWithModel(ctx: AppContext, text: string): Promise<CustomerIntent | null> {
  try {
    const endpoint = aiEndpointOf(ctx, await readMessagingSettings(ctx.db));
    if (!endpoint) return null;
    const response = await outboundRequest(`${endpoint.baseUrl.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: endpoint.model ?? ctx.config.AI_MODEL,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: text.slice(0, 1000) },
        ],
      }),
      timeoutMs: ctx.config.AI_TIMEOUT_MS,
    });
    if (!response.ok) return null;
    const body = answerJson<{ choices?: Array<{ message?: { content?: string } }> }>(response);
    const parsed = answerSchema.safeParse(JSON.parse(body?.choices?.[0]?.message?.content ?? 'null'));
    // Consent changes and identity answers are never left to a model.
    if (!parsed.success || ['unknown', 'opt_out', 'opt_in', 'identity'].includes(parsed.data.intent))
      return null;
    return parsed.data.intent;
  } catch (error) {
    ctx.log.warn({ err: error }, 'customer-service model endpoint failed');
    return null;
  }
}
