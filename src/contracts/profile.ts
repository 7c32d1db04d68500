import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, totpCode, userSchema } from './auth';
import { endpoint, okSchema } from './endpoint';

const name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);

export const profileUpdateBody = z.strictObject({
  firstName: name('First name'),
  lastName: name('Last name'),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .pipe(z.email('Enter a valid email address'))
    .transform((value) => value.toLowerCase()),
  /** Needed only when the email changes. */
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(),
});
export type ProfileUpdateBody = z.input<typeof profileUpdateBody>;

export const passwordChangeBody = z.strictObject({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(PASSWORD_MAX_LENGTH),
  newPassword: z
    .string({ error: 'New password is required' })
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
});
export type PasswordChangeBody = z.input<typeof passwordChangeBody>;

export const twoFactorSetupSchema = z.object({ secret: z.string(), otpauthUri: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

export const twoFactorEnableBody = z.strictObject({ code: totpCode });
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export const twoFactorDisableBody = z.strictObject({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(PASSWORD_MAX_LENGTH),
});
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const sessionInfoSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** /api/user/...: the signed-in user's own name and email, password, two-factor sign-in and sessions. */
export const profileEndpoints = {
  update: endpoint({
    method: 'PATCH',
    path: '/api/user/profile',
    body: profileUpdateBody,
    response: userSchema,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/api/user/password',
    body: passwordChangeBody,
    response: okSchema,
  }),
  twoFactor: endpoint({ method: 'GET', path: '/api/user/two-factor', response: twoFactorStatusSchema }),
  /** A new secret to enrol; two-factor is on only once a code from it is confirmed. */
  twoFactorSetup: endpoint({
    method: 'POST',
    path: '/api/user/two-factor/setup',
    response: twoFactorSetupSchema,
  }),
  twoFactorEnable: endpoint({
    method: 'POST',
    path: '/api/user/two-factor/enable',
    body: twoFactorEnableBody,
    response: recoveryCodesSchema,
  }),
  twoFactorDisable: endpoint({
    method: 'POST',
    path: '/api/user/two-factor/disable',
    body: twoFactorDisableBody,
    response: okSchema,
  }),
  /** Replaces every recovery code (the current password confirms). */
  recoveryCodes: endpoint({
    method: 'POST',
    path: '/api/user/two-factor/recovery-codes',
    body: twoFactorDisableBody,
    response: recoveryCodesSchema,
  }),
  sessions: endpoint({ method: 'GET', path: '/api/user/sessions', response: z.array(sessionInfoSchema) }),
  revokeOtherSessions: endpoint({
    method: 'POST',
    path: '/api/user/sessions/revoke-others',
    response: z.object({ revoked: z.number().int() }),
  }),
};

/** Pages a user may choose to land on after signing in. */
export const LANDING_PAGES = [
  '/',
  '/contracts',
  '/collections',
  '/crm',
  '/communications',
  '/analytics',
  '/customers',
  '/payment-processing',
] as const;

export const NOTIFICATION_CATEGORIES = {
  payments: 'Payments and reversals',
  collections: 'Collections and promises to pay',
  approvals: 'Approvals waiting for me',
  devices: 'Device locks and commands',
  system: 'System and security',
} as const;
export type NotificationCategory = keyof typeof NOTIFICATION_CATEGORIES;

export const preferencesSchema = z.object({
  theme: z.enum(['light', 'dark', 'system']),
  landingPage: z.enum(LANDING_PAGES),
  notificationSettings: z.record(z.string(), z.boolean()),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const preferencesBody = z.strictObject({
  theme: z.enum(['light', 'dark', 'system'], { error: 'Theme must be light, dark or system' }),
  landingPage: z.enum(LANDING_PAGES, { error: 'Choose one of the listed pages' }),
  notificationSettings: z.partialRecord(
    z.enum(Object.keys(NOTIFICATION_CATEGORIES) as [NotificationCategory, ...NotificationCategory[]]),
    z.boolean(),
  ),
});

const hhmm = (label: string) =>
  z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label} must be a time like 20:00`);

export const organisationSchema = z.object({
  name: z.string(),
  currency: z.string(),
  timeZone: z.string(),
  country: z.string(),
  delinquencyBuckets: z.array(z.number().int()),
  quietHoursStart: z.string(),
  quietHoursEnd: z.string(),
  /** Regulatory cap on a plan's APR, percent; null = no cap. */
  aprCap: z.number().nullable(),
  /** Risk scorecard income thresholds (minor units, ascending); null = not set. */
  incomeBands: z.tuple([z.number().int(), z.number().int(), z.number().int()]).nullable(),
  /** Local time ('HH:MM') at which the daily close of business closes the day. */
  closeOfBusinessTime: z.string(),
  /** Interest accrued daily for contracts started on or after this date; null = income when paid. */
  interestAccrualFrom: z.iso.date().nullable(),
  updatedAt: z.string(),
});
/** The organisation's settings as `GET /api/settings/organisation` answers them (and the form edits them). */
export type OrganisationSettings = z.infer<typeof organisationSchema>;

/**
 * The organisation as the server reads it (`organisation()`): its settings and where the business
 * date stands. The date has its own endpoint (`/api/business-date`), so the settings' answer and the
 * body that saves them stay as they are.
 */
export type Organisation = OrganisationSettings & {
  /** Days the business date runs ahead of the calendar (0 unless moved: API.md "Business date"). */
  businessDateOffset: number;
  /** The last business date the close of business completed; null until one has. */
  lastClosedDate: string | null;
};

/** A value a filter or field accepts, and how people read it. */
export const optionSchema = z.object({ value: z.string(), label: z.string() });
export type Option = z.infer<typeof optionSchema>;

/**
 * Every option list an organisation configures, for the web's filters and forms
 * (`GET /api/settings/options`): the web never hard-codes what an administrator can change.
 */
export const organisationOptionsSchema = z.object({
  /** The arrears buckets contracts are filed under (the contracts list's `bucket` filter values). */
  delinquencyBuckets: z.array(optionSchema),
});
export type OrganisationOptions = z.infer<typeof organisationOptionsSchema>;

/** What anyone may know about the organisation (public pages: calculator, portals). */
export const publicOrganisationSchema = z.object({
  name: z.string(),
  currency: z.string(),
  country: z.string(),
});
export type PublicOrganisation = z.infer<typeof publicOrganisationSchema>;

/** A scorecard income threshold, minor units (the form sends NaN for what is not an amount). */
const incomeThreshold = z
  .number({ error: 'Enter each income threshold as an amount, such as 5000' })
  .int('Income thresholds are whole minor units')
  .positive('Income thresholds must be above 0');

export const organisationBody = z.strictObject({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200),
  currency: z.string().regex(/^[A-Z]{3}$/, 'Currency must be a 3-letter ISO 4217 code'),
  timeZone: z.string().refine(isTimeZone, 'Unknown time zone (use an IANA name such as Africa/Nairobi)'),
  country: z.string().regex(/^[A-Z]{2}$/, 'Country must be a 2-letter ISO 3166 code'),
  delinquencyBuckets: z
    .array(z.number().int().min(1, 'Bucket bounds start at 1 day').max(3650), {
      error: 'Buckets must be a list of days',
    })
    .min(1, 'Give at least one bucket')
    .max(10, 'At most 10 buckets')
    .refine(
      (bounds) => bounds.every((bound, i) => i === 0 || bound > (bounds[i - 1] ?? 0)),
      'Bucket bounds must increase',
    ),
  quietHoursStart: hhmm('Quiet hours start'),
  quietHoursEnd: hhmm('Quiet hours end'),
  aprCap: z
    .number({ error: 'APR cap must be a number' })
    .min(0, 'APR cap must not be negative')
    .max(1000, 'APR cap must be at most 1000')
    .nullable()
    .optional(),
  incomeBands: z
    .tuple([incomeThreshold, incomeThreshold, incomeThreshold], { error: 'Give three income thresholds' })
    .refine(([low, mid, high]) => low < mid && mid < high, 'Income thresholds must increase')
    .nullable()
    .optional(),
  closeOfBusinessTime: hhmm('Close of business time').optional(),
  interestAccrualFrom: z.iso.date('Interest accrual start must be a date (YYYY-MM-DD)').nullable().optional(),
});
export type OrganisationBody = z.input<typeof organisationBody>;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
