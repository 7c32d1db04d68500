import { createHash } from 'node:crypto';
import cronParser from 'cron-parser';

/** The latest slot of a cron expression at or before `now`, in a time zone. */
export function latestSlot(cron: string, timeZone: string, now: Date): Date {
  // prev() is strictly before its start, so start just after now to include a slot at now.
  return cronParser
    .parseExpression(cron, { currentDate: new Date(now.getTime() + 1), tz: timeZone })
    .prev()
    .toDate();
}

/** Checks a cron expression when the registry is loaded, not at the first tick. */
export function assertCron(cron: string): void {
  cronParser.parseExpression(cron);
}

/**
 * The queue job id of one slot of one job: every instance computes the same id, and the queue's
 * primary key lets only the first insert through, so a slot runs once however many instances tick.
 */
export function slotJobId(job: string, slot: Date): string {
  const hex = createHash('sha256').update(`${job}@${slot.toISOString()}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
