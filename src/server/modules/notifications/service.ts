import { and, count, desc, eq, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Notification } from '../../../contracts/notifications';
import type { NotificationCategory } from '../../../contracts/profile';
import { PERMISSIONS, type Permission, ROLES, type Role, roleRank } from '../../../contracts/roles';
import { queryRows } from '../../../db/client';
import { notifications, userPreferences, users } from '../../../db/schema';
import { runWrites, type Writes } from '../../../db/writes';
import { instanceCache } from '../../cache';
import type { AppContext, TxContext } from '../../context';
import { notFound } from '../../errors';

export type NotificationTarget = { userId: string } | { role: Role } | { permission: Permission };

export interface NotificationInput {
  title: string;
  message: string;
  /** error | warning | success, or another word shown as an outline badge. */
  type: string;
  link?: string;
  /** Lets users switch a kind of notification off in their preferences. */
  category?: NotificationCategory;
  /**
   * The piece of work the notification asks for (e.g. `contract:<id>`), when it asks for one:
   * `resolveTask` marks it read for everyone once the work is done, so no one is left with a
   * to-do that someone else already did.
   */
  task?: string;
}

/** Polled by every open tab every 30 s: cached per user and instance, evicted on every change. */
const unreadCounts = (ctx: AppContext) => instanceCache<number>(ctx, 'notifications', 30_000);

function rolesHolding(permission: Permission): Role[] {
  return ROLES.filter((role) => roleRank(role) >= roleRank(PERMISSIONS[permission]));
}

/**
 * Creates a notification for a user, everyone of a role, or everyone whose role holds a
 * permission (the owner is always included for roles and permissions). Deactivated users and
 * users who switched the category off get nothing. Call inside the transaction of the event.
 */
export async function notify(
  ctx: TxContext,
  target: NotificationTarget,
  input: NotificationInput,
): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ctx.tx,
    sql`WITH ${notificationInsert(ctx, target, input)} SELECT count(*)::int AS n FROM notice`,
  );
  await ctx.bus.publish(ctx.tx, 'notifications', targetKey(target));
  return row?.n ?? 0;
}

/**
 * `notify` as a part of a larger statement (a payment's writes, decision 022): the notices as the
 * CTE `notice`, written only when `when` holds, with the unread counts' eviction after it.
 */
export function notificationWrites(
  ctx: TxContext,
  target: NotificationTarget,
  input: NotificationInput,
  when: SQL = sql`true`,
): Writes {
  return {
    with: [notificationInsert(ctx, target, input, when)],
    after: [() => ctx.bus.publish(ctx.tx, 'notifications', targetKey(target))],
  };
}

/**
 * Many notifications in one statement, one per row of `source` (user_id, title, message, type,
 * link, task): the close of business tells each collector of their own broken promises without a
 * statement per promise. Deactivated users and those who switched `category` off get nothing.
 * Answers how many were written.
 */
export async function notifyFrom(
  ctx: TxContext,
  source: SQL,
  category?: NotificationCategory,
  /** The users `source` names, when the caller knows them: only their unread counts are evicted. */
  recipients?: readonly string[],
): Promise<number> {
  const row = await runWrites<{ noticed: number }>(
    ctx.tx,
    [notificationsFromWrites(ctx, source, category, recipients)],
    { prepared: true },
  );
  return Number(row.noticed ?? 0);
}

/**
 * `notifyFrom` as a part of a larger statement: the notices as the CTE `noticed`, their count as
 * the column `noticed`, the unread counts' eviction after it.
 */
export function notificationsFromWrites(
  ctx: TxContext,
  source: SQL,
  category?: NotificationCategory,
  recipients?: readonly string[],
): Writes {
  const optedOut = category
    ? sql`COALESCE((${userPreferences.notificationSettings} ->> ${category})::boolean, true)`
    : sql`true`;
  return {
    with: [
      sql`noticed AS (
      INSERT INTO ${notifications} (id, user_id, title, message, type, link, task, created_at)
      SELECT new_row_id(), v.user_id, v.title, v.message, v.type, v.link, v.task, ${ctx.clock.now()}
      FROM (${source}) AS v(user_id, title, message, type, link, task)
      JOIN ${users} ON ${users.id} = v.user_id
      LEFT JOIN ${userPreferences} ON ${userPreferences.userId} = ${users.id}
      WHERE ${users.active} AND ${optedOut}
      RETURNING user_id)`,
    ],
    select: [sql`(SELECT count(*)::int FROM noticed) AS noticed`],
    after: [
      async () => {
        for (const key of recipients ? new Set(recipients) : ['*'])
          await ctx.bus.publish(ctx.tx, 'notifications', key);
      },
    ],
  };
}

const targetKey = (target: NotificationTarget) => ('userId' in target ? target.userId : '*');

function notificationInsert(
  ctx: TxContext,
  target: NotificationTarget,
  input: NotificationInput,
  when: SQL = sql`true`,
): SQL {
  let who: SQL;
  if ('userId' in target) {
    who = sql`${users.id} = ${target.userId}`;
  } else {
    const roles = 'role' in target ? [target.role] : rolesHolding(target.permission);
    who = sql`(${users.isOwner} OR ${users.role} IN (${sql.join(
      roles.map((role) => sql`${role}`),
      sql`, `,
    )}))`;
  }
  const optedOut = input.category
    ? sql`COALESCE((${userPreferences.notificationSettings} ->> ${input.category})::boolean, true)`
    : sql`true`;
  return sql`notice AS (
    INSERT INTO ${notifications} (id, user_id, title, message, type, link, task, created_at)
    SELECT new_row_id(), ${users.id},
           ${input.title}, ${input.message}, ${input.type}, ${input.link ?? null}, ${input.task ?? null},
           ${ctx.clock.now()}
    FROM ${users} LEFT JOIN ${userPreferences} ON ${userPreferences.userId} = ${users.id}
    WHERE ${users.active} AND ${who} AND ${optedOut} AND ${when}
    RETURNING user_id)`;
}

/**
 * The work a notification asked for is done (a contract approved, returned or cancelled): every
 * unread notification about it is marked read, whoever it went to. Call inside the transaction
 * of the event that did the work, before notifying about the next step.
 */
export async function resolveTask(ctx: TxContext, task: string): Promise<number> {
  const { tx } = ctx;
  const resolved = await tx
    .update(notifications)
    .set({ readAt: ctx.clock.now() })
    .where(and(eq(notifications.task, task), isNull(notifications.readAt)))
    .returning({ userId: notifications.userId });
  // Several users' counts change: evict them all (one message, like a notice to a role).
  if (resolved.length) await ctx.bus.publish(tx, 'notifications', '*');
  return resolved.length;
}

function toNotification(row: typeof notifications.$inferSelect): Notification {
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    type: row.type,
    read: row.readAt !== null,
    ...(row.link ? { link: row.link } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The newest 100; older ones stay until cleared but are not listed. */
export async function listNotifications(ctx: AppContext, userId: string): Promise<Notification[]> {
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(100);
  return rows.map(toNotification);
}

export async function unreadCount(ctx: AppContext, userId: string): Promise<number> {
  return unreadCounts(ctx).get(userId, async () => {
    const [row] = await ctx.db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    return Number(row?.n ?? 0);
  });
}

/** Only the owner of a notification can read, mark or delete it; another user's id is a 404. */
export async function markRead(ctx: TxContext, userId: string, id: string): Promise<Notification> {
  const { tx } = ctx;
  const [row] = await tx
    .update(notifications)
    .set({ readAt: sql`COALESCE(${notifications.readAt}, ${ctx.clock.now()})` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning();
  if (!row) throw notFound('Notification not found');
  await ctx.bus.publish(tx, 'notifications', userId);
  return toNotification(row);
}

/** "Mark all as read": every unread notification of the user, not only those a page listed. */
export async function markAllRead(ctx: TxContext, userId: string): Promise<number> {
  const { tx } = ctx;
  const updated = await tx
    .update(notifications)
    .set({ readAt: ctx.clock.now() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  await ctx.bus.publish(tx, 'notifications', userId);
  return updated.length;
}

/**
 * Brings a history built in one go (the demo's year of work) to where staff who keep up would
 * have it: notices that ask for nothing, older than `readBefore`, were read; read ones older than
 * `clearBefore` were cleared. A notice whose work is still undone stays unread.
 */
export async function settleHistory(
  ctx: TxContext,
  { readBefore, clearBefore }: { readBefore: Date; clearBefore: Date },
): Promise<void> {
  const { tx } = ctx;
  await tx
    .update(notifications)
    .set({ readAt: readBefore })
    .where(
      and(isNull(notifications.readAt), isNull(notifications.task), lt(notifications.createdAt, readBefore)),
    );
  await tx
    .delete(notifications)
    .where(and(isNotNull(notifications.readAt), lt(notifications.createdAt, clearBefore)));
  await ctx.bus.publish(tx, 'notifications', '*');
}

export async function deleteNotification(ctx: TxContext, userId: string, id: string): Promise<void> {
  const { tx } = ctx;
  const deleted = await tx
    .delete(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  if (!deleted.length) throw notFound('Notification not found');
  await ctx.bus.publish(tx, 'notifications', userId);
}

export async function clearAll(ctx: TxContext, userId: string): Promise<number> {
  const { tx } = ctx;
  const deleted = await tx
    .delete(notifications)
    .where(eq(notifications.userId, userId))
    .returning({ id: notifications.id });
  await ctx.bus.publish(tx, 'notifications', userId);
  return deleted.length;
}
