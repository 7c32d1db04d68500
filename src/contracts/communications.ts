import { z } from 'zod';
import { customerTag } from './customers';
import { DEVICE_CATEGORIES } from './devices';
import { endpoint, idParams, okSchema } from './endpoint';
import { MESSAGE_CHANNELS, messageSchema, messageTemplateSchema } from './messages';

/**
 * /communications (issue 15, PRODUCT.md §3): templates staff write (versions, languages, a
 * preview rendered on a real customer with its SMS segments and cost), a single message from a
 * customer's or contract's page, saved segments and bulk sends to them. Consent and quiet hours
 * stay the sender's: these endpoints only count who they would stop.
 */

const channel = z.enum(MESSAGE_CHANNELS, { error: `channel must be one of: ${MESSAGE_CHANNELS.join(', ')}` });
const language = z
  .string()
  .trim()
  .regex(/^[a-z]{2}$/, 'language is a two-letter code such as en');
export const TEMPLATE_KEY_PATTERN = /^[a-z][a-z0-9_]{1,47}$/;
const templateKey = z
  .string({ error: 'Give the template key' })
  .trim()
  .regex(TEMPLATE_KEY_PATTERN, 'The key is 2 to 48 lower-case letters, digits or _, starting with a letter');
const templateBody = z
  .string({ error: 'Give the message text' })
  .trim()
  .min(1, 'Give the message text')
  .max(1000, 'The message text is at most 1,000 characters');
const subject = z.string().trim().max(200, 'The subject is at most 200 characters').optional();

/** The key a template's name gives when none is written: "Harvest offer!" → harvest_offer. */
export function keyFromName(name: string): string {
  const key = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '')
    .slice(0, 48)
    .replace(/_+$/, '');
  return key.length >= 2 ? key : `t_${key}`.slice(0, 48);
}

export const templateCreateBody = z.strictObject({
  name: z.string({ error: 'Give the template a name' }).trim().min(2, 'Give the template a name').max(80),
  /** Derived from the name when absent. Giving an existing key adds a language or channel to it. */
  key: templateKey.optional(),
  channel: channel.default('sms'),
  language: language.default('en'),
  subject,
  body: templateBody,
});
export type TemplateCreateBody = z.input<typeof templateCreateBody>;

export const templateRef = z.object({ key: templateKey, channel, language: language.default('en') });

export const templateVersionSchema = z.object({
  version: z.number().int(),
  subject: z.string().nullable(),
  body: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  current: z.boolean(),
});
export type TemplateVersion = z.infer<typeof templateVersionSchema>;

export const smsEstimateSchema = z.object({
  encoding: z.enum(['GSM-7', 'UCS-2']),
  segments: z.number().int(),
  units: z.number().int(),
  perSegment: z.number().int(),
  /** messaging_settings.sms_cost_per_segment × segments, minor units of the organisation's currency. */
  costMinor: z.number().int(),
  currency: z.string(),
});

export const templatePreviewBody = z.strictObject({
  key: templateKey,
  channel: channel.default('sms'),
  customerId: z.uuid('Choose a customer'),
  /** This contract's figures instead of the customer's latest live contract's. */
  contractId: z.uuid('contractId must be a contract id').optional(),
  /** An unsaved text to preview instead of the stored one (the editor's). */
  body: templateBody.optional(),
  subject,
});

export const templatePreviewSchema = z.object({
  /** The language rendered: the customer's when the template has it, else English. */
  language: z.string(),
  customerLanguage: z.string(),
  contractId: z.string().nullable(),
  variables: z.record(z.string(), z.string()),
  subject: z.string().nullable(),
  body: z.string(),
  sms: smsEstimateSchema,
});
export type TemplatePreview = z.infer<typeof templatePreviewSchema>;

export const singleSendBody = z
  .strictObject({
    customerId: z.uuid('Choose a customer'),
    contractId: z.uuid('contractId must be a contract id').optional(),
    channel: channel.default('sms'),
    /** A template rendered for the customer; or `body`: free text, sent as the built-in `reply`. */
    templateKey: templateKey.optional(),
    body: templateBody.optional(),
  })
  .refine((value) => Boolean(value.templateKey) !== Boolean(value.body), {
    message: 'Choose a template or write the message, not both',
    path: ['body'],
  });
export type SingleSendBody = z.input<typeof singleSendBody>;

export const singleSendSchema = z.object({ message: messageSchema });

/**
 * A segment's filter: every part given must hold. A customer is in it when one of their live
 * contracts (active or defaulted) matches the contract parts (bucket, DPD, plan, product, agent)
 * and they match the customer parts: region, agent, and tags (any one of them).
 */
export const segmentFilterSchema = z.strictObject({
  buckets: z.array(z.string().trim().min(1).max(20)).max(20).optional(),
  dpdMin: z.number().int().min(0, 'DPD is 0 or more').max(10_000).optional(),
  dpdMax: z.number().int().min(0, 'DPD is 0 or more').max(10_000).optional(),
  regions: z.array(z.string().trim().min(1).max(80)).max(50).optional(),
  planIds: z.array(z.uuid('Not a plan id')).max(50).optional(),
  deviceModelIds: z.array(z.uuid('Not a device model id')).max(50).optional(),
  categories: z.array(z.enum(DEVICE_CATEGORIES)).max(10).optional(),
  /** The customer's assigned agent. */
  agentIds: z.array(z.string().min(1).max(64)).max(50).optional(),
  /** Customers carrying any of these tags. */
  tags: z.array(customerTag).max(50).optional(),
});
export type SegmentFilter = z.infer<typeof segmentFilterSchema>;

const segmentFilter = segmentFilterSchema.refine(
  (f) => f.dpdMin === undefined || f.dpdMax === undefined || f.dpdMin <= f.dpdMax,
  { message: 'The lowest DPD is at most the highest', path: ['dpdMax'] },
);

export const segmentBody = z.strictObject({
  name: z.string({ error: 'Give the segment a name' }).trim().min(2, 'Give the segment a name').max(80),
  description: z.string().trim().max(500).optional(),
  filter: segmentFilter,
});
export type SegmentBody = z.input<typeof segmentBody>;

export const segmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  filter: segmentFilterSchema,
  customers: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Segment = z.infer<typeof segmentSchema>;

const bulkTarget = {
  name: z.string({ error: 'Give the send a name' }).trim().min(2, 'Give the send a name').max(80),
  /** A saved segment, or a filter written for this send. */
  segmentId: z.uuid('Choose a segment').optional(),
  filter: segmentFilter.optional(),
  templateKey,
  channel: channel.default('sms'),
  /** Now when absent. */
  scheduledAt: z.iso.datetime({ offset: true, error: 'scheduledAt is a date and time' }).optional(),
  /** Messages a minute; the provider's rate (messaging settings) when absent. */
  ratePerMinute: z.number().int().min(1, 'At least 1 a minute').max(1_000_000).optional(),
};

export const bulkSendBody = z.strictObject(bulkTarget);
export type BulkSendBody = z.input<typeof bulkSendBody>;

export const bulkPreviewSchema = z.object({
  /** Customers in the segment. */
  inSegment: z.number().int(),
  /** Who will be sent it. */
  recipients: z.number().int(),
  /** Left out: no consent to the channel (or, for e-mail, no address). */
  excludedConsent: z.number().int(),
  /** Of the recipients, how many would fall in quiet hours and wait for them to end. */
  heldByQuietHours: z.number().int(),
  /** When the first held message will go (the end of quiet hours), if any is held. */
  heldUntil: z.string().nullable(),
  ratePerMinute: z.number().int(),
  scheduledAt: z.string(),
  /** When the last message is due to go, by the rate. */
  lastAt: z.string(),
  /** The message for one recipient, and its SMS estimate per message and for all. */
  sample: z.object({ body: z.string(), customerName: z.string() }).nullable(),
  sms: smsEstimateSchema.nullable(),
  totalCostMinor: z.number().int(),
});
export type BulkPreview = z.infer<typeof bulkPreviewSchema>;

export const bulkSendSchema = z.object({
  id: z.string(),
  name: z.string(),
  segmentId: z.string().nullable(),
  segmentName: z.string().nullable(),
  templateKey: z.string(),
  channel: z.enum(MESSAGE_CHANNELS),
  scheduledAt: z.string(),
  ratePerMinute: z.number().int(),
  status: z.enum(['scheduled', 'queued', 'cancelled']),
  recipients: z.number().int(),
  excludedConsent: z.number().int(),
  queued: z.number().int(),
  /** From the outbox, by bulk_send_id. */
  progress: z.object({
    queued: z.number().int(),
    sent: z.number().int(),
    delivered: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
  }),
  createdAt: z.string(),
  queuedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type BulkSend = z.infer<typeof bulkSendSchema>;

export const communicationEndpoints = {
  createTemplate: endpoint({
    method: 'POST',
    path: '/api/message-templates',
    body: templateCreateBody,
    response: messageTemplateSchema,
    status: 201,
  }),
  deleteTemplate: endpoint({
    method: 'DELETE',
    path: '/api/message-templates',
    query: templateRef,
    response: okSchema,
  }),
  templateVersions: endpoint({
    method: 'GET',
    path: '/api/message-templates/versions',
    query: templateRef,
    response: z.object({ items: z.array(templateVersionSchema) }),
  }),
  restoreTemplate: endpoint({
    method: 'POST',
    path: '/api/message-templates/restore',
    body: z.strictObject({ ...templateRef.shape, version: z.number().int().min(1) }),
    response: messageTemplateSchema,
  }),
  previewTemplate: endpoint({
    method: 'POST',
    path: '/api/message-templates/preview',
    body: templatePreviewBody,
    response: templatePreviewSchema,
  }),
  send: endpoint({
    method: 'POST',
    path: '/api/messages/send',
    body: singleSendBody,
    response: singleSendSchema,
    status: 201,
  }),
  retry: endpoint({
    method: 'POST',
    path: '/api/outbox/:id/retry',
    params: idParams('message'),
    response: singleSendSchema,
  }),
  segments: endpoint({
    method: 'GET',
    path: '/api/segments',
    response: z.object({ items: z.array(segmentSchema) }),
  }),
  createSegment: endpoint({
    method: 'POST',
    path: '/api/segments',
    body: segmentBody,
    response: segmentSchema,
    status: 201,
  }),
  updateSegment: endpoint({
    method: 'PUT',
    path: '/api/segments/:id',
    params: idParams('segment'),
    body: segmentBody,
    response: segmentSchema,
  }),
  deleteSegment: endpoint({
    method: 'DELETE',
    path: '/api/segments/:id',
    params: idParams('segment'),
    response: okSchema,
  }),
  countSegment: endpoint({
    method: 'POST',
    path: '/api/segments/count',
    body: z.strictObject({ filter: segmentFilter }),
    response: z.object({ customers: z.number().int() }),
  }),
  bulkSends: endpoint({
    method: 'GET',
    path: '/api/bulk-sends',
    response: z.object({ items: z.array(bulkSendSchema) }),
  }),
  previewBulkSend: endpoint({
    method: 'POST',
    path: '/api/bulk-sends/preview',
    body: bulkSendBody,
    response: bulkPreviewSchema,
  }),
  createBulkSend: endpoint({
    method: 'POST',
    path: '/api/bulk-sends',
    body: bulkSendBody,
    response: bulkSendSchema,
    status: 201,
  }),
  cancelBulkSend: endpoint({
    method: 'POST',
    path: '/api/bulk-sends/:id/cancel',
    params: idParams('bulk send'),
    response: bulkSendSchema,
  }),
};
