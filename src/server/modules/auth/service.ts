import { eq, sql } from 'drizzle-orm';
import type { AuditAction } from '../../../contracts/audit';
import {
  type LoginInput,
  RECOVERY_CODE_PATTERN,
  type RegisterInput,
  type User,
} from '../../../contracts/auth';
import { ROLE_LABELS } from '../../../contracts/roles';
import { users } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { AppContext, TxContext } from '../../context';
import { AppError, conflict, forbidden, unauthorized } from '../../errors';
import { withTransaction } from '../../transaction';
import { signedInFrom } from '../audit/sign-ins';
import { notify } from '../notifications/service';
import {
  consumeInvite,
  countUsers,
  findUserByEmail,
  insertUser,
  markInviteUsedBy,
  toUser,
} from '../users/service';
import { decoyHash, hashPassword, verifyPassword } from './password';
import { assertStrongPassword } from './password-policy';
import { consumeRecoveryCode } from './recovery-codes';
import { assertNotThrottled, clearAccountFailures, MAX_FAILURES, recordFailure } from './throttle';
import { matchTotp } from './totp';

export interface SignInMeta {
  ip: string;
  userAgent?: string | undefined;
  requestId: string;
  /** The session this browser held before signing in; it is ended (a new id at every sign-in). */
  previousSessionId?: string | undefined;
}

export interface SignedIn {
  user: User;
  token: string;
}

const INVALID_CREDENTIALS = 'Invalid email or password';
const ONE_REGISTRATION_AT_A_TIME = 4_101_977;

function anonymous(meta: SignInMeta, label: string | null): Actor {
  return { id: null, label, name: null, ip: meta.ip, requestId: meta.requestId };
}

/**
 * The first user of an empty organisation becomes the owner (admin); later users need an invite,
 * whose role they take. Signs the new user in.
 */
export async function register(ctx: TxContext, input: RegisterInput, meta: SignInMeta): Promise<SignedIn> {
  assertStrongPassword(input.password, input);
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  const { tx } = ctx;
  // Serialise registrations so "first user" is decided once, even under concurrent calls.
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${ONE_REGISTRATION_AT_A_TIME})`);
  const first = (await countUsers(tx)) === 0;
  let role: User['role'] = 'admin';
  let inviteId: string | undefined;
  let invitedBy: string | null = null;
  if (!first) {
    if (!input.inviteToken) {
      throw forbidden(
        'Registration needs an invitation. Ask an administrator for an invite link.',
        'INVITE_REQUIRED',
      );
    }
    if (await findUserByEmail(tx, input.email))
      throw conflict('An account with this email already exists', 'EMAIL_TAKEN');
    const invite = await consumeInvite(tx, input.inviteToken, input.email, now);
    role = invite.role;
    inviteId = invite.id;
    invitedBy = invite.createdBy;
  }
  const row = await insertUser(
    tx,
    {
      email: input.email,
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      role,
      isOwner: first,
    },
    now,
  );
  if (inviteId) await markInviteUsedBy(tx, inviteId, row.id);
  if (invitedBy) {
    await notify(
      ctx,
      { userId: invitedBy },
      {
        title: `${row.firstName} ${row.lastName} joined as ${ROLE_LABELS[row.role]}`,
        message: `${row.email} accepted your invite and can sign in now.`,
        type: 'success',
        link: '/admin/users',
        category: 'system',
      },
    );
  }
  const actor = { ...anonymous(meta, row.email), id: row.id };
  await writeAudit(tx, actor, {
    action: 'user.register',
    entityType: 'user',
    entityId: row.id,
    after: { email: row.email, role: row.role, isOwner: row.isOwner, inviteId: inviteId ?? null },
  });
  if (meta.previousSessionId) await ctx.sessions.revoke(meta.previousSessionId, tx);
  const token = await ctx.sessions.create(tx, row.id, meta);
  await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, row.id));
  return { user: toUser(row), token };
}

/**
 * Email + password (+ TOTP when the account has two-factor). Failures are counted per account and
 * per address; the sixth within 15 minutes is refused with 429 before any password is checked.
 */
export async function login(
  ctx: AppContext,
  input: LoginInput,
  meta: SignInMeta,
  options: { adminOnly: boolean },
): Promise<SignedIn> {
  const row = await findUserByEmail(ctx.db, input.email);
  const knownAddress = row ? await signedInFrom(ctx.db, row.id, meta.ip, ctx.clock.now()) : false;
  await assertNotThrottled(ctx, { email: input.email, ip: meta.ip, knownAddress });
  const passwordOk = await verifyPassword(input.password, row?.passwordHash ?? (await decoyHash()));
  if (!row || !passwordOk) {
    await failed(ctx, input.email, meta, 'bad_password', row?.id);
    throw unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
  }
  if (!row.active) {
    throw forbidden('This account is deactivated. Contact your administrator.', 'ACCOUNT_DISABLED');
  }
  if (options.adminOnly && !(row.isOwner || row.role === 'admin')) {
    await audit(ctx, anonymous(meta, row.email), 'auth.admin_login_refused', row.id);
    throw forbidden('This sign-in is for administrators only. Use the staff sign-in.', 'ADMIN_ONLY');
  }
  let totpStep: number | undefined;
  let recoveryCode: string | undefined;
  if (row.totpSecret && row.totpEnabledAt) {
    if (!input.totp) {
      throw new AppError(401, 'TOTP_REQUIRED', 'Enter the 6-digit code from your authenticator app', [
        { field: 'totp', message: 'Enter the 6-digit code from your authenticator app' },
      ]);
    }
    if (RECOVERY_CODE_PATTERN.test(input.totp)) {
      recoveryCode = input.totp;
    } else {
      const secret = ctx.keyring.decrypt('totp', row.totpSecret);
      const step = matchTotp(secret, input.totp, ctx.clock.now());
      // A step at or before the last accepted one is a replayed code.
      if (step !== null && step > (row.totpLastStep ?? -1)) totpStep = step;
    }
    const recoveryOk =
      recoveryCode !== undefined &&
      (await consumeRecoveryCode(ctx.db, row.id, recoveryCode, ctx.clock.now()));
    if (totpStep === undefined && !recoveryOk) {
      await failed(ctx, input.email, meta, 'bad_totp', row.id);
      throw invalidCode();
    }
  }
  await clearAccountFailures(ctx, row.email);
  const now = ctx.clock.now();
  // Sign-in is a flow of its own commits (failures are recorded even though the request fails),
  // so it opens the transaction that creates the session itself (decision 011).
  const token = await withTransaction(ctx, async ({ tx }) => {
    if (meta.previousSessionId) await ctx.sessions.revoke(meta.previousSessionId, tx);
    const created = await ctx.sessions.create(tx, row.id, meta);
    await tx
      .update(users)
      .set({ lastLoginAt: now, ...(totpStep !== undefined ? { totpLastStep: totpStep } : {}) })
      .where(eq(users.id, row.id));
    await writeAudit(
      tx,
      { ...anonymous(meta, row.email), id: row.id },
      {
        action: options.adminOnly ? 'auth.admin_login' : 'auth.login',
        entityType: 'user',
        entityId: row.id,
      },
    );
    return created;
  });
  return { user: toUser(row), token };
}

export async function logout(ctx: TxContext, sessionId: string, actor: Actor): Promise<void> {
  const { tx } = ctx;
  await ctx.sessions.revoke(sessionId, tx);
  await writeAudit(tx, actor, { action: 'auth.logout', entityType: 'user', entityId: actor.id });
}

function invalidCode(): AppError {
  return new AppError(401, 'INVALID_TOTP', 'Invalid two-factor code', [
    { field: 'totp', message: 'Invalid two-factor code' },
  ]);
}

async function failed(
  ctx: AppContext,
  email: string,
  meta: SignInMeta,
  reason: string,
  userId?: string,
): Promise<void> {
  const failures = await recordFailure(ctx, email, meta.ip);
  await audit(ctx, anonymous(meta, email), 'auth.login_failed', null, { reason });
  // The owner hears of a guessing run once, when it reaches the throttle, not at every attempt.
  if (userId && failures === MAX_FAILURES) {
    await withTransaction(ctx, (tx) =>
      notify(
        tx,
        { userId },
        {
          title: 'Failed sign-ins to your account',
          message: `${MAX_FAILURES} failed sign-in attempts in 15 minutes, the last from ${meta.ip}. If this was not you, change your password and turn on two-factor sign-in.`,
          type: 'warning',
          link: '/profile',
          category: 'system',
        },
      ),
    );
  }
}

async function audit(
  ctx: AppContext,
  actor: Actor,
  action: AuditAction,
  entityId: string | null,
  after?: unknown,
): Promise<void> {
  await writeAudit(ctx.db, actor, { action, entityType: 'user', entityId, after });
}
