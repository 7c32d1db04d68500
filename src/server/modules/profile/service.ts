import { and, desc, eq, gt } from 'drizzle-orm';
import type { User } from '../../../contracts/auth';
import type { SessionInfo, TwoFactorSetup, TwoFactorStatus } from '../../../contracts/profile';
import { sessions, users } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import { tablesChanged } from '../../cache';
import type { AppContext, Executor, TxContext } from '../../context';
import { AppError, conflict, fieldError, notFound, unprocessable } from '../../errors';
import { organisation } from '../../organisation';
import { hashPassword, verifyPassword } from '../auth/password';
import { assertStrongPassword } from '../auth/password-policy';
import { deleteRecoveryCodes, issueRecoveryCodes, recoveryCodesLeft } from '../auth/recovery-codes';
import { generateTotpSecret, matchTotp, otpauthUri } from '../auth/totp';
import { findUserByEmail, findUserById, toUser } from '../users/service';

async function currentUser(executor: Executor, id: string) {
  const row = await findUserById(executor, id);
  if (!row) throw notFound('User not found');
  return row;
}

async function assertPassword(
  password: string | undefined,
  hash: string,
  field = 'currentPassword',
): Promise<void> {
  if (!password) throw fieldError(field, 'Enter your current password to confirm');
  if (!(await verifyPassword(password, hash))) {
    throw new AppError(400, 'WRONG_PASSWORD', 'Current password is incorrect', [
      { field, message: 'Current password is incorrect' },
    ]);
  }
}

export async function updateProfile(
  ctx: TxContext,
  actor: Actor,
  input: { firstName: string; lastName: string; email: string; currentPassword?: string | undefined },
): Promise<User> {
  const id = actor.id ?? '';
  const before = await currentUser(ctx.tx, id);
  if (input.email !== before.email) {
    await assertPassword(input.currentPassword, before.passwordHash);
    const taken = await findUserByEmail(ctx.tx, input.email);
    if (taken) throw conflict('An account with this email already exists', 'EMAIL_TAKEN');
  }
  const { tx } = ctx;
  const [after] = await tx
    .update(users)
    .set({
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      updatedAt: ctx.clock.now(),
    })
    .where(eq(users.id, id))
    .returning();
  if (!after) throw notFound('User not found');
  await ctx.sessions.userChanged(id, tx);
  // Lists that show staff names (a customer's agent) drop their cached pages on every instance.
  await tablesChanged(ctx, tx, users);
  await writeAudit(tx, actor, {
    action: 'user.profile',
    entityType: 'user',
    entityId: id,
    before: { firstName: before.firstName, lastName: before.lastName, email: before.email },
    after: { firstName: after.firstName, lastName: after.lastName, email: after.email },
  });
  return toUser(after);
}

/** A new password ends every other session of the user; this one stays. */
export async function changePassword(
  ctx: TxContext,
  actor: Actor,
  sessionId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const id = actor.id ?? '';
  const user = await currentUser(ctx.tx, id);
  await assertPassword(input.currentPassword, user.passwordHash);
  if (input.currentPassword === input.newPassword) {
    throw fieldError('newPassword', 'Choose a password different from the current one');
  }
  assertStrongPassword(input.newPassword, user, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  const { tx } = ctx;
  await tx.update(users).set({ passwordHash, updatedAt: ctx.clock.now() }).where(eq(users.id, id));
  await ctx.sessions.revokeUser(id, tx, sessionId);
  await writeAudit(tx, actor, { action: 'user.password_change', entityType: 'user', entityId: id });
}

export async function twoFactorStatus(ctx: AppContext, userId: string): Promise<TwoFactorStatus> {
  const user = await currentUser(ctx.db, userId);
  return {
    enabled: user.totpEnabledAt !== null,
    enabledAt: user.totpEnabledAt?.toISOString() ?? null,
    recoveryCodesLeft: user.totpEnabledAt ? await recoveryCodesLeft(ctx.db, userId) : 0,
  };
}

/** Starts an enrolment: a new secret, kept pending until confirmed with a first code. */
export async function startTwoFactor(ctx: TxContext, userId: string): Promise<TwoFactorSetup> {
  const user = await currentUser(ctx.tx, userId);
  if (user.totpEnabledAt)
    throw conflict('Two-factor sign-in is already on; turn it off first to enrol again');
  const secret = generateTotpSecret();
  await ctx.tx
    .update(users)
    .set({ totpPendingSecret: ctx.keyring.encrypt('totp', secret), updatedAt: ctx.clock.now() })
    .where(eq(users.id, userId));
  const { name } = await organisation(ctx, ctx.tx);
  return { secret, otpauthUri: otpauthUri(secret, user.email, name) };
}

/** Confirms the enrolment with a code from the app; returns the recovery codes, shown once. */
export async function enableTwoFactor(ctx: TxContext, actor: Actor, code: string): Promise<string[]> {
  const id = actor.id ?? '';
  const user = await currentUser(ctx.tx, id);
  if (user.totpEnabledAt) throw conflict('Two-factor sign-in is already on');
  if (!user.totpPendingSecret) throw unprocessable('Start the set-up first: no enrolment is in progress');
  const secret = ctx.keyring.decrypt('totp', user.totpPendingSecret);
  const step = matchTotp(secret, code, ctx.clock.now());
  if (step === null)
    throw fieldError('code', 'That code does not match. Check the time on your phone and try the next code.');
  const now = ctx.clock.now();
  const { tx } = ctx;
  await tx
    .update(users)
    .set({
      totpSecret: user.totpPendingSecret,
      totpPendingSecret: null,
      totpEnabledAt: now,
      totpLastStep: step,
      updatedAt: now,
    })
    .where(eq(users.id, id));
  const codes = await issueRecoveryCodes(tx, id, now);
  await writeAudit(tx, actor, { action: 'user.two_factor_enable', entityType: 'user', entityId: id });
  return codes;
}

export async function disableTwoFactor(ctx: TxContext, actor: Actor, currentPassword: string): Promise<void> {
  const id = actor.id ?? '';
  const user = await currentUser(ctx.tx, id);
  await assertPassword(currentPassword, user.passwordHash);
  if (!user.totpEnabledAt) throw conflict('Two-factor sign-in is not on');
  const { tx } = ctx;
  await tx
    .update(users)
    .set({
      totpSecret: null,
      totpPendingSecret: null,
      totpEnabledAt: null,
      totpLastStep: null,
      updatedAt: ctx.clock.now(),
    })
    .where(eq(users.id, id));
  await deleteRecoveryCodes(tx, id);
  await writeAudit(tx, actor, { action: 'user.two_factor_disable', entityType: 'user', entityId: id });
}

export async function regenerateRecoveryCodes(
  ctx: TxContext,
  actor: Actor,
  currentPassword: string,
): Promise<string[]> {
  const id = actor.id ?? '';
  const user = await currentUser(ctx.tx, id);
  await assertPassword(currentPassword, user.passwordHash);
  if (!user.totpEnabledAt) throw conflict('Two-factor sign-in is not on');
  const { tx } = ctx;
  const codes = await issueRecoveryCodes(tx, id, ctx.clock.now());
  await writeAudit(tx, actor, { action: 'user.recovery_codes', entityType: 'user', entityId: id });
  return codes;
}

export async function listSessions(
  ctx: AppContext,
  userId: string,
  currentId: string,
): Promise<SessionInfo[]> {
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, ctx.clock.now())))
    .orderBy(desc(sessions.lastSeenAt));
  return rows.map((row) => ({
    // The public id is a prefix of the hash: enough to tell sessions apart, useless as a cookie.
    id: row.id.slice(0, 12),
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    ip: row.ip,
    userAgent: row.userAgent,
    current: row.id === currentId,
  }));
}

export async function revokeOtherSessions(ctx: TxContext, actor: Actor, currentId: string): Promise<number> {
  const id = actor.id ?? '';
  const { tx } = ctx;
  const others = await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id));
  await ctx.sessions.revokeUser(id, tx, currentId);
  await writeAudit(tx, actor, { action: 'user.sessions_revoke_others', entityType: 'user', entityId: id });
  return others.filter((row) => row.id !== currentId).length;
}
