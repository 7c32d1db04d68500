import { z } from 'zod';
import { endpoint, idParams, okSchema } from './endpoint';
import { listQuery, pageOf } from './lists';
import { taskSchema } from './tasks';

/**
 * Conversations (issue 15 §4–§6): one thread per phone number, inbound and outbound lines of
 * every channel; the customer-service assistant answers while a thread is in `assistant` mode.
 * The WhatsApp Cloud API and SMS webhooks feed them; /ai-customer-service reads them and
 * /whatsapp-test sends a signed simulated WhatsApp message through the webhook's own pipeline.
 */

/** As the tables have them (src/db/schema/communications.ts). */
export const CONVERSATION_MODES = ['assistant', 'staff'] as const;
export const CONVERSATION_CHANNELS = ['sms', 'whatsapp', 'portal'] as const;
export const CONVERSATION_AUTHORS = ['customer', 'assistant', 'staff', 'system'] as const;
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];
export type ConversationMode = (typeof CONVERSATION_MODES)[number];

/** What the assistant understands (the parser's and the optional model's one vocabulary). */
export const CUSTOMER_INTENTS = [
  'greeting',
  'help',
  'balance',
  'next_due',
  'how_to_pay',
  'payoff',
  'token',
  'history',
  'handoff',
  'opt_out',
  'opt_in',
  'identity',
  'unknown',
] as const;
export type CustomerIntent = (typeof CUSTOMER_INTENTS)[number];

export const conversationSchema = z.object({
  id: z.string(),
  phone: z.string(),
  customerId: z.string().nullable(),
  customerName: z.string().nullable(),
  accountNumber: z.string().nullable(),
  channel: z.enum(CONVERSATION_CHANNELS),
  mode: z.enum(CONVERSATION_MODES),
  takenOverBy: z.string().nullable(),
  takenOverByName: z.string().nullable(),
  lastMessage: z.string().nullable(),
  lastMessageAt: z.string(),
  openTasks: z.number().int(),
  createdAt: z.string(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationLineSchema = z.object({
  id: z.string(),
  direction: z.enum(['in', 'out']),
  author: z.enum(CONVERSATION_AUTHORS),
  channel: z.enum(CONVERSATION_CHANNELS),
  body: z.string(),
  intent: z.string().nullable(),
  userName: z.string().nullable(),
  /** The outbox row of an outbound SMS or WhatsApp line, and its delivery state. */
  messageId: z.string().nullable(),
  messageStatus: z.string().nullable(),
  createdAt: z.string(),
});
export type ConversationLine = z.infer<typeof conversationLineSchema>;

export const conversationDetailSchema = z.object({
  conversation: conversationSchema,
  lines: z.array(conversationLineSchema),
  tasks: z.array(taskSchema),
});
export type ConversationDetail = z.infer<typeof conversationDetailSchema>;

export const conversationListQuery = listQuery(['lastMessageAt', 'createdAt'], {
  mode: z
    .enum(CONVERSATION_MODES, { error: `mode must be one of: ${CONVERSATION_MODES.join(', ')}` })
    .optional(),
  channel: z
    .enum(CONVERSATION_CHANNELS, { error: `channel must be one of: ${CONVERSATION_CHANNELS.join(', ')}` })
    .optional(),
  /** `true`: only threads of numbers no customer has yet. */
  unlinked: z.enum(['true', 'false'], { error: 'unlinked must be true or false' }).optional(),
  customerId: z.uuid('customerId must be a customer id').optional(),
});

const text = z
  .string({ error: 'Write the message' })
  .trim()
  .min(1, 'Write the message')
  .max(1000, 'The message is at most 1,000 characters');

export const replyBody = z.strictObject({ text });
export const linkBody = z.strictObject({ customerId: z.uuid('Choose a customer') });

/** The verify handshake's query (Meta's names, dots included). */
export const whatsappVerifyQuery = z.object({
  'hub.mode': z.string().max(100).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z.string().max(500).optional(),
});
export const whatsappWebhookHeaders = z.object({ 'x-hub-signature-256': z.string().max(200).optional() });
/** Checked in the handler, after the signature: an unsigned body is refused whatever its shape. */
export const whatsappWebhookBody = z.record(z.string(), z.unknown());

/** Africa's Talking's inbound SMS callback (form or JSON). */
export const smsInboundQuery = z.object({ token: z.string().max(500).optional() });
export const smsInboundBody = z.object({
  from: z.string().trim().min(3).max(40),
  text: z.string().max(2000),
  id: z.string().trim().min(1).max(200),
  to: z.string().max(40).optional(),
  date: z.string().max(100).optional(),
  linkId: z.string().max(200).optional(),
});

export const whatsappTestBody = z.strictObject({
  phone: z.string({ error: 'Give a phone number' }).trim().min(3, 'Give a phone number').max(40),
  text,
});

export const whatsappTestResultSchema = z.object({
  /** The webhook's HTTP status (200 when the signature held). */
  status: z.number().int(),
  signature: z.string(),
  signatureValid: z.boolean(),
  /** The WhatsApp Cloud API payload that was signed and posted to the webhook. */
  inbound: z.unknown(),
  conversationId: z.string().nullable(),
  customerName: z.string().nullable(),
  /** The lines the pipeline wrote: the customer's, then the answers. */
  lines: z.array(conversationLineSchema),
  /** The Cloud API send bodies the replies will go out as (POST /{phone-number-id}/messages). */
  outbound: z.array(z.unknown()),
});
export type WhatsappTestResult = z.infer<typeof whatsappTestResultSchema>;

export const conversationEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/conversations',
    query: conversationListQuery,
    response: pageOf(conversationSchema),
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/conversations/:id',
    params: idParams('conversation'),
    response: conversationDetailSchema,
  }),
  /** A person's reply: queued through the outbox on the thread's channel (a portal thread only stores it). */
  reply: endpoint({
    method: 'POST',
    path: '/api/conversations/:id/reply',
    params: idParams('conversation'),
    body: replyBody,
    response: conversationDetailSchema,
  }),
  takeOver: endpoint({
    method: 'POST',
    path: '/api/conversations/:id/take-over',
    params: idParams('conversation'),
    response: conversationDetailSchema,
  }),
  handBack: endpoint({
    method: 'POST',
    path: '/api/conversations/:id/hand-back',
    params: idParams('conversation'),
    response: conversationDetailSchema,
  }),
  link: endpoint({
    method: 'POST',
    path: '/api/conversations/:id/link',
    params: idParams('conversation'),
    body: linkBody,
    response: conversationDetailSchema,
  }),
  whatsappTest: endpoint({
    method: 'POST',
    path: '/api/whatsapp-test',
    body: whatsappTestBody,
    response: whatsappTestResultSchema,
  }),
};

/** The providers' callbacks: public, CSRF-exempt, checked by signature or token. */
export const conversationWebhookEndpoints = {
  whatsappVerify: endpoint({
    method: 'GET',
    path: '/api/webhooks/whatsapp',
    query: whatsappVerifyQuery,
    response: 'file',
  }),
  whatsappInbound: endpoint({
    method: 'POST',
    path: '/api/webhooks/whatsapp',
    headers: whatsappWebhookHeaders,
    body: whatsappWebhookBody,
    response: okSchema,
  }),
  smsInbound: endpoint({
    method: 'POST',
    path: '/api/webhooks/sms/inbound',
    query: smsInboundQuery,
    body: smsInboundBody,
    response: okSchema,
  }),
};
