import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth';

/** In-app notifications of one staff user (seed section 3: Notification). */
export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    message: text('message').notNull(),
    /** error | warning | success | any other (shown as an outline badge). */
    type: text('type').notNull(),
    link: text('link'),
    /** The work it asks for (`contract:<id>`), when any: resolved for everyone once done. */
    task: text('task'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} IS NULL`),
    index('notifications_open_task_idx').on(t.task).where(sql`${t.task} IS NOT NULL AND ${t.readAt} IS NULL`),
  ],
);
