import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth';

/** What staff do in the app (seed section 9 event types), for the usage view of administrators. */
export const activityEvents = pgTable(
  'activity_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    page: text('page'),
    section: text('section'),
    referrer: text('referrer'),
    /** Seconds spent on the page (PAGE_EXIT, PAGE_UNLOAD, HEARTBEAT). */
    timeSpent: integer('time_spent'),
    element: text('element'),
    label: text('label'),
    testId: text('test_id'),
    href: text('href'),
    formName: text('form_name'),
    event: text('event'),
    data: jsonb('data'),
    error: jsonb('error'),
    context: jsonb('context'),
    /** The client's clock, as sent; receivedAt is ours. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_received_idx').on(t.receivedAt),
    index('activity_user_idx').on(t.userId, t.receivedAt),
  ],
);
