import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Notification } from '../../../contracts/notifications';
import type { NotificationCategory } from '../../../contracts/profile';
import { PERMISSIONS, type Permission, ROLES, type Role, roleRank } from '../../../contracts/roles';
import { queryRows } from '../../../db/client';
import { notifications, userPreferences, users } from '../../../db/schema';
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
  const executor = ctx.tx;
  let who: ReturnType<typeof sql>;
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
  const recipients = await queryRows<{ user_id: string }>(
    executor,
    sql`
    INSERT INTO ${notifications} (id, user_id, title, message, type, link, created_at)
    SELECT gen_random_uuid()::text, ${users.id},
           ${input.title}, ${input.message}, ${input.type}, ${input.link ?? null}, ${ctx.clock.now()}
    FROM ${users} LEFT JOIN ${userPreferences} ON ${userPreferences.userId} = ${users.id}
    WHERE ${users.active} AND ${who} AND ${optedOut}
    RETURNING user_id`,
  );
  const key = 'userId' in target ? target.userId : '*';
  await ctx.bus.publish(executor, 'notifications', key);
  return recipients.length;
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
