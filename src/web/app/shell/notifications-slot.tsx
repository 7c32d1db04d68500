import { NotificationsBell } from '@/web/features/notifications/notifications-bell';

/**
 * The notifications bell in the desktop top bar and in the mobile bottom bar (seed section 2,
 * between CRM and More).
 */
export function NotificationsBellSlot({ placement }: { placement: 'top-bar' | 'bottom-bar' }) {
  return <NotificationsBell placement={placement} />;
}
