import { format } from 'date-fns';
import type { BadgeProps } from '@/web/components/ui/badge';

/** Seed sections 2, 7 and 9: the notification dropdown's fixed rules, kept free of React. */

/** The unread count is polled every 30 s while signed in. */
export const UNREAD_POLL_MS = 30_000;

/** List height: 400px in the desktop top bar, 300px from the phone's bottom bar. */
export const LIST_HEIGHT_PX = { 'top-bar': 400, 'bottom-bar': 300 } as const;

export const NOTIFICATION_TIME_FORMAT = 'MMM d, h:mm a';

/** The badge on the bell: nothing at 0, the number up to 9, then '9+'. */
export function unreadBadgeText(count: number | null | undefined): string | null {
  if (!count || count <= 0) return null;
  return count > 9 ? '9+' : String(count);
}

/** error, warning and success have their own badge; any other type is an outline badge. */
export function notificationBadgeVariant(type: string): NonNullable<BadgeProps['variant']> {
  switch (type) {
    case 'error':
      return 'destructive';
    case 'warning':
      return 'warning';
    case 'success':
      return 'success';
    default:
      return 'outline';
  }
}

/** 'Nov 22, 4:05 PM' (date-fns 'MMM d, h:mm a'), in the browser's time zone. */
export function formatNotificationTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : format(date, NOTIFICATION_TIME_FORMAT);
}

/** Accessible name of the bell: 'Notifications, 3 unread'. */
export function bellLabel(count: number | null | undefined): string {
  if (!count) return 'Notifications, none unread';
  return `Notifications, ${count} unread`;
}
