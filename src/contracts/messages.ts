import { z } from 'zod';
import { endpoint } from './endpoint';
import { listQuery, pageOf } from './lists';

/**
 * The message outbox (issue 14 §5, PRODUCT.md §2 and §4; decision 027): every message to a
 * customer (reminders, tokens, receipts, lock warnings, broken promises) is one outbox row,
 * rendered from a template when queued and delivered by the sender job, which enforces consent
 * and quiet hours and retries with back-off. SMS and WhatsApp providers come with the
 * communications issue; until then the console provider logs each message.
 */

export const MESSAGE_CHANNELS = ['sms', 'whatsapp', 'email'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/**
 * `queued` waits for the sender (or for quiet hours to end, or for a retry); `sent` went to the
 * provider; `delivered` the provider confirmed; `failed` after the last attempt, with its reason;
 * `skipped` never sent because the customer has not consented to the channel (the reason says so).
 */
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'failed', 'skipped'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** How each status reads to staff (the outbox, the contract's card, the customer's timeline). */
export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  skipped: 'Not sent',
};

export const TEMPLATE_KEYS = [
  'reminder_before_due',
  'overdue_day_1',
  'overdue_day_3',
  'overdue_day_7',
  'token',
  'receipt',
  'lock_warning',
  'broken_promise',
  'welcome',
  'reply',
] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

export const TEMPLATE_LABELS: Record<TemplateKey, string> = {
  reminder_before_due: 'Reminder before due',
  overdue_day_1: 'Overdue, day 1',
  overdue_day_3: 'Overdue, day 3',
  overdue_day_7: 'Overdue, day 7',
  token: 'Device token',
  receipt: 'Payment receipt',
  lock_warning: 'Lock warning',
  broken_promise: 'Broken promise',
  welcome: 'Welcome',
  reply: 'Conversation reply',
};

/**
 * The variables each template is given by the code that queues it: a template may use these and
 * no others (an edit that names another is refused, since every message of it would fail).
 */
export const TEMPLATE_VARIABLES: Record<TemplateKey, readonly string[]> = {
  reminder_before_due: ['firstName', 'contractNumber', 'dueDate', 'amount'],
  overdue_day_1: ['firstName', 'contractNumber', 'daysOverdue', 'amountOverdue'],
  overdue_day_3: ['firstName', 'contractNumber', 'daysOverdue', 'amountOverdue'],
  overdue_day_7: ['firstName', 'contractNumber', 'daysOverdue', 'amountOverdue'],
  token: ['firstName', 'contractNumber', 'token', 'tokenDescription'],
  receipt: ['firstName', 'contractNumber', 'amount', 'reference', 'balance'],
  lock_warning: ['firstName', 'contractNumber', 'daysOverdue', 'amountOverdue'],
  broken_promise: ['firstName', 'contractNumber', 'amount', 'promiseDate'],
  welcome: ['firstName', 'contractNumber', 'device', 'amount', 'dueDate', 'payBill', 'account'],
  /** A line of a conversation (the assistant's answer, a person's reply): the text as written. */
  reply: ['text'],
};

/**
 * The variables a template staff create may use (issue 15 "Templates"): the customer's, their
 * latest live contract's and the organisation's payment details, all known for any customer.
 */
export const CUSTOM_TEMPLATE_VARIABLES = [
  'firstName',
  'lastName',
  'contractNumber',
  'amountDue',
  'dueDate',
  'balance',
  'daysOverdue',
  'payBill',
  'account',
] as const;

const isBuiltIn = (key: string): key is TemplateKey => (TEMPLATE_KEYS as readonly string[]).includes(key);

/** The variables a template of this key may use. */
export function variablesOf(key: string): readonly string[] {
  return isBuiltIn(key) ? TEMPLATE_VARIABLES[key] : CUSTOM_TEMPLATE_VARIABLES;
}

/** A built-in key's label; a custom template's key as it is (its name is on the template row). */
export function templateLabel(key: string): string {
  return isBuiltIn(key) ? TEMPLATE_LABELS[key] : key;
}

/** Whether quiet hours may hold a message of this key back. */
export function isTransactional(key: string): boolean {
  return isBuiltIn(key) && TRANSACTIONAL_TEMPLATES.includes(key);
}

/**
 * Messages a customer needs whatever the hour (the token a payment bought, its receipt): quiet
 * hours hold back only reminders and warnings. Consent is required for every message.
 */
export const TRANSACTIONAL_TEMPLATES: readonly TemplateKey[] = ['token', 'receipt', 'welcome', 'reply'];

/** Attempts per message, the first included; then it is `failed` with the provider's reason. */
export const MESSAGE_MAX_ATTEMPTS = 5;
/** Minutes before the retry after each failed attempt (1st, 2nd, …): back-off. */
export const MESSAGE_RETRY_MINUTES = [1, 5, 30, 120] as const;

/**
 * Days before a due date that the "before due" reminder goes out: two days leaves a weekly payer
 * a weekend to find the money and is still close enough to be remembered.
 */
export const REMINDER_LEAD_DAYS = 2;
/** Days past due on which the overdue reminders go out (PRODUCT.md §2 step 6). */
export const OVERDUE_REMINDER_DAYS = [1, 3, 7] as const;

export const messageSchema = z.object({
  id: z.string(),
  /** Null for a reply to a number not yet linked to a customer. */
  customerId: z.string().nullable(),
  customerName: z.string().nullable(),
  contractId: z.string().nullable(),
  contractNumber: z.string().nullable(),
  channel: z.enum(MESSAGE_CHANNELS),
  /** E.164 phone (masked for viewers). */
  recipient: z.string(),
  /** A built-in key (TEMPLATE_KEYS) or a template staff created. */
  template: z.string(),
  templateVersion: z.number().int(),
  body: z.string(),
  /** E-mail only. */
  subject: z.string().nullable().optional(),
  bulkSendId: z.string().nullable().optional(),
  status: z.enum(MESSAGE_STATUSES),
  skippedReason: z.string().nullable(),
  failureReason: z.string().nullable(),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  sourceType: z.string().nullable(),
  sourceId: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type Message = z.infer<typeof messageSchema>;

export const messageListQuery = listQuery(['createdAt', 'nextAttemptAt'], {
  status: z
    .enum(MESSAGE_STATUSES, { error: `status must be one of: ${MESSAGE_STATUSES.join(', ')}` })
    .optional(),
  /** A built-in key or a template staff created. */
  template: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{1,47}$/, 'template must be a template key')
    .optional(),
  channel: z
    .enum(MESSAGE_CHANNELS, { error: `channel must be one of: ${MESSAGE_CHANNELS.join(', ')}` })
    .optional(),
  /** Created on or after this date (UTC). */
  from: z.iso.date('from must be a date (YYYY-MM-DD)').optional(),
  /** Created on or before this date (UTC). */
  to: z.iso.date('to must be a date (YYYY-MM-DD)').optional(),
  bulkSendId: z.uuid('bulkSendId must be a bulk send id').optional(),
  contractId: z.uuid('contractId must be a contract id').optional(),
  customerId: z.uuid('customerId must be a customer id').optional(),
  /** E.164, as API.md's `GET /api/outbox?recipient=` has it. */
  recipient: z.string().trim().max(20, 'recipient is at most 20 characters').optional(),
});
export const messagePageSchema = pageOf(messageSchema);

export const messageTemplateSchema = z.object({
  key: z.string(),
  channel: z.enum(MESSAGE_CHANNELS),
  language: z.string(),
  /** What staff call it: the built-in's label, or the name given when it was created. */
  name: z.string().optional(),
  /** E-mail only. */
  subject: z.string().nullable().optional(),
  /** Seeded: editable, never deleted. */
  builtin: z.boolean().optional(),
  body: z.string(),
  version: z.number().int(),
  /** The variables the template may use. */
  variables: z.array(z.string()),
  updatedAt: z.string(),
});
export type MessageTemplate = z.infer<typeof messageTemplateSchema>;

export const templateUpdateBody = z.strictObject({
  /** A built-in key or a template staff created. */
  key: z
    .string({ error: 'Give the template key' })
    .trim()
    .regex(/^[a-z][a-z0-9_]{1,47}$/, 'key must be a template key'),
  channel: z
    .enum(MESSAGE_CHANNELS, { error: `channel must be one of: ${MESSAGE_CHANNELS.join(', ')}` })
    .default('sms'),
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2}$/, 'language is a two-letter code such as en')
    .default('en'),
  body: z
    .string({ error: 'Give the message text' })
    .trim()
    .min(1, 'Give the message text')
    .max(1000, 'The message text is at most 1,000 characters'),
  /** E-mail only: the subject line. */
  subject: z.string().trim().max(200, 'The subject is at most 200 characters').optional(),
});
export type TemplateUpdateBody = z.input<typeof templateUpdateBody>;

export const messageEndpoints = {
  /** The templates, each with the variables it may use. */
  templates: endpoint({
    method: 'GET',
    path: '/api/message-templates',
    response: z.object({ items: z.array(messageTemplateSchema) }),
  }),
  /** Edits a template's text (its version is raised; messages keep the text they were sent with). */
  updateTemplate: endpoint({
    method: 'PUT',
    path: '/api/message-templates',
    body: templateUpdateBody,
    response: messageTemplateSchema,
  }),
  /** API.md "Messages": the outbox, newest first, for staff allowed to see messages. */
  outbox: endpoint({
    method: 'GET',
    path: '/api/outbox',
    query: messageListQuery,
    response: messagePageSchema,
  }),
};
