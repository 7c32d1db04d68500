import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Invite, InviteCreated, InvitePreview, StaffUser, User } from '../../../contracts/auth';
import { ROLE_LABELS, type Role } from '../../../contracts/roles';
import { invites, users } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import { tablesChanged } from '../../cache';
import type { AppContext, Executor, TxContext } from '../../context';
import { conflict, fieldError, forbidden, notFound, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { randomToken, sha256 } from '../../secrets';
import { type NotificationInput, notify } from '../notifications/service';

export const INVITE_VALIDITY_MS = 7 * 24 * 3600_000;

type UserRow = typeof users.$inferSelect;
type InviteRow = typeof invites.$inferSelect;

export function toUser(
  row: Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'isOwner'>,
): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.role,
    isOwner: row.isOwner,
  };
}

function toStaffUser(row: UserRow): StaffUser {
  return {
    ...toUser(row),
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    twoFactorEnabled: row.totpEnabledAt !== null,
  };
}

export async function findUserByEmail(executor: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await executor.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function findUserById(executor: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await executor.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** People's names (else their email) by id, in one read: who saved, published or archived something. */
export async function userNames(
  executor: Executor,
  ids: ReadonlyArray<string | null>,
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)].filter((id): id is string => !!id);
  if (!wanted.length) return new Map();
  const rows = await executor
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((user) => [user.id, `${user.firstName} ${user.lastName}`.trim() || user.email]));
}

export async function countUsers(executor: Executor): Promise<number> {
  const rows = await executor.select({ id: users.id }).from(users).limit(1);
  return rows.length;
}

export interface NewUser {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  role: Role;
  isOwner: boolean;
}

/** Replaces a user's password hash (an administrative reset: the demo's `npm run demo:users`). */
export async function setPasswordHash(
  executor: Executor,
  id: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await executor.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, id));
}

export async function insertUser(executor: Executor, user: NewUser, now: Date): Promise<UserRow> {
  const existing = await findUserByEmail(executor, user.email);
  if (existing) throw conflict('An account with this email already exists', 'EMAIL_TAKEN');
  const [row] = await executor
    .insert(users)
    .values({ id: newId(), ...user, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('User insert returned nothing');
  return row;
}

export async function listStaffUsers(ctx: AppContext): Promise<StaffUser[]> {
  const rows = await ctx.db
    .select()
    .from(users)
    .orderBy(desc(users.isOwner), asc(users.lastName), asc(users.firstName));
  return rows.map(toStaffUser);
}

/** Role changes and deactivation; the owner can be neither demoted nor deactivated (PRODUCT.md section 1). */
export async function updateStaffUser(
  ctx: TxContext,
  actor: Actor,
  id: string,
  change: { role?: Role | undefined; active?: boolean | undefined },
): Promise<StaffUser> {
  const { tx } = ctx;
  const [before] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  if (!before) throw notFound('User not found');
  if (before.isOwner) throw unprocessable('The owner cannot be demoted or deactivated', 'OWNER_PROTECTED');
  if (before.id === actor.id) throw forbidden('You cannot change your own role or status');
  const notices: NotificationInput[] = [];
  if (change.role !== undefined && change.role !== before.role) {
    notices.push({
      title: `Your role was changed to ${ROLE_LABELS[change.role]}`,
      message: `${actor.label ?? 'An administrator'} changed your role from ${ROLE_LABELS[before.role]} to ${ROLE_LABELS[change.role]}. What you can see and do has changed with it.`,
      type: 'warning',
      category: 'system',
    });
  }
  if (change.active === false && before.active) {
    notices.push({
      title: 'Your account was deactivated',
      message: `${actor.label ?? 'An administrator'} deactivated your account; it was signed out everywhere.`,
      type: 'warning',
      category: 'system',
    });
  }
  if (change.active === true && !before.active) {
    notices.push({
      title: 'Your account was reactivated',
      message: `${actor.label ?? 'An administrator'} reactivated your account.`,
      type: 'success',
      category: 'system',
    });
  }
  // notify() skips deactivated accounts: a deactivation notice goes before the change (the user
  // reads it if the account is ever reactivated), every other one after it.
  const deliver = async () => {
    for (const notice of notices) await notify(ctx, { userId: id }, notice);
  };
  if (change.active === false) await deliver();
  const [after] = await tx
    .update(users)
    .set({ ...change, updatedAt: ctx.clock.now() })
    .where(eq(users.id, id))
    .returning();
  if (!after) throw notFound('User not found');
  if (change.active === false) await ctx.sessions.revokeUser(id, tx);
  else await ctx.sessions.userChanged(id, tx);
  if (change.active !== false) await deliver();
  await tablesChanged(ctx, tx, users);
  await writeAudit(tx, actor, {
    action: 'user.update',
    entityType: 'user',
    entityId: id,
    before: { role: before.role, active: before.active },
    after: { role: after.role, active: after.active },
  });
  return toStaffUser(after);
}

function inviteStatus(row: InviteRow, now: Date): Invite['status'] {
  if (row.revokedAt) return 'revoked';
  if (row.usedAt) return 'used';
  if (row.expiresAt <= now) return 'expired';
  return 'open';
}

function toInvite(row: InviteRow, now: Date): Invite {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    usedAt: row.usedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    status: inviteStatus(row, now),
  };
}

export async function createInvite(
  ctx: TxContext,
  actor: Actor,
  input: { email?: string | undefined; role: Role },
  baseUrl: string,
): Promise<InviteCreated> {
  if (input.email && (await findUserByEmail(ctx.tx, input.email))) {
    throw conflict('An account with this email already exists', 'EMAIL_TAKEN');
  }
  const token = randomToken(24);
  const now = ctx.clock.now();
  const { tx } = ctx;
  const [row] = await tx
    .insert(invites)
    .values({
      id: newId(),
      tokenHash: sha256(token),
      email: input.email ?? null,
      role: input.role,
      createdBy: actor.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITE_VALIDITY_MS),
    })
    .returning();
  if (!row) throw new Error('Invite insert returned nothing');
  await writeAudit(tx, actor, {
    action: 'invite.create',
    entityType: 'invite',
    entityId: row.id,
    after: { email: row.email, role: row.role, expiresAt: row.expiresAt },
  });
  return { ...toInvite(row, now), token, url: `${baseUrl}/register?invite=${encodeURIComponent(token)}` };
}

export async function listInvites(ctx: AppContext): Promise<Invite[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db.select().from(invites).orderBy(desc(invites.createdAt)).limit(500);
  return rows.map((row) => toInvite(row, now));
}

export async function revokeInvite(ctx: TxContext, actor: Actor, id: string): Promise<Invite> {
  const now = ctx.clock.now();
  const { tx } = ctx;
  const [row] = await tx
    .update(invites)
    .set({ revokedAt: now })
    .where(and(eq(invites.id, id), isNull(invites.usedAt), isNull(invites.revokedAt)))
    .returning();
  if (!row) {
    const [existing] = await tx.select().from(invites).where(eq(invites.id, id));
    if (!existing) throw notFound('Invite not found');
    throw conflict(`This invite is already ${inviteStatus(existing, now)}`);
  }
  await writeAudit(tx, actor, { action: 'invite.revoke', entityType: 'invite', entityId: id });
  return toInvite(row, now);
}

async function openInvite(executor: Executor, token: string, now: Date): Promise<InviteRow> {
  const [row] = await executor
    .select()
    .from(invites)
    .where(eq(invites.tokenHash, sha256(token)))
    .limit(1);
  if (!row || inviteStatus(row, now) !== 'open') {
    throw fieldError('inviteToken', 'This invitation link is invalid, used or expired. Ask for a new one.');
  }
  return row;
}

export async function previewInvite(ctx: AppContext, token: string): Promise<InvitePreview> {
  const row = await openInvite(ctx.db, token, ctx.clock.now());
  return { email: row.email, role: row.role };
}

/** Marks the invite used by this user; refuses one addressed to another email. Locks the row so it is used once. */
export async function consumeInvite(
  tx: Executor,
  token: string,
  email: string,
  now: Date,
): Promise<InviteRow> {
  const row = await openInvite(tx, token, now);
  const [locked] = await tx
    .update(invites)
    .set({ usedAt: now })
    .where(and(eq(invites.id, row.id), isNull(invites.usedAt), isNull(invites.revokedAt)))
    .returning();
  if (!locked)
    throw fieldError('inviteToken', 'This invitation link is invalid, used or expired. Ask for a new one.');
  if (locked.email && locked.email !== email) {
    throw fieldError('email', `This invitation is for ${locked.email}`);
  }
  return locked;
}

export async function markInviteUsedBy(tx: Executor, inviteId: string, userId: string): Promise<void> {
  await tx.update(invites).set({ usedBy: userId }).where(eq(invites.id, inviteId));
}
