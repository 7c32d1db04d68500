import { z } from 'zod';
import { AUTH_PATHS } from './auth-paths';
import { endpoint, okSchema } from './endpoint';
import { ROLES } from './roles';

/** Request and response shapes of the auth API (API.md "Auth"), shared by server and web. */

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email('Enter a valid email address'))
  .transform((value) => value.toLowerCase());

const newPassword = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

const personName = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);

export const totpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app');

/** At sign-in the code field takes either a TOTP code or a one-time recovery code (xxxxx-xxxxx). */
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{5}-[a-z2-7]{5}$/;
const signInCode = z
  .string()
  .trim()
  .toLowerCase()
  .refine(
    (value) => /^\d{6}$/.test(value) || RECOVERY_CODE_PATTERN.test(value),
    'Enter the 6-digit code from your authenticator app, or a recovery code',
  );

export const loginBody = z.strictObject({
  email,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(PASSWORD_MAX_LENGTH, 'Password is too long'),
  totp: signInCode.optional(),
});
export type LoginBody = z.input<typeof loginBody>;
export type LoginInput = z.output<typeof loginBody>;

export const registerBody = z.strictObject({
  email,
  password: newPassword,
  firstName: personName('First name'),
  lastName: personName('Last name'),
  inviteToken: z.string().trim().min(1).max(200).optional(),
});
export type RegisterBody = z.input<typeof registerBody>;
export type RegisterInput = z.output<typeof registerBody>;

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  isOwner: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

export const csrfTokenResponse = z.object({ csrfToken: z.string() });

export const inviteCreateBody = z.strictObject({
  email: email.optional(),
  role: z.enum(ROLES, { error: `Role must be one of: ${ROLES.join(', ')}` }),
});
export type InviteCreateBody = z.input<typeof inviteCreateBody>;

export const inviteSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  role: z.enum(ROLES),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  status: z.enum(['open', 'used', 'expired', 'revoked']),
});
export type Invite = z.infer<typeof inviteSchema>;

/** The token is returned once, at creation; only its hash is stored. */
export const inviteCreatedSchema = inviteSchema.extend({ token: z.string(), url: z.string() });
export type InviteCreated = z.infer<typeof inviteCreatedSchema>;

export const invitePreviewSchema = z.object({ email: z.string().nullable(), role: z.enum(ROLES) });
export type InvitePreview = z.infer<typeof invitePreviewSchema>;

export const staffUserSchema = userSchema.extend({
  active: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

export const staffUserUpdateBody = z
  .strictObject({
    role: z.enum(ROLES, { error: `Role must be one of: ${ROLES.join(', ')}` }).optional(),
    active: z.boolean({ error: 'Active must be true or false' }).optional(),
  })
  .refine((body) => body.role !== undefined || body.active !== undefined, {
    message: 'Nothing to change: give a role or active',
  });
export type StaffUserUpdateBody = z.input<typeof staffUserUpdateBody>;

/** The invite lookup's query: the token from the link. */
export const inviteLookupQuery = z.strictObject({ token: z.string().min(1, 'token is required').max(200) });

/** /api/login, /api/register...: signing in and out, and who is signed in. */
export const authEndpoints = {
  csrfToken: endpoint({ method: 'GET', path: AUTH_PATHS.csrfToken, response: csrfTokenResponse }),
  login: endpoint({ method: 'POST', path: AUTH_PATHS.login, body: loginBody, response: userSchema }),
  /** The administrator sign-in: refuses roles below admin. */
  adminLogin: endpoint({
    method: 'POST',
    path: AUTH_PATHS.adminLogin,
    body: loginBody,
    response: userSchema,
  }),
  register: endpoint({
    method: 'POST',
    path: AUTH_PATHS.register,
    body: registerBody,
    response: userSchema,
    status: 201,
  }),
  logout: endpoint({ method: 'POST', path: AUTH_PATHS.logout, response: okSchema }),
  /** The signed-in user (401 when signed out). */
  user: endpoint({ method: 'GET', path: AUTH_PATHS.user, response: userSchema }),
};

// The message stays the one these routes have always given, without naming what the id is of.
const anyId = z.object({ id: z.uuid('Not a valid id') });

/** /api/users: staff user administration (PRODUCT.md section 3, Admin: users). */
export const userEndpoints = {
  list: endpoint({ method: 'GET', path: '/api/users', response: z.array(staffUserSchema) }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/users/:id',
    params: anyId,
    body: staffUserUpdateBody,
    response: staffUserSchema,
  }),
};

/** /api/invites: invite links to register with a role. */
export const inviteEndpoints = {
  list: endpoint({ method: 'GET', path: '/api/invites', response: z.array(inviteSchema) }),
  create: endpoint({
    method: 'POST',
    path: '/api/invites',
    body: inviteCreateBody,
    response: inviteCreatedSchema,
    status: 201,
  }),
  revoke: endpoint({
    method: 'POST',
    path: '/api/invites/:id/revoke',
    params: anyId,
    response: inviteSchema,
  }),
  /** Public: the register page shows whom an invite is for before the form is filled in. */
  lookup: endpoint({
    method: 'GET',
    path: '/api/invites/lookup',
    query: inviteLookupQuery,
    response: invitePreviewSchema,
  }),
};

/** Error body of every non-2xx API answer (ARCHITECTURE.md "Errors"). */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  /** Structured facts of the refusal, for the codes whose ERROR_CODES entry describes them. */
  details: z.record(z.string(), z.unknown()).optional(),
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
