import { z } from 'zod';
import { FREQUENCIES, INTEREST_METHODS, SCHEDULE_LIMITS } from '../domain';
import type { QuoteQuery } from './calculator';
import { endpoint, idParams } from './endpoint';
import { MAX_MONEY_INPUT } from './money';
import type { Permission } from './roles';

/**
 * The public financing demo (issue 16 §4) and its editor (§5). The demo's content (devices, plans,
 * texts, images) is kept as versions in `demo_versions`: at most one draft and one published; a
 * publish archives the previous published version. Revert copies an earlier version into the
 * draft (it never publishes by itself), so every change to the live demo goes through one publish.
 */
/**
 * Who edits the demo and may walk through its draft: the permission administrators hold for the
 * organisation's settings (the demo is the organisation's public face).
 */
export const DEMO_EDITOR_PERMISSION = 'admin.settings' satisfies Permission;

export const DEMO_VERSION_STATUSES = ['draft', 'published', 'archived'] as const;
export type DemoVersionStatus = (typeof DEMO_VERSION_STATUSES)[number];

export const DEMO_DEVICE_CATEGORIES = ['phone', 'solar', 'tv', 'laptop', 'other'] as const;
export type DemoDeviceCategory = (typeof DEMO_DEVICE_CATEGORIES)[number];
export const DEMO_CATEGORY_LABELS: Record<DemoDeviceCategory, string> = {
  phone: 'Phone',
  solar: 'Solar kit',
  tv: 'TV',
  laptop: 'Laptop',
  other: 'Other',
};

/** Image uploads: PNG, JPEG or WebP recognised by content, at most 2 MB (photos for a web page). */
export const DEMO_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const DEMO_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export const DEMO_LIMITS = Object.freeze({ devices: 12, plans: 6, maxDepositPercent: 90 });

/** A required line of text of at most `max` characters, its message naming the field. */
const line = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
const paragraph = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);

/** Ids inside the content: short slugs or uuids, so the editor can make them in the browser. */
const itemId = z
  .string({ error: 'id is required' })
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'id must be lower-case letters, digits and dashes');
const imageId = z.uuid('Not a valid image id').nullable();

export const demoDeviceSchema = z.strictObject({
  id: itemId,
  name: line('Name', 80),
  category: z.enum(DEMO_DEVICE_CATEGORIES, {
    error: `Category must be one of: ${DEMO_DEVICE_CATEGORIES.join(', ')}`,
  }),
  /** Cash price in minor units of the organisation's currency. */
  price: z
    .number({ error: 'Price must be an amount' })
    .int('Price must be a whole number of minor units')
    .min(100, 'Price must be at least 1.00')
    .max(MAX_MONEY_INPUT, 'Price is too large'),
  imageId,
  description: paragraph('Description', 240),
});
export type DemoDevice = z.infer<typeof demoDeviceSchema>;

export const demoPlanSchema = z.strictObject({
  id: itemId,
  name: line('Name', 60),
  depositPercent: z
    .number({ error: 'Deposit must be a percentage' })
    .int('Deposit must be a whole percentage')
    .min(0, 'Deposit cannot be negative')
    .max(DEMO_LIMITS.maxDepositPercent, `Deposit must be at most ${DEMO_LIMITS.maxDepositPercent} %`),
  frequency: z.enum(FREQUENCIES as ['daily', 'weekly', 'monthly'], {
    error: 'Frequency must be daily, weekly or monthly',
  }),
  term: z
    .number({ error: 'Term must be a number of instalments' })
    .int('Term must be a whole number of instalments')
    .min(SCHEDULE_LIMITS.minTerm, `Term must be at least ${SCHEDULE_LIMITS.minTerm}`)
    .max(SCHEDULE_LIMITS.maxTerm, `Term must be at most ${SCHEDULE_LIMITS.maxTerm}`),
  apr: z
    .number({ error: 'APR must be a number' })
    .min(SCHEDULE_LIMITS.minApr, `APR must be at least ${SCHEDULE_LIMITS.minApr} %`)
    .max(SCHEDULE_LIMITS.maxApr, `APR must be at most ${SCHEDULE_LIMITS.maxApr} %`)
    .refine((value) => Number.isInteger(value * 100), 'APR can have at most 2 decimals'),
  interestMethod: z.enum(INTEREST_METHODS as ['declining', 'flat'], {
    error: 'Interest method must be declining or flat',
  }),
});
export type DemoPlan = z.infer<typeof demoPlanSchema>;

export const DEMO_STEPS = ['device', 'plan', 'schedule', 'kyc', 'payment', 'unlock'] as const;
export type DemoStep = (typeof DEMO_STEPS)[number];

const stepTextSchema = z.strictObject({ heading: line('Heading', 80), help: paragraph('Help', 400) });
export const demoTextsSchema = z.strictObject({
  title: line('Title', 80),
  intro: paragraph('Introduction', 600),
  steps: z.strictObject({
    device: stepTextSchema,
    plan: stepTextSchema,
    schedule: stepTextSchema,
    kyc: stepTextSchema,
    payment: stepTextSchema,
    unlock: stepTextSchema,
  }),
  kycNote: paragraph('KYC note', 400),
  closing: paragraph('Closing text', 600),
});
export type DemoTexts = z.infer<typeof demoTextsSchema>;

function uniqueIds(items: ReadonlyArray<{ id: string }>, path: string, context: z.RefinementCtx): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.id)) {
      context.addIssue({ code: 'custom', path: [path, index, 'id'], message: 'This id is used twice' });
    }
    seen.add(item.id);
  });
}

export const demoContentSchema = z
  .strictObject({
    devices: z
      .array(demoDeviceSchema, { error: 'Devices must be a list' })
      .min(1, 'Add at least one device')
      .max(DEMO_LIMITS.devices, `At most ${DEMO_LIMITS.devices} devices`),
    plans: z
      .array(demoPlanSchema, { error: 'Plans must be a list' })
      .min(1, 'Add at least one plan')
      .max(DEMO_LIMITS.plans, `At most ${DEMO_LIMITS.plans} plans`),
    texts: demoTextsSchema,
    /** The picture at the top of the demo, or none. */
    heroImageId: imageId,
  })
  .superRefine((content, context) => {
    uniqueIds(content.devices, 'devices', context);
    uniqueIds(content.plans, 'plans', context);
  });
export type DemoContent = z.infer<typeof demoContentSchema>;

/** The deposit a plan asks for a device, in minor units (a whole minor unit, rounded half up). */
export function demoDeposit(
  device: Pick<DemoDevice, 'price'>,
  plan: Pick<DemoPlan, 'depositPercent'>,
): number {
  return Math.round((device.price * plan.depositPercent) / 100);
}

/** The calculator quote (same engine as the contracts) for a device on a plan. */
export function demoQuoteQuery(device: DemoDevice, plan: DemoPlan): QuoteQuery {
  return {
    price: device.price,
    deposit: demoDeposit(device, plan),
    apr: plan.apr,
    frequency: plan.frequency,
    term: plan.term,
    interestMethod: plan.interestMethod,
  };
}

/** Days of use one instalment buys: what the demo's unlock code adds. */
export const DEMO_PERIOD_DAYS = { daily: 1, weekly: 7, monthly: 30 } as const;

/** Where the served content came from: the published version, or the built-in default. */
export const demoContentAnswerSchema = z.object({
  source: z.enum(['published', 'default', 'draft']),
  version: z.number().int().nullable(),
  publishedAt: z.string().nullable(),
  content: demoContentSchema,
});
export type DemoContentAnswer = z.infer<typeof demoContentAnswerSchema>;

/**
 * The draft as the editor sees it. Without a draft (`exists: false`) the content is the published
 * one (or the default) and the first save creates the draft from it. `revision` is the optimistic
 * check: a save or publish names the revision it started from, and a stale one is refused (409).
 */
export const demoDraftSchema = z.object({
  exists: z.boolean(),
  version: z.number().int().nullable(),
  revision: z.string().nullable(),
  /** The published version when the draft was read (null: the default content is live). */
  publishedVersion: z.number().int().nullable(),
  note: z.string().nullable(),
  updatedAt: z.string().nullable(),
  /** Who started the draft. */
  createdBy: z.string().nullable(),
  content: demoContentSchema,
});
export type DemoDraft = z.infer<typeof demoDraftSchema>;

export const demoVersionSummarySchema = z.object({
  id: z.string(),
  version: z.number().int(),
  status: z.enum(DEMO_VERSION_STATUSES),
  note: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
  publishedBy: z.string().nullable(),
  devices: z.number().int(),
  plans: z.number().int(),
});
export type DemoVersionSummary = z.infer<typeof demoVersionSummarySchema>;

const revisionField = z
  .string({ error: 'expectedRevision is required (null when no draft exists yet)' })
  .max(100)
  .nullable();
const noteField = paragraph('Note', 200).nullable().optional();

export const demoDraftBody = z.strictObject({
  expectedRevision: revisionField,
  content: demoContentSchema,
  note: noteField,
});
export type DemoDraftBody = z.input<typeof demoDraftBody>;

export const demoPublishBody = z.strictObject({
  expectedRevision: z.string({ error: 'expectedRevision is required' }).min(1).max(100),
  note: noteField,
});

export const demoRevertBody = z.strictObject({ expectedRevision: revisionField });

export const demoImageSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  mimeType: z.enum(DEMO_IMAGE_TYPES),
  size: z.number().int(),
  sha256: z.string(),
  createdAt: z.string(),
});
export type DemoImage = z.infer<typeof demoImageSchema>;

export const demoPaymentBody = z.strictObject({
  deviceId: itemId,
  planId: itemId,
  /** Administrators previewing the draft pay for its devices and plans (still simulated). */
  preview: z.boolean({ error: 'preview must be true or false' }).optional(),
});

/** A simulated deposit payment: computed, never stored; the unlock code is from a demo key. */
export const demoPaymentSchema = z.object({
  simulated: z.literal(true),
  receipt: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  method: z.string(),
  deviceName: z.string(),
  planName: z.string(),
  unlockCode: z.string(),
  days: z.number().int(),
  sms: z.string(),
});
export type DemoPayment = z.infer<typeof demoPaymentSchema>;

const imageParams = idParams('image');

export const demoEndpoints = {
  /** Public: the published content, or the built-in default before anything is published. */
  content: endpoint({ method: 'GET', path: '/api/demo/content', response: demoContentAnswerSchema }),
  /** Public: an image the content names (cacheable; ids are never reused). */
  image: endpoint({ method: 'GET', path: '/api/demo/images/:id', params: imageParams, response: 'file' }),
  /** Public, rate limited: the simulated deposit payment and its unlock code. Writes nothing. */
  payment: endpoint({
    method: 'POST',
    path: '/api/demo/payment',
    body: demoPaymentBody,
    response: demoPaymentSchema,
  }),
  draft: endpoint({ method: 'GET', path: '/api/demo/draft', response: demoDraftSchema }),
  saveDraft: endpoint({
    method: 'PUT',
    path: '/api/demo/draft',
    body: demoDraftBody,
    response: demoDraftSchema,
  }),
  publish: endpoint({
    method: 'POST',
    path: '/api/demo/publish',
    body: demoPublishBody,
    response: demoVersionSummarySchema,
  }),
  versions: endpoint({
    method: 'GET',
    path: '/api/demo/versions',
    response: z.object({ items: z.array(demoVersionSummarySchema) }),
  }),
  /** Copies an earlier version's content into the draft (publish it to make it live). */
  revert: endpoint({
    method: 'POST',
    path: '/api/demo/versions/:id/revert',
    params: idParams('demo version'),
    body: demoRevertBody,
    response: demoDraftSchema,
  }),
  uploadImage: endpoint({
    method: 'POST',
    path: '/api/demo/images',
    body: 'multipart',
    response: demoImageSchema,
    status: 201,
  }),
};
