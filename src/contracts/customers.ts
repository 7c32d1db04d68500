import { z } from 'zod';
import { endpoint, idParams } from './endpoint';
import { listQuery, pageOf } from './lists';
import { can, type RoleHolder } from './roles';
import type { TransitionTable } from './transitions';

/** Customers and KYC (PRODUCT.md section 2, Customer), shared by server and web. */

/**
 * Who may be a customer's assigned agent: active staff whose role works with customers (agents
 * and above). A viewer only reads, so cannot follow a customer up. The server checks it; the
 * form offers only them.
 */
export function canHoldCustomers(staff: RoleHolder & { active: boolean }): boolean {
  return staff.active && can(staff, 'customers.write');
}

export const KYC_STATUSES = ['not_started', 'pending', 'verified', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];
export const KYC_DOCUMENT_TYPES = ['id_front', 'id_back', 'selfie', 'proof_of_address', 'other'] as const;
export type KycDocumentType = (typeof KYC_DOCUMENT_TYPES)[number];
export const KYC_DOCUMENT_LABELS: Record<KycDocumentType, string> = {
  id_front: 'ID (front)',
  id_back: 'ID (back)',
  selfie: 'Selfie',
  proof_of_address: 'Proof of address',
  other: 'Other document',
};
/** KYC is verified when the latest upload of each of these is verified. */
export const REQUIRED_KYC_DOCUMENTS: readonly KycDocumentType[] = ['id_front', 'selfie'];
export const DOCUMENT_STATUSES = ['pending', 'verified', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
/** A KYC document is reviewed once; a new upload replaces a rejected one. */
export const DOCUMENT_TRANSITIONS = {
  verify: { from: ['pending'], to: 'verified' },
  reject: { from: ['pending'], to: 'rejected' },
} as const satisfies TransitionTable<DocumentStatus>;
export type DocumentMove = keyof typeof DOCUMENT_TRANSITIONS;
/** Uploads: these types only, recognised by content; at most this size. */
export const KYC_MIME_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export const KYC_MAX_FILE_BYTES = 10 * 1024 * 1024;

export const GENDERS = ['female', 'male', 'other', 'undisclosed'] as const;
/** The scorecard's employment kinds (src/domain/scoring.ts). */
export const EMPLOYMENTS = [
  'salaried',
  'business_owner',
  'self_employed',
  'farmer',
  'casual',
  'student',
  'retired',
  'unemployed',
  'other',
] as const;
export const RISK_GRADES = ['A', 'B', 'C', 'D', 'E'] as const;
export const CONSENTS = ['sms', 'whatsapp', 'email', 'marketing', 'dataProcessing'] as const;
/** Two-letter codes of the languages a customer's messages may be in (a template without one falls back to English). */
export const CUSTOMER_LANGUAGES = ['en', 'sw', 'fr', 'pt', 'ar', 'am', 'ha', 'yo', 'lg', 'rw'] as const;
export type Consent = (typeof CONSENTS)[number];
export type CustomerLanguage = (typeof CUSTOMER_LANGUAGES)[number];

/** Optional text: trimmed; an empty string clears the field (null). */
const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

const requiredName = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);

const phone = z
  .string({ error: 'Phone number is required' })
  .trim()
  .min(1, 'Phone number is required')
  .max(40, 'Phone number must be at most 40 characters');

const email = z
  .string({ error: 'Email must be text' })
  .trim()
  .max(254, 'Email must be at most 254 characters')
  .transform((value) => value.toLowerCase())
  .refine((value) => value === '' || z.email().safeParse(value).success, 'Enter a valid email address')
  .transform((value) => (value === '' ? null : value))
  .nullable()
  .optional();

/** National ID: upper case, without spaces, so that "ab 123" and "AB123" are the same person. */
const nationalId = z
  .string({ error: 'National ID must be text' })
  .transform((value) => value.replace(/\s+/g, '').toUpperCase())
  .refine(
    (value) => value === '' || /^[A-Z0-9][A-Z0-9/-]{3,29}$/.test(value),
    'National ID must be 4 to 30 letters or digits',
  )
  .transform((value) => (value === '' ? null : value))
  .nullable()
  .optional();

const dateOfBirth = z.iso
  .date('Date of birth must be a date (YYYY-MM-DD)')
  .refine((value) => value >= '1900-01-01', 'Date of birth must be after 1900')
  .refine((value) => value <= new Date().toISOString().slice(0, 10), 'Date of birth cannot be in the future')
  .nullable()
  .optional();

const monthlyIncome = z
  .number({ error: 'Monthly income must be a number (minor units)' })
  .int('Monthly income must be a whole number of minor units')
  .min(0, 'Monthly income cannot be negative')
  .max(Number.MAX_SAFE_INTEGER, 'Monthly income is too large')
  .nullable()
  .optional();

const consentsBody = z.strictObject(
  {
    sms: z.boolean({ error: 'SMS consent must be true or false' }).optional(),
    whatsapp: z.boolean({ error: 'WhatsApp consent must be true or false' }).optional(),
    email: z.boolean({ error: 'E-mail consent must be true or false' }).optional(),
    marketing: z.boolean({ error: 'Marketing consent must be true or false' }).optional(),
    dataProcessing: z.boolean({ error: 'Data processing consent must be true or false' }).optional(),
  },
  { error: 'Consents must be an object of true/false flags' },
);

export const MAX_CUSTOMER_TAGS = 20;

/** A tag: lower-case letters, digits and - _ . (so it reads the same in a URL and a CSV). */
export const customerTag = z
  .string({ error: 'A tag is text' })
  .trim()
  .toLowerCase()
  .min(1, 'A tag cannot be empty')
  .max(40, 'A tag is at most 40 characters')
  .regex(/^[\p{L}\p{N}][\p{L}\p{N}._-]*$/u, 'A tag is letters, digits, "-", "_" or "." (no spaces)');

const customerFields = {
  firstName: requiredName('First name'),
  lastName: requiredName('Last name'),
  otherNames: optionalText('Other names', 100),
  /** Any common format; stored in E.164 (the organisation's country when no +code is given). */
  phone,
  email,
  nationalId,
  dateOfBirth,
  gender: z
    .enum(GENDERS, { error: `Gender must be one of: ${GENDERS.join(', ')}` })
    .nullable()
    .optional(),
  address: optionalText('Address', 300),
  region: optionalText('Region', 100),
  occupation: optionalText('Occupation', 100),
  employment: z
    .enum(EMPLOYMENTS, { error: `Employment must be one of: ${EMPLOYMENTS.join(', ')}` })
    .nullable()
    .optional(),
  /** Minor units of the organisation's currency. */
  monthlyIncome,
  /** An active staff user. */
  assignedAgentId: z.uuid('Assigned agent must be a staff user id').nullable().optional(),
  /** true gives the consent (stamped with the time), false withdraws it. */
  consents: consentsBody.optional(),
  /** The language of the customer's messages. */
  language: z
    .enum(CUSTOMER_LANGUAGES, { error: `Language must be one of: ${CUSTOMER_LANGUAGES.join(', ')}` })
    .optional(),
  /** Labels (a fund, a campaign): stored lower-case, each once, in the order given. */
  tags: z
    .array(customerTag, { error: 'Tags must be a list of words' })
    .max(MAX_CUSTOMER_TAGS, `At most ${MAX_CUSTOMER_TAGS} tags`)
    .transform((tags) => [...new Set(tags)])
    .optional(),
};

export const customerCreateBody = z.strictObject(customerFields);
export type CustomerCreateBody = z.input<typeof customerCreateBody>;
export type CustomerCreateInput = z.output<typeof customerCreateBody>;

export const customerUpdateBody = z.strictObject({
  /** The version the change was based on; an older one is refused (409) so no change is lost. */
  version: z.number({ error: 'version is required' }).int('version must be a whole number').min(1),
  ...z.object(customerFields).partial().shape,
});
export type CustomerUpdateBody = z.input<typeof customerUpdateBody>;
export type CustomerUpdateInput = z.output<typeof customerUpdateBody>;

const personRef = z.object({ id: z.string(), name: z.string() });

export const riskFactorSchema = z.object({
  factor: z.string(),
  value: z.string(),
  points: z.number(),
  maxPoints: z.number(),
  reason: z.string(),
});

export const riskSchema = z.object({
  score: z.number().int(),
  maxScore: z.number().int(),
  grade: z.enum(RISK_GRADES),
  decision: z.enum(['approve', 'refer', 'decline']),
  overrides: z.array(z.string()),
  factors: z.array(riskFactorSchema),
  scoredAt: z.string(),
});
export type Risk = z.infer<typeof riskSchema>;

export const customerSchema = z.object({
  id: z.string(),
  accountNumber: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  otherNames: z.string().nullable(),
  fullName: z.string(),
  phone: z.string(),
  email: z.string().nullable(),
  nationalId: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  gender: z.string().nullable(),
  address: z.string().nullable(),
  region: z.string().nullable(),
  occupation: z.string().nullable(),
  employment: z.string().nullable(),
  monthlyIncome: z.number().int().nullable(),
  currency: z.string(),
  assignedAgent: personRef.nullable(),
  /** The language of the customer's messages (two letters). */
  language: z.string(),
  tags: z.array(z.string()),
  /** When each consent was given; null = not given. */
  consents: z.object({
    sms: z.string().nullable(),
    whatsapp: z.string().nullable(),
    email: z.string().nullable(),
    marketing: z.string().nullable(),
    dataProcessing: z.string().nullable(),
  }),
  kyc: z.object({
    status: z.enum(KYC_STATUSES),
    rejectionReason: z.string().nullable(),
    reviewedBy: personRef.nullable(),
    reviewedAt: z.string().nullable(),
    requiredDocuments: z.array(z.enum(KYC_DOCUMENT_TYPES)),
    /** Required documents without a verified latest upload. */
    missingDocuments: z.array(z.enum(KYC_DOCUMENT_TYPES)),
  }),
  risk: riskSchema.nullable(),
  /** True when phone, email and national ID are masked for the caller's role. */
  masked: z.boolean(),
  createdBy: personRef.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number().int(),
});
export type Customer = z.infer<typeof customerSchema>;

export const customerListItemSchema = z.object({
  id: z.string(),
  accountNumber: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  /** Masked for viewers. */
  phone: z.string(),
  /** Masked for viewers. */
  email: z.string().nullable(),
  /** Always masked in lists (last 4 characters shown). */
  nationalId: z.string().nullable(),
  region: z.string().nullable(),
  kycStatus: z.enum(KYC_STATUSES),
  riskScore: z.number().int().nullable(),
  riskGrade: z.string().nullable(),
  assignedAgent: personRef.nullable(),
  createdAt: z.string(),
});
export type CustomerListItem = z.infer<typeof customerListItemSchema>;

export const customerListQuery = listQuery(['createdAt', 'name', 'accountNumber', 'riskScore'], {
  kycStatus: z
    .enum(KYC_STATUSES, { error: `kycStatus must be one of: ${KYC_STATUSES.join(', ')}` })
    .optional(),
  region: z.string().trim().max(100, 'region must be at most 100 characters').optional(),
  /** Customers carrying this tag. */
  tag: customerTag.optional(),
  assignedAgentId: z.uuid('assignedAgentId must be a staff user id').optional(),
  riskGrade: z.enum(RISK_GRADES, { error: 'riskGrade must be one of A, B, C, D, E' }).optional(),
  /** Created on or after this business date (organisation time zone). */
  createdFrom: z.iso.date('createdFrom must be a date (YYYY-MM-DD)').optional(),
  /** Created on or before this business date (organisation time zone). */
  createdTo: z.iso.date('createdTo must be a date (YYYY-MM-DD)').optional(),
});
export const customerPageSchema = pageOf(customerListItemSchema);

export const kycDocumentSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  type: z.enum(KYC_DOCUMENT_TYPES),
  fileName: z.string(),
  /** Detected from the content. */
  mimeType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  rejectionReason: z.string().nullable(),
  uploadedBy: personRef.nullable(),
  uploadedAt: z.string(),
  reviewedBy: personRef.nullable(),
  reviewedAt: z.string().nullable(),
  /** The newest upload of its type (older ones stay for the record). */
  latest: z.boolean(),
});
export type KycDocument = z.infer<typeof kycDocumentSchema>;

export const documentUploadResultSchema = z.object({
  document: kycDocumentSchema,
  kycStatus: z.enum(KYC_STATUSES),
});

export const documentReviewBody = z
  .strictObject({
    decision: z.enum(['verify', 'reject'], { error: 'Decision must be verify or reject' }),
    reason: z
      .string({ error: 'Reason must be text' })
      .trim()
      .max(500, 'Reason must be at most 500 characters')
      .optional(),
  })
  .superRefine((body, issues) => {
    if (body.decision === 'reject' && !body.reason) {
      issues.addIssue({ code: 'custom', path: ['reason'], message: 'Give the reason for rejecting' });
    }
  });
export type DocumentReviewBody = z.input<typeof documentReviewBody>;

export const customerEventSchema = z.object({
  /** An audit row's number, or a conversation line's id (issue 15: messages are on the timeline). */
  id: z.union([z.number().int(), z.string()]),
  at: z.string(),
  action: z.string(),
  actor: z.string().nullable(),
  summary: z.string(),
});
export type CustomerEvent = z.infer<typeof customerEventSchema>;

/**
 * The `details` of a DUPLICATE_PHONE or DUPLICATE_NATIONAL_ID refusal: the customer who already
 * has the phone or national ID, so that the form links to them without reading the message.
 */
export const duplicateCustomerSchema = z.object({
  customerId: z.string(),
  accountNumber: z.string(),
  name: z.string(),
});
export type DuplicateCustomer = z.infer<typeof duplicateCustomerSchema>;

const customerId = idParams('customer');
const documentParams = z.object({
  id: z.uuid('Not a valid customer id'),
  documentId: z.uuid('Not a valid document id'),
});

/** /api/customers: customers, their KYC documents and their record. */
export const customerEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/customers',
    query: customerListQuery,
    response: customerPageSchema,
  }),
  /** The regions already used, for the form's suggestions. */
  regions: endpoint({ method: 'GET', path: '/api/customers/regions', response: z.array(z.string()) }),
  /** The tags in use, for filters and the form's suggestions. */
  tags: endpoint({ method: 'GET', path: '/api/customers/tags', response: z.array(z.string()) }),
  create: endpoint({
    method: 'POST',
    path: '/api/customers',
    body: customerCreateBody,
    response: customerSchema,
    status: 201,
  }),
  get: endpoint({ method: 'GET', path: '/api/customers/:id', params: customerId, response: customerSchema }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/customers/:id',
    params: customerId,
    body: customerUpdateBody,
    response: customerSchema,
  }),
  timeline: endpoint({
    method: 'GET',
    path: '/api/customers/:id/timeline',
    params: customerId,
    response: z.array(customerEventSchema),
  }),
  documents: endpoint({
    method: 'GET',
    path: '/api/customers/:id/documents',
    params: customerId,
    response: z.array(kycDocumentSchema),
  }),
  /** Multipart: a "type" field and one "file" (JPEG, PNG or PDF, at most 10 MB). */
  uploadDocument: endpoint({
    method: 'POST',
    path: '/api/customers/:id/documents',
    params: customerId,
    body: 'multipart',
    response: documentUploadResultSchema,
    status: 201,
  }),
  /** The document's bytes, shown inline (the web links to it). */
  documentFile: endpoint({
    method: 'GET',
    path: '/api/customers/:id/documents/:documentId/file',
    params: documentParams,
    response: 'file',
  }),
  reviewDocument: endpoint({
    method: 'POST',
    path: '/api/customers/:id/documents/:documentId/review',
    params: documentParams,
    body: documentReviewBody,
    response: documentUploadResultSchema,
  }),
};
