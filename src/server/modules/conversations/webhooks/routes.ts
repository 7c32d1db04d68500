import type { FastifyRequest } from 'fastify';
import { conversationWebhookEndpoints as endpoints } from '../../../../contracts/conversations';
import type { AppInstance } from '../../../app';
import type { AppContext } from '../../../context';
import { forbidden, unauthorized } from '../../../errors';
import { route } from '../../../route';
import { withTransaction } from '../../../transaction';
import { readCustomerText } from '../../customer-service/answer';
import { recordDeliveryStatus, WHATSAPP_PROVIDER_NAME } from '../../messages/delivery-status';
import { type InboundResult, receiveInbound } from '../pipeline';
import { readPayload, signatureHolds, webhookSecrets } from '../whatsapp';

const RAW_BODY = Symbol('rawBody');
type WithRawBody = FastifyRequest & { [RAW_BODY]?: string };

/** The SMS gateway's callback token: `?token=` on the inbound URL configured at the gateway. */
export function smsInboundToken(ctx: Pick<AppContext, 'keyring'>): string {
  return ctx.keyring.sign('messaging.sms-inbound', 'default');
}

/**
 * POST /api/webhooks/whatsapp's work, shared with /whatsapp-test through the route itself: the
 * signature on the RAW body first (a bad or missing one is a 401 and nothing is written), then
 * each text message through the inbound pipeline (one transaction each, de-duplicated on the
 * wamid) and each delivery status to the outbox.
 */
async function receiveWhatsapp(
  ctx: AppContext,
  rawBody: string,
  signature: string | undefined,
  body: unknown,
): Promise<InboundResult[]> {
  const { appSecret } = await webhookSecrets(ctx);
  if (!signatureHolds(appSecret, rawBody, signature)) {
    throw unauthorized('The X-Hub-Signature-256 signature does not match the body');
  }
  const { messages, statuses } = readPayload(body);
  const received: InboundResult[] = [];
  for (const message of messages) {
    // Read before the transaction: an optional model may take a moment.
    const query = await readCustomerText(ctx, message.body);
    received.push(
      await withTransaction(ctx, (tx) =>
        receiveInbound(tx, {
          channel: 'whatsapp',
          phone: message.from,
          body: message.body,
          providerMessageId: message.id,
          payload: message.raw,
          query,
        }),
      ),
    );
  }
  if (statuses.length) {
    await withTransaction(ctx, async (tx) => {
      for (const status of statuses) {
        await recordDeliveryStatus(tx, {
          provider: WHATSAPP_PROVIDER_NAME,
          reference: status.id,
          status: status.status,
          reason: status.reason,
          ...(status.at ? { at: status.at } : {}),
        });
      }
    });
  }
  return received;
}

/**
 * The providers' inbound callbacks (issue 15 §1): WhatsApp Cloud API (verify handshake and signed
 * messages and statuses) and the SMS gateway's inbound messages. Public and CSRF-exempt; each is
 * checked by its signature or token instead.
 */
export async function conversationWebhookRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const options = {
    access: 'public',
    csrf: false,
    tags: ['webhooks'],
    rateLimit: { max: 6000, timeWindow: '1 minute' },
  } as const;

  route(app, endpoints.whatsappVerify, options, async (request, reply) => {
    const { verifyToken } = await webhookSecrets(ctx);
    const given = request.query['hub.verify_token'];
    if (request.query['hub.mode'] !== 'subscribe' || !verifyToken || given !== verifyToken) {
      throw forbidden('The verify token does not match');
    }
    return reply.type('text/plain').send(request.query['hub.challenge'] ?? '');
  });

  // Africa's Talking posts a form; a JSON body is read as well.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    route(scope, endpoints.smsInbound, options, async (request) => {
      if (
        !request.query.token ||
        !ctx.keyring.verify('messaging.sms-inbound', 'default', request.query.token)
      ) {
        throw unauthorized('The inbound SMS token does not match');
      }
      const { from, text, id } = request.body;
      const query = await readCustomerText(ctx, text);
      await withTransaction(ctx, (tx) =>
        receiveInbound(tx, {
          channel: 'sms',
          phone: from,
          body: text,
          providerMessageId: id,
          payload: request.body,
          query,
        }),
      );
      return { ok: true as const };
    });
  });

  // The signature covers the body as sent: this scope keeps the raw text beside the parsed JSON.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = String(body);
      (request as WithRawBody)[RAW_BODY] = text;
      if (!text) {
        done(
          Object.assign(new Error('empty body'), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }),
          undefined,
        );
        return;
      }
      try {
        done(null, JSON.parse(text));
      } catch {
        done(
          Object.assign(new Error('invalid JSON'), {
            code: 'FST_ERR_CTP_INVALID_JSON_BODY',
            statusCode: 400,
          }),
          undefined,
        );
      }
    });
    route(scope, endpoints.whatsappInbound, options, async (request) => {
      await receiveWhatsapp(
        ctx,
        (request as WithRawBody)[RAW_BODY] ?? '',
        request.headers['x-hub-signature-256'],
        request.body,
      );
      return { ok: true as const };
    });
  });
}
