import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import type { WhatsappTestResult } from '../../../contracts/conversations';
import { conversationMessages, messages } from '../../../db/schema';
import type { AppInstance } from '../../app';
import { organisation } from '../../organisation';
import { normalisePhone } from '../customers/phone';
import { whatsappPayload } from '../messages/providers/whatsapp-cloud';
import { readMessagingSettings } from '../messages/settings';
import { getThread, threadLines } from './threads';
import { inboundTextPayload, signatureHolds, signBody, webhookSecrets } from './whatsapp';

/**
 * /whatsapp-test (issue 15 §6): builds the Cloud API payload Meta would post for a text from this
 * number, signs it with the app secret the webhook checks, and posts it to POST
 * /api/webhooks/whatsapp itself (an in-process request through the same parser, signature check
 * and pipeline). Answers what happened: the status, the signature, the lines written and the
 * Cloud API bodies the replies will go out as.
 */
export async function runWhatsappTest(
  app: AppInstance,
  input: { phone: string; text: string },
): Promise<WhatsappTestResult> {
  const { ctx } = app;
  const org = await organisation(ctx, ctx.db);
  const phone = normalisePhone(input.phone, org.country);
  const settings = await readMessagingSettings(ctx.db);
  const { payload: inbound, wamid } = inboundTextPayload({
    phone,
    text: input.text,
    at: ctx.clock.now(),
    ...(settings.whatsappPhoneNumberId ? { phoneNumberId: settings.whatsappPhoneNumberId } : {}),
  });
  const raw = JSON.stringify(inbound);
  const { appSecret } = await webhookSecrets(ctx);
  const signature = signBody(appSecret, raw);
  const response = await app.inject({
    method: 'POST',
    url: '/api/webhooks/whatsapp',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
    payload: raw,
  });
  const [line] = await ctx.db
    .select({
      conversationId: conversationMessages.conversationId,
      createdAt: conversationMessages.createdAt,
    })
    .from(conversationMessages)
    .where(
      and(eq(conversationMessages.channel, 'whatsapp'), eq(conversationMessages.providerMessageId, wamid)),
    );
  if (!line) {
    return {
      status: response.statusCode,
      signature,
      signatureValid: signatureHolds(appSecret, raw, signature),
      inbound,
      conversationId: null,
      customerName: null,
      lines: [],
      outbound: [],
    };
  }
  const thread = await getThread(ctx.db, line.conversationId);
  const lines = (await threadLines(ctx.db, line.conversationId)).filter(
    (l) => l.createdAt >= line.createdAt.toISOString(),
  );
  const outboxIds = lines.map((l) => l.messageId).filter((id): id is string => id !== null);
  // The answer and anything queued beside it (a re-sent token) on this thread since the message.
  const queued = await ctx.db
    .select()
    .from(messages)
    .where(
      outboxIds.length
        ? inArray(messages.id, outboxIds)
        : and(eq(messages.conversationId, line.conversationId), gte(messages.createdAt, line.createdAt)),
    )
    .orderBy(asc(messages.createdAt), asc(messages.id));
  const extra = await ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, line.conversationId), gte(messages.createdAt, line.createdAt)))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  const all = [...new Map([...queued, ...extra].map((m) => [m.id, m])).values()];
  return {
    status: response.statusCode,
    signature,
    signatureValid: response.statusCode !== 401,
    inbound,
    conversationId: line.conversationId,
    customerName: thread.conversation.customerName,
    lines,
    outbound: all.map((m) =>
      whatsappPayload({
        id: m.id,
        channel: m.channel,
        recipient: m.recipient,
        body: m.body,
        templateKey: m.templateKey,
      }),
    ),
  };
}
